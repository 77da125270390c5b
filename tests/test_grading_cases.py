"""The rule grader on the shipped labelled set, audited the way `factprobe audit-grader` audits it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from factprobe.eval.grading.audit import AuditRow, audit_summary, builtin_cases_path, grade_cases, load_cases
from factprobe.eval.grading.rules import RuleGrader

MIN_AGREEMENT = 0.95   # issue 10: the rules agree with the labels on at least 95% of the shipped cases
MAX_OVER_CREDIT = 0.01  # and grade at most 1% of the not-CORRECT cases CORRECT


@pytest.fixture(scope="module")
def audited() -> tuple[dict[str, Any], list[AuditRow]]:
    rows = asyncio.run(grade_cases(load_cases(builtin_cases_path()), RuleGrader()))
    return audit_summary(rows), rows


def _report(summary: dict[str, Any], rows: list[AuditRow]) -> str:
    """The per-type table and the disagreeing lines, printed when an assertion fails."""
    lines = [f"agreement {summary['agreement']:.3f}  kappa {summary['kappa']:.3f}  "
             f"over-credit {summary['over_credit']:.3f}  undecided {summary['undecided']}",
             f"{'case type':<22}{'n':>4}{'agreement':>11}"]
    lines += [f"{name:<22}{stats['n']:>4}{stats['agreement']:>11.2f}" for name, stats in summary["per_type"].items()]
    lines += [f"line {row.line} [{row.case_type}] {row.label.value} graded {row.grade.value}: {row.note}"
              for row in rows if row.label is not row.grade]
    return "\n".join(lines)


def test_shipped_set_is_large_and_covers_every_shape(audited: tuple[dict[str, Any], list[AuditRow]]) -> None:
    summary, _ = audited
    assert summary["n"] >= 300
    assert {"refusal", "vague", "unanswerable", "paraphrase", "containing_entity"} <= set(summary["per_type"])


def test_rule_grader_agrees_with_the_labels(audited: tuple[dict[str, Any], list[AuditRow]]) -> None:
    summary, rows = audited
    assert summary["agreement"] >= MIN_AGREEMENT, _report(summary, rows)


def test_rule_grader_rarely_over_credits(audited: tuple[dict[str, Any], list[AuditRow]]) -> None:
    summary, rows = audited
    assert summary["over_credit"] is not None
    assert summary["over_credit"] <= MAX_OVER_CREDIT, _report(summary, rows)


def test_undecided_cases_carry_a_reason(audited: tuple[dict[str, Any], list[AuditRow]]) -> None:
    _, rows = audited
    undecided = [row for row in rows if row.grade.value == "UNGRADED"]
    assert all(row.note and row.note.startswith("undecided:") for row in undecided), undecided
