"""The rule grader on the shipped labelled set, audited the way `factprobe audit-grader` audits it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from factprobe.eval.grading.audit import AuditRow, audit_summary, builtin_cases_path, grade_cases, load_cases
from factprobe.eval.grading.rules import RuleGrader

# Issue 21: the rules are a precise first stage; what they cannot read is UNGRADED and goes to the judge.
MIN_DECIDED_AGREEMENT = 0.97  # among the cases the rules decide
MAX_OVER_CREDIT = 0.01        # not-CORRECT cases graded CORRECT
MAX_UNDER_CREDIT = 0.02       # CORRECT cases graded INCORRECT or NOT_ATTEMPTED
MAX_F_DELTA = 0.01            # F with a perfect judge for the UNGRADED rows, against F from the labels
MAX_UNDECIDED = 0.45          # measured 0.371: paraphrases, refusals with context, paragraphs go to the judge


@pytest.fixture(scope="module")
def audited() -> tuple[dict[str, Any], list[AuditRow]]:
    rows = asyncio.run(grade_cases(load_cases(builtin_cases_path()), RuleGrader()))
    return audit_summary(rows), rows


def _report(summary: dict[str, Any], rows: list[AuditRow]) -> str:
    """The per-type table and the disagreeing lines, printed when an assertion fails."""
    lines = [f"decided agreement {summary['decided_agreement']:.3f}  over-credit {summary['over_credit']:.3f}  "
             f"under-credit {summary['under_credit']:.3f}  F delta {summary['f_delta']:+.3f}  "
             f"undecided {summary['undecided']}",
             f"{'case type':<22}{'n':>4}{'agreement':>11}"]
    lines += [f"{name:<22}{stats['n']:>4}{stats['agreement']:>11.2f}" for name, stats in summary["per_type"].items()]
    lines += [f"line {row.line} [{row.case_type}] {row.label.value} graded {row.grade.value}: {row.note}"
              for row in rows if row.label is not row.grade and row.grade.value != "UNGRADED"]
    return "\n".join(lines)


def test_shipped_set_is_large_and_covers_every_shape(audited: tuple[dict[str, Any], list[AuditRow]]) -> None:
    summary, _ = audited
    assert summary["n"] >= 300
    assert {"refusal", "vague", "unanswerable", "paraphrase", "containing_entity"} <= set(summary["per_type"])


def test_rule_grader_agrees_with_the_labels_where_it_decides(audited: tuple[dict[str, Any], list[AuditRow]]) -> None:
    summary, rows = audited
    assert summary["decided_agreement"] >= MIN_DECIDED_AGREEMENT, _report(summary, rows)
    assert summary["under_credit"] <= MAX_UNDER_CREDIT, _report(summary, rows)
    assert abs(summary["f_delta"]) <= MAX_F_DELTA, _report(summary, rows)
    assert summary["undecided_share"] <= MAX_UNDECIDED, _report(summary, rows)


def test_rule_grader_rarely_over_credits(audited: tuple[dict[str, Any], list[AuditRow]]) -> None:
    summary, rows = audited
    assert summary["over_credit"] is not None
    assert summary["over_credit"] <= MAX_OVER_CREDIT, _report(summary, rows)


def test_undecided_cases_carry_a_reason(audited: tuple[dict[str, Any], list[AuditRow]]) -> None:
    _, rows = audited
    undecided = [row for row in rows if row.grade.value == "UNGRADED"]
    assert all(row.note and row.note.startswith("undecided:") for row in undecided), undecided
