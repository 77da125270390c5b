"""The rule grader on the newest locked set: cases written after this round's rules were final, measured once.

tests/data/grading_cases_locked_v6.jsonl holds 167 labelled cases (116 short, 20 paragraph, 31
adversarial) on 71 questions, written for this project by someone who saw neither the rules nor the
other case files' answers, with no question in common with them (tests/data/
grading_cases_locked_v6.md). Measured once (README, "What the numbers mean"): decided agreement
98.1%, over-credit 0%, under-credit 1.2%, F with a perfect judge 0.8 points below F from the labels,
12.9% of short answers and every paragraph left to the judge, no adversarial wrong answer CORRECT.
The earlier locked sets (v2, v3, v4) were each measured once in the same way and then tuned on;
they are development data now (test_grading_dev.py). The thresholds below are the issue's targets,
not the values measured; the target the rules miss is marked as such, strictly, so that meeting it
later shows.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from factprobe.eval.grading.audit import AuditRow, audit_summary, grade_cases, load_cases
from factprobe.eval.grading.rules import RuleGrader

LOCKED = Path(__file__).parents[2] / "data" / "grading_cases_locked_v6.jsonl"


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


def test_decided_rows_agree_with_the_labels(audited: tuple[dict[str, Any], list[AuditRow]]) -> None:
    assert audited[0]["decided_agreement"] >= 0.97


def test_no_adversarial_wrong_answer_is_correct(audited: tuple[dict[str, Any], list[AuditRow]]) -> None:
    _, rows = audited
    adversarial = [row for row in rows if row.form == "adversarial" and row.label.value != "CORRECT"]
    assert adversarial and not [row.line for row in adversarial if row.grade.value == "CORRECT"]


@pytest.mark.xfail(strict=True, reason="target not met: measured once, the rules leave 12.9% of unseen short "
                                       "answers to the judge (a surname alone, a club or team by part of its "
                                       "name, a figure with its margin in brackets)")
def test_short_answers_are_mostly_decided(audited: tuple[dict[str, Any], list[AuditRow]]) -> None:
    assert audited[0]["per_form"]["short"]["undecided_share"] <= 0.10
