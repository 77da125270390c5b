"""The rule grader on the newest locked set: cases written without sight of the rules, measured once.

tests/data/grading_cases_locked_v17.jsonl (401 cases: 310 short, 45 paragraph, 46 adversarial, on 120
questions) was written for this project by someone who saw neither the rules nor the other case
files' answers, with no question in common with them (its .md file), before the eighth session's
fourth and last rule round. Measured once against that round's rules (README, "What the numbers
mean"; the record the run summary reports, eval/grading/data/locked_measurement.json): decided
agreement 98.0%, over-credit 0%, under-credit 1.0%, F with a perfect judge 0.7 point below F from the
labels (95% CI -1.6 to -0.1), 21.0% of short answers undecided, no adversarial wrong answer CORRECT.
Nothing was tuned on it. The earlier locked sets (v2 to v16) were each measured once in the same way
and then tuned on; they are development data now (test_grading_dev.py). The thresholds below are the
issue's targets, not the values measured; a target the rules miss is marked as such, strictly, so
that meeting it later shows.
"""

from __future__ import annotations

import asyncio
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from factprobe.eval.grading.audit import AuditRow, audit_summary, grade_cases, load_cases
from factprobe.eval.grading.rules import RuleGrader

DATA = Path(__file__).parents[2] / "data"
LOCKED = ("grading_cases_locked_v17.jsonl",)


def missed(name: str, reason: str) -> Any:
    """The set `name` as a parameter whose test is a target the rules missed when it was measured."""
    return pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=f"target not met: {reason}"))


@cache
def audited(name: str) -> tuple[dict[str, Any], list[AuditRow]]:
    rows = asyncio.run(grade_cases(load_cases(DATA / name), RuleGrader()))
    return audit_summary(rows), rows


@pytest.mark.parametrize("name", LOCKED)
def test_decided_rows_rarely_give_credit_wrongly(name: str) -> None:
    figures = audited(name)[0]
    assert figures["over_credit"] <= 0.01
    assert figures["under_credit"] <= 0.02


@pytest.mark.parametrize("name", LOCKED)
def test_f_with_a_perfect_judge_is_within_a_point_of_the_labels(name: str) -> None:
    assert abs(audited(name)[0]["f_delta"]) <= 0.01


@pytest.mark.parametrize("name", LOCKED)
def test_decided_rows_agree_with_the_labels(name: str) -> None:
    assert audited(name)[0]["decided_agreement"] >= 0.97


@pytest.mark.parametrize("name", LOCKED)
def test_no_adversarial_wrong_answer_is_correct(name: str) -> None:
    _, rows = audited(name)
    adversarial = [row for row in rows if row.form == "adversarial" and row.label.value != "CORRECT"]
    assert adversarial and not [row.line for row in adversarial if row.grade.value == "CORRECT"]


@pytest.mark.parametrize("name", [
    missed(LOCKED[0], "measured once, the rules left 21.0% of unseen short answers to the judge")])
def test_short_answers_are_mostly_decided(name: str) -> None:
    """Mostly knowledge is left: an answer coarser than the gold (a description, a country, a decade), a
    near miss sharing words with the gold, another name of a thing."""
    assert audited(name)[0]["per_form"]["short"]["undecided_share"] <= 0.10
