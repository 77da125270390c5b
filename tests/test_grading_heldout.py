"""The rule grader on labelled cases written independently of it and of the shipped set.

tests/data/grading_cases_heldout.jsonl (200 cases, our own words) was written by someone who saw
neither the grader nor the shipped cases, and the grader's authors never opened it. A code review
ran it once (82.5% agreement, 5.5% over-credit) and reported general failure shapes (regnal
numbers, symbols, bulleted candidate lists) that were then fixed as general rules, so the figures
now are not fully independent any more. Issue 10 asks
for >= 90% agreement and <= 2% over-credit on such cases. Over-credit holds; agreement does not
yet (about 82%, most of the gap being UNGRADED answers: aliases and paraphrases the rules cannot
decide), so that test is a strict xfail: it records the gap, and flags itself once it closes.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from factprobe.eval.grading.audit import audit_summary, grade_cases, load_cases
from factprobe.eval.grading.rules import RuleGrader

HELD_OUT = Path(__file__).parent / "data" / "grading_cases_heldout.jsonl"


@pytest.fixture(scope="module")
def summary() -> dict[str, Any]:
    return audit_summary(asyncio.run(grade_cases(load_cases(HELD_OUT), RuleGrader())))


def test_rules_rarely_over_credit_independent_cases(summary: dict[str, Any]) -> None:
    assert summary["n"] == 200
    assert summary["over_credit"] <= 0.02


@pytest.mark.xfail(strict=True, reason="issue 10 target not met: the rules agree on about 82% of the "
                   "independent cases (UNGRADED counts as a disagreement)")
def test_rules_agree_on_90_percent_of_independent_cases(summary: dict[str, Any]) -> None:
    assert summary["agreement"] >= 0.90
