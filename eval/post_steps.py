"""Steps run after a strategy has answered: extra confidence signals, per-hop probes, ….

Each step is one module that registers an async function `(PostStepInput) -> dict` returning
fields to merge into the result row; a line in POST_STEP_MODULES loads it. Their model calls are
measurement, not strategy cost: they are kept out of the row's latency and token counts.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from factprobe.agents.context import StrategyContext
from factprobe.agents.state import QAState
from factprobe.eval.config import RunConfig
from factprobe.eval.grading.base import Grader
from factprobe.eval.schema import Question

POST_STEP_MODULES: list[str] = [
    "factprobe.eval.sample_steps",
    "factprobe.eval.forced_reask",
    "factprobe.decomposition.hop_steps",
    "factprobe.calibration.post_step",
    "factprobe.eval.video_evidence",
    "factprobe.eval.choice_step",
]


@dataclass
class PostStepInput:
    """What a post step sees: the question, the strategy's final state, and the run's parts."""

    question: Question
    state: QAState
    strategy: str
    repeat: int
    context: StrategyContext
    grader: Grader
    config: RunConfig


PostStepFn = Callable[[PostStepInput], Awaitable[dict[str, Any]]]


@dataclass(frozen=True)
class PostStep:
    name: str
    run: PostStepFn
    enabled: Callable[[RunConfig], bool]


_POST_STEPS: dict[str, PostStep] = {}


def register_post_step(name: str, enabled: Callable[[RunConfig], bool]) -> Callable[[PostStepFn], PostStepFn]:
    """Decorator: run the function after every answer when `enabled(config)` is true."""

    def decorate(function: PostStepFn) -> PostStepFn:
        _POST_STEPS[name] = PostStep(name, function, enabled)
        return function

    return decorate


def active_post_steps(config: RunConfig) -> list[PostStep]:
    for module in POST_STEP_MODULES:
        importlib.import_module(module)
    return [step for step in _POST_STEPS.values() if step.enabled(config)]
