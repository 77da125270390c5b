"""The resolved configuration of one run, recorded in the manifest and reused by --resume."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from factprobe.eval.grading.base import HedgingPolicy

# Fields that define what a run measures; --resume refuses to change them.
IDENTITY_FIELDS = ("dataset", "strategies", "model", "judge", "hedging", "seed", "temperature",
                   "max_tokens", "limit", "repeats", "samples", "selector", "rounds", "retriever",
                   "top_k", "decomposer", "confidence", "consistency_samples", "hop_probes")


class RunConfig(BaseModel):
    """Every setting of a run. Strategy options live here too, so the manifest records them all."""

    model_config = ConfigDict(extra="forbid")

    dataset: str = "sample"
    strategies: list[str] = Field(default_factory=list)
    model: str = "local"
    judge: str | None = None
    hedging: HedgingPolicy = HedgingPolicy.ACCEPT
    limit: int | None = None
    seed: int = 0
    concurrency: int = 1
    out: Path | None = None
    repeats: int = 1
    temperature: float = 0.0
    max_tokens: int = 96
    use_cache: bool = True
    # strategy options
    samples: int = 4
    sample_temperature: float = 1.0
    selector: str = "model"
    rounds: int = 2
    retriever: str = "bm25"
    top_k: int = 3
    decomposer: str = "model"
    confidence: list[str] = Field(default_factory=lambda: ["verbal"])
    consistency_samples: int = 3
    hop_probes: bool = True

    def identity(self) -> dict:
        """The settings a resumed run must share with the run it continues."""
        data = self.model_dump(mode="json")
        return {key: data[key] for key in IDENTITY_FIELDS}

    def strategy_options(self) -> dict:
        """Options passed to every strategy graph builder."""
        data = self.model_dump(mode="json")
        options = {key: data[key] for key in ("samples", "sample_temperature", "selector", "rounds",
                                              "retriever", "top_k", "decomposer")}
        # Token logprobs cost time on the local backend: ask for them only when a method reads them.
        options["logprobs"] = any(method.startswith("token_prob") for method in self.confidence)
        return options
