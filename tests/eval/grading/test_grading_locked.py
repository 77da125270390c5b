"""The rule grader on the locked set: cases written before the rules changed, measured once.

tests/data/grading_cases_locked.jsonl holds 365 labelled cases written for this project by someone
who saw neither the rules nor the development cases, on other subjects than the development set
(no question in common), in the same three forms. It was kept away while the rules were rewritten
and measured once after they were final (README, "What the numbers mean"). The thresholds below
are the targets, not the values measured; the one target the rules miss is marked as such.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from factprobe.eval.grading.audit import AuditRow, audit_summary, grade_cases, load_cases
from factprobe.eval.grading.rules import RuleGrader

LOCKED = Path(__file__).parents[2] / "data" / "grading_cases_locked.jsonl"
DEV = Path(__file__).parents[2] / "data" / "grading_cases_dev.jsonl"


@pytest.fixture(scope="module")
def audited() -> tuple[dict[str, Any], list[AuditRow]]:
    rows = asyncio.run(grade_cases(load_cases(LOCKED), RuleGrader()))
    return audit_summary(rows), rows


def test_the_locked_set_shares_no_question_with_the_development_set() -> None:
    def questions(path: Path) -> set[str]:
        return {json.loads(line)["question"].strip().casefold()
                for line in path.read_text(encoding="utf-8").splitlines() if line.strip()}
    assert not questions(LOCKED) & questions(DEV)


def test_decided_rows_agree_with_the_labels(audited: tuple[dict[str, Any], list[AuditRow]]) -> None:
    figures = audited[0]
    assert figures["decided_agreement"] >= 0.97
    assert figures["over_credit"] <= 0.01
    assert figures["under_credit"] <= 0.02
    assert abs(figures["f_delta"]) <= 0.01


def test_no_adversarial_wrong_answer_is_correct(audited: tuple[dict[str, Any], list[AuditRow]]) -> None:
    _, rows = audited
    adversarial = [row for row in rows if row.form == "adversarial" and row.label.value != "CORRECT"]
    assert adversarial and not [row.line for row in adversarial if row.grade.value == "CORRECT"]


@pytest.mark.xfail(strict=True, reason="target not met: the rules leave about a quarter of unseen short "
                                       "answers to the judge (measured once: 23.9%)")
def test_short_answers_are_mostly_decided(audited: tuple[dict[str, Any], list[AuditRow]]) -> None:
    assert audited[0]["per_form"]["short"]["undecided_share"] <= 0.10
