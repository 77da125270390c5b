"""What a strategy graph is built with: the model, the run's options, its seed and its resources."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from factprobe.agents.models.base import ChatModel, GenerationParams
from factprobe.agents.resources import RunResources


@dataclass(init=False)
class StrategyContext:
    """Everything a strategy needs besides the question. `options` holds the run's strategy options
    (samples, rounds, top_k, retriever, selector, decomposer, …) as the CLI resolved them;
    `resources` the run's shared objects (factprobe.agents.resources.RunResources)."""

    model: ChatModel
    seed: int
    temperature: float
    max_tokens: int
    options: dict[str, Any]
    resources: RunResources

    def __init__(self, model: ChatModel, seed: int = 0, temperature: float = 0.0, max_tokens: int = 128,
                 options: dict[str, Any] | None = None,
                 resources: RunResources | Mapping[str, Any] | None = None) -> None:
        """`resources` may also be a mapping of field names, as older code passed it
        (RunResources.from_mapping); a RunResources is kept as it is, so copies made with
        `dataclasses.replace` share its memos."""
        self.model = model
        self.seed = seed
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.options = {} if options is None else options
        if resources is None:
            resources = RunResources()
        elif not isinstance(resources, RunResources):
            resources = RunResources.from_mapping(resources)
        self.resources = resources

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
