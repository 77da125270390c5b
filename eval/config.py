"""The resolved configuration of one run, recorded in the manifest and reused by --resume."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from factprobe.eval.grading.base import HedgingPolicy

# Options that change no result row. Every other field is resume identity: --resume refuses to
# change it, so a new option is protected unless it is listed here.
RESUME_EXEMPT = frozenset({"concurrency", "out", "use_cache", "max_error_rate", "threads"})


class RunConfig(BaseModel):
    """Every setting of a run. Strategy options live here too, so the manifest records them all."""

    model_config = ConfigDict(extra="forbid")

    dataset: str = "sample"
    strategies: list[str] = Field(default_factory=list)
    model: str = "local"
    judge: str | None = None
    hedging: HedgingPolicy = HedgingPolicy.ACCEPT
    grader: Literal["rules", "judge", "cascade"] | None = None  # None: judge when `judge` is set, else rules
    judge_prompt: Literal["simpleqa", "videosimpleqa", "worldvqa"] = "simpleqa"  # the judge's grading policy
    limit: int | None = None
    seed: int = 0
    concurrency: int = 1
    threads: int | None = Field(None, ge=1)  # local backend CPU threads; None = its default rule
    out: Path | None = None
    repeats: int = 1
    temperature: float = 0.0
    max_tokens: int = 96
    use_cache: bool = True
    max_error_rate: float = Field(0.05, ge=0.0, le=1.0)
    baseline: str | None = None  # resolved before the manifest is written (eval.manifest.resolve_baseline)
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
        return {key: value for key, value in data.items() if key not in RESUME_EXEMPT}

    def strategy_options(self) -> dict:
        """Options passed to every strategy graph builder."""
        data = self.model_dump(mode="json")
        options = {key: data[key] for key in ("samples", "sample_temperature", "selector", "rounds",
                                              "retriever", "top_k", "decomposer")}
        # Token logprobs cost time on the local backend: ask for them only when a method reads them.
        options["logprobs"] = any(method.startswith("token_prob") for method in self.confidence)
        return options
