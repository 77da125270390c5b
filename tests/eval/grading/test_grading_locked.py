"""The rule grader on the locked set: cases written before this round's rules changed, measured once.

tests/data/grading_cases_locked_v2.jsonl holds 418 labelled cases (251 short, 97 paragraph, 70
adversarial) on 187 questions, written for this project by someone who saw neither the rules nor
the other case files' answers, with no question in common with them (tests/data/
grading_cases_locked_v2.md). It was kept away while the rules were widened and measured once after
they were final (README, "What the numbers mean"): decided agreement 96.3%, over-credit 0.4%,
under-credit 1.7%, F with a perfect judge 0.7 points below F from the labels, 20.7% of short
answers and 98% of paragraphs left to the judge, one adversarial wrong answer graded CORRECT.
The thresholds below are the issue's targets, not the values measured; the targets the rules miss
are marked as such, strictly, so that meeting one later shows.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from factprobe.eval.grading.audit import AuditRow, audit_summary, grade_cases, load_cases
from factprobe.eval.grading.rules import RuleGrader

LOCKED = Path(__file__).parents[2] / "data" / "grading_cases_locked_v2.jsonl"


@pytest.fixture(scope="module")
def audited() -> tuple[dict[str, Any], list[AuditRow]]:
    rows = asyncio.run(grade_cases(load_cases(LOCKED), RuleGrader()))
    return audit_summary(rows), rows


def test_decided_rows_rarely_give_credit_wrongly(audited: tuple[dict[str, Any], list[AuditRow]]) -> None:
    figures = audited[0]
    assert figures["over_credit"] <= 0.01
    assert figures["under_credit"] <= 0.02


def test_f_with_a_perfect_judge_is_within_a_point_of_the_labels(
        audited: tuple[dict[str, Any], list[AuditRow]]) -> None:
    assert abs(audited[0]["f_delta"]) <= 0.01


@pytest.mark.xfail(strict=True, reason="target not met: measured once, 96.3% of decided rows agree "
                                       "(abbreviations and codes of the gold graded INCORRECT, placeholders "
                                       "graded INCORRECT rather than NOT_ATTEMPTED)")
def test_decided_rows_agree_with_the_labels(audited: tuple[dict[str, Any], list[AuditRow]]) -> None:
    assert audited[0]["decided_agreement"] >= 0.97


@pytest.mark.xfail(strict=True, reason="target not met: measured once, one adversarial wrong answer (a number "
                                       "exactly half a unit from the gold) graded CORRECT")
def test_no_adversarial_wrong_answer_is_correct(audited: tuple[dict[str, Any], list[AuditRow]]) -> None:
    _, rows = audited
    adversarial = [row for row in rows if row.form == "adversarial" and row.label.value != "CORRECT"]
    assert adversarial and not [row.line for row in adversarial if row.grade.value == "CORRECT"]


@pytest.mark.xfail(strict=True, reason="target not met: measured once, the rules leave 20.7% of unseen short "
                                       "answers to the judge")
def test_short_answers_are_mostly_decided(audited: tuple[dict[str, Any], list[AuditRow]]) -> None:
    assert audited[0]["per_form"]["short"]["undecided_share"] <= 0.10
