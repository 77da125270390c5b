"""The rule grader on the newest locked set: cases written without sight of the rules, measured once.

tests/data/grading_cases_locked_v32.jsonl (450 cases: 50 short, 199 one-sentence, 130 paragraph, 71 adversarial,
on 137 questions) was written for this project by someone who saw neither the rules nor the other case files'
answers, with no question in common with them (its .md file), before the round's second step. Measured once
against the final rules (docs/grading.md, "The newest locked set"; the record the run summary reports,
eval/grading/data/locked_measurement.json): decided agreement 97.4%, over-credit 2.0% (5 of 252), under-credit
0.5%, F with a perfect judge 0.9 point above F from the labels, F over the decided rows 5.9 points above it;
undecided 0% of short answers, 24.6% of one-sentence answers, 70.0% of paragraphs, 59.2% of adversarial
answers; four adversarial wrong answers CORRECT. Nothing was tuned on it. The
earlier locked sets (v2 to v31) were each measured once in the same way and then tuned on; they are development data now (test_grading_dev.py). The
thresholds below are the issue's targets, not the values measured; a target the rules miss is marked as
such, strictly, so that meeting it later shows.
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
LOCKED = ("grading_cases_locked_v32.jsonl",)


@cache
def audited(name: str) -> tuple[dict[str, Any], list[AuditRow]]:
    rows = asyncio.run(grade_cases(load_cases(DATA / name), RuleGrader()))
    return audit_summary(rows), rows


@pytest.mark.parametrize("name", [pytest.param(LOCKED[0], marks=pytest.mark.xfail(
    strict=True, reason="target not met: measured once, 2.0% (5 of 252 answers not correct)"))])
def test_decided_rows_rarely_give_credit_wrongly(name: str) -> None:
    assert audited(name)[0]["over_credit"] <= 0.01


@pytest.mark.parametrize("name", LOCKED)
def test_decided_rows_rarely_withhold_credit_wrongly(name: str) -> None:
    assert audited(name)[0]["under_credit"] <= 0.02


@pytest.mark.parametrize("name", LOCKED)
def test_f_with_a_perfect_judge_is_within_a_point_of_the_labels(name: str) -> None:
    assert abs(audited(name)[0]["f_delta"]) <= 0.01


@pytest.mark.parametrize("name", LOCKED)
def test_decided_rows_agree_with_the_labels(name: str) -> None:
    assert audited(name)[0]["decided_agreement"] >= 0.97


@pytest.mark.parametrize("name", [pytest.param(LOCKED[0], marks=pytest.mark.xfail(
    strict=True, reason="target not met: measured once, four (a namesake town, a relative's longer name, a title with a subtitle, a charge's sign in a fraction)"))])
def test_no_adversarial_wrong_answer_is_correct(name: str) -> None:
    _, rows = audited(name)
    adversarial = [row for row in rows if row.form == "adversarial" and row.label.value != "CORRECT"]
    assert adversarial and not [row.line for row in adversarial if row.grade.value == "CORRECT"]


@pytest.mark.parametrize("name", LOCKED)
def test_short_answers_are_mostly_decided(name: str) -> None:
    assert audited(name)[0]["per_form"]["short"]["undecided_share"] <= 0.10


@pytest.mark.parametrize("form, ceiling", [
    pytest.param("sentence", 0.10, marks=pytest.mark.xfail(strict=True, reason="target not met: measured once, the "
                                                                               "rules left 24.6% of one-sentence answers")),
    pytest.param("paragraph", 0.50, marks=pytest.mark.xfail(strict=True, reason="target not met: 70.0% of paragraphs")),
    pytest.param("adversarial", 0.30, marks=pytest.mark.xfail(strict=True, reason="target not met: 59.2%")),
])
def test_longer_answers_are_mostly_decided(form: str, ceiling: float) -> None:
    """Left: a sentence naming several things beside the answer, a paragraph whose later sentences name
    other candidates, an answer that needs knowledge (an alias, a coarser description)."""
    assert audited(LOCKED[0])[0]["per_form"][form]["undecided_share"] <= ceiling


@pytest.mark.parametrize("name", [pytest.param(LOCKED[0], marks=pytest.mark.xfail(
    strict=True, reason="target not met: measured once, 5.9 points above the labels"))])
def test_what_a_user_without_a_judge_sees_is_close_to_the_labels(name: str) -> None:
    figures = audited(name)[0]
    assert abs(figures["f_decided"] - figures["f_labels"]) <= 0.02
