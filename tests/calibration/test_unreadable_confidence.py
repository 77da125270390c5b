"""Confidences that are not on the 0–100 scale (1e309, infinities, NaN, 150) are stored as None,
never clamped to 100 or 0 and never kept: a reply's stated one and a method's value alike."""

from __future__ import annotations

import asyncio
import math

import pytest

import factprobe.calibration.post_step as post_step
from factprobe.agents.context import StrategyContext
from factprobe.calibration.post_step import confidence_step
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.core.schema import Question
from factprobe.eval.run.confidence import ConfidenceMethod
from factprobe.eval.run.steps import PostStepInput
from tests.fakes import ScriptedModel

PARIS = Question(id="paris", question="Which city is the capital of France?", answer="Paris")
UNREADABLE = [math.inf, -math.inf, math.nan, 1e309, 150.0, -1.0]


def step_input(confidence: float | None) -> PostStepInput:
    context = StrategyContext(model=ScriptedModel(lambda messages, params: "Paris"), seed=0, temperature=0.0,
                              max_tokens=32)
    state = {"question": PARIS, "answer": "Paris", "confidence": confidence, "calls": []}
    return PostStepInput(PARIS, state, "vanilla", 0, context, None,  # type: ignore[arg-type]
                         RunConfig(strategies=["vanilla"], confidence=["verbal", "odd"]))


@pytest.mark.parametrize("value", UNREADABLE)
def test_an_unreadable_value_is_stored_as_none(value: float, monkeypatch: pytest.MonkeyPatch) -> None:
    odd = ConfidenceMethod("odd", (), ("odd", "odd_fine"), lambda data: {"odd": value, "odd_fine": 40.0})
    verbal = ConfidenceMethod("verbal", (), ("verbal",), lambda data: {"verbal": data.state.get("confidence")})
    monkeypatch.setattr(post_step, "get_method", {"odd": odd, "verbal": verbal}.__getitem__)
    out = asyncio.run(confidence_step(step_input(value)))
    assert out["confidences"] == {"verbal": None, "odd": None, "odd_fine": 40.0}
