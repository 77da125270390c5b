"""The rule grader on labelled cases written independently of it.

tests/data/grading_cases_heldout.jsonl holds 200 cases (our own words) from a set of 400 written by
someone who saw neither the grader nor any labelled case of ours. The 400 were split by question
(answers to one question stay on one side): one half became development data for the rules (it is
now part of the shipped set), this half was locked away while the rules changed and measured once
at the end: 90.0% agreement, Cohen's kappa 0.85, over-credit 0.0%, 7 undecided. Issue 10 asked for
>= 90% agreement and <= 2% over-credit on such cases, UNGRADED counting as a disagreement.

Issue 21 made the rules a precise first stage: a reply they cannot read with confidence is UNGRADED
and goes to the judge. The targets are now taken among the decided rows (agreement >= 97%,
under-credit <= 2%, F with a perfect judge within one point of F from the labels), and the
over-credit bound stays. Measured after issue 21 (this file was development data for it, not
locked): decided agreement 99.3%, over-credit 0.0%, under-credit 1.1%, F delta -0.6 points, 29.5%
undecided; after its second round 99.4%, 0.0%, 1.1%, -0.6 points and 16.0% undecided.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from factprobe.eval.grading.audit import audit_summary, grade_cases, load_cases
from factprobe.eval.grading.rules import RuleGrader

HELD_OUT = Path(__file__).parents[2] / "data" / "grading_cases_heldout.jsonl"


@pytest.fixture(scope="module")
def summary() -> dict[str, Any]:
    return audit_summary(asyncio.run(grade_cases(load_cases(HELD_OUT), RuleGrader())))


def test_rules_rarely_over_credit_independent_cases(summary: dict[str, Any]) -> None:
    assert summary["n"] == 200
    assert summary["over_credit"] <= 0.02


def test_rules_agree_where_they_decide_on_independent_cases(summary: dict[str, Any]) -> None:
    assert summary["decided_agreement"] >= 0.97
    assert summary["under_credit"] <= 0.02
    assert abs(summary["f_delta"]) <= 0.01
