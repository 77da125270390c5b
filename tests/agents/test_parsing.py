"""Answer and verbalised-confidence parsing."""

from __future__ import annotations

import pytest

from factprobe.agents.parsing import on_scale, parse_answer, parse_confidence


@pytest.mark.parametrize("text, expected", [
    ("Answer: Paris\nConfidence: 85", 85.0),
    ("Answer: Paris\nConfidence: 85%", 85.0),
    ("Answer: Paris\nConfidence: 0.85", 85.0),
    ("Answer: Paris\nConfidence score: 90/100", 90.0),
    ("Answer: Paris\nConfidence: 8/10", 80.0),
    ("Answer: Paris\nConfidence: 100", 100.0),
    ("Answer: Paris\nConfidence: 0", 0.0),
    ("Answer: Paris\nConfidence: 1", 1.0),
    ("Answer: Paris\n**Confidence:** 70", 70.0),
    ("Answer: Paris\nConfidence: 8.5e1%", 85.0),      # a number in exponent notation, read whole
    ("Answer: Paris\nConfidence: 1e-05", 0.00001),    # exponent notation stays on the 0–100 scale
])
def test_confidence_values(text: str, expected: float) -> None:
    assert parse_confidence(text) == expected


@pytest.mark.parametrize("text", [
    "Answer: Paris\nConfidence: 1813",    # what the embedded model writes sometimes
    "Answer: Paris\nConfidence: -5",
    "Answer: Paris\nConfidence: 150%",
    "Answer: Paris\nConfidence: 1e309%",      # infinite once parsed, not 1
    "Answer: Paris\nConfidence: 1e3",
    "Answer: Paris\nConfidence: " + "9" * 400,
    "Answer: Paris\nConfidence: inf",
    "Answer: Paris\nConfidence: -Infinity%",
    "Answer: Paris\nConfidence: NaN",
    "Answer: Paris\nConfidence: nan%",
    "Answer: Paris",
    "Paris is the capital of France.",
])
def test_missing_or_out_of_range_confidence_is_none(text: str) -> None:
    assert parse_confidence(text) is None


@pytest.mark.parametrize("value, expected", [
    (0.0, 0.0), (100.0, 100.0), (42.5, 42.5), (None, None), (100.0001, None), (-0.5, None),
    (float("inf"), None), (float("-inf"), None), (float("nan"), None), (1e309, None),
])
def test_on_scale_refuses_what_is_not_a_0_to_100_confidence(value: float | None, expected: float | None) -> None:
    assert on_scale(value) == expected


@pytest.mark.parametrize("text, expected", [
    ("Answer: Paris\nConfidence: 85", "Paris"),
    ("answer: the Eiffel Tower.\nconfidence: 20", "the Eiffel Tower"),
    ("Answer: Paris, Confidence: 80", "Paris"),
    ("Paris\nConfidence: 80", "Paris"),
    ("**Answer:** 1969\n**Confidence:** 90", "1969"),
    ("Confidence: 80", None),
    ("", None),
    ("Answer: Rome\nOn reflection that is wrong.\nAnswer: Milan\nConfidence: 60", "Milan"),  # the last one stands
])
def test_answer(text: str, expected: str | None) -> None:
    assert parse_answer(text) == expected
