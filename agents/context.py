"""What a strategy graph is built with: the model, the run's options and its seed."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from factprobe.agents.models.base import ChatModel, GenerationParams


@dataclass
class StrategyContext:
    """Everything a strategy needs besides the question. `options` holds the run's strategy options
    (samples, rounds, top_k, retriever, selector, decomposer, …) as the CLI resolved them."""

    model: ChatModel
    seed: int = 0
    temperature: float = 0.0
    max_tokens: int = 128
    options: dict[str, Any] = field(default_factory=dict)
    resources: dict[str, Any] = field(default_factory=dict)

    def params(self, repeat: int = 0, sample_index: int = 0, temperature: float | None = None,
               max_tokens: int | None = None, logprobs: bool = False) -> GenerationParams:
        """Generation settings for one call; every repeat gets its own seed."""
        return GenerationParams(
            temperature=self.temperature if temperature is None else temperature,
            max_tokens=max_tokens or self.max_tokens,
            seed=self.seed + 1000 * repeat,
            sample_index=sample_index,
            logprobs=logprobs and self.model.supports_logprobs,
            top_logprobs=5 if logprobs and self.model.supports_logprobs else 0,
        )

    def answer_params(self, repeat: int = 0) -> GenerationParams:
        """Settings of a closed-form answer call; identical across strategies, so the same prompt
        asked by two strategies (or by a probe) is one cached request."""
        return self.params(repeat=repeat, logprobs=bool(self.options.get("logprobs")))
