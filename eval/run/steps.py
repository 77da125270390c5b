"""Steps run after a strategy has answered: extra confidence signals, per-hop probes, ….

Each step is one module that registers an async function `(PostStepInput) -> dict` returning
fields to merge into the result row; factprobe's own modules are listed in POST_STEPS (run in that
order), others come from the `factprobe.post_steps` entry-point group or `--plugin`
(factprobe.eval.core.extensions). Their model calls are measurement, not strategy cost: they are kept
out of the row's latency and token counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from factprobe.agents.context import StrategyContext
from factprobe.agents.state import QAState
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.core.extensions import Registry, origin_of
from factprobe.eval.core.schema import Question
from factprobe.eval.grading.service import GradingService

POST_STEP_MODULES = [
    "factprobe.eval.ttc.step",
    "factprobe.eval.self_awareness.forced_reask",
    "factprobe.decomposition.hop_steps",
    "factprobe.calibration.post_step",
    "factprobe.eval.video.step",
    "factprobe.eval.multiple_choice.step",
]


@dataclass
class PostStepInput:
    """What a post step sees: the question, the strategy's final state, and the run's parts.
    `grader` is the run's grading service: a step grades through it, under the run's error policy."""

    question: Question
    state: QAState
    strategy: str
    repeat: int
    context: StrategyContext
    grader: GradingService
    config: RunConfig


PostStepFn = Callable[[PostStepInput], Awaitable[dict[str, Any]]]


@dataclass(frozen=True)
class PostStep:
    name: str
    run: PostStepFn
    enabled: Callable[[RunConfig], bool]


POST_STEPS: Registry[PostStep] = Registry("post step", "factprobe.post_steps", POST_STEP_MODULES)


def register_post_step(name: str, enabled: Callable[[RunConfig], bool]) -> Callable[[PostStepFn], PostStepFn]:
    """Decorator: run the function after every answer when `enabled(config)` is true."""

    def decorate(function: PostStepFn) -> PostStepFn:
        POST_STEPS.add(name, PostStep(name, function, enabled), origin_of(function))
        return function

    return decorate


def active_post_steps(config: RunConfig) -> list[PostStep]:
    return [step for step in POST_STEPS.values() if step.enabled(config)]
