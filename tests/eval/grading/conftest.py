"""Helpers shared by the rule grader's tests (test_reading.py, test_refusals.py, test_rules.py and the
test_kind_*.py files): a made-up question from its text and gold, and what the rule grader makes of an
answer to it. Import them from here: `from tests.eval.grading.conftest import rule_grade`."""

from __future__ import annotations

from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.base import GradeOutcome
from factprobe.eval.grading.rules import RuleGrader


def ask(question: str, gold: str | list[str] | None) -> Question:
    """The question with its gold answer; a list gives the gold, then its aliases; None (or no gold)
    makes the question unanswerable."""
    golds = [gold] if isinstance(gold, str) else list(gold or [])
    return Question(id="q", question=question, answer=golds[0] if golds else None, aliases=golds[1:],
                    answerable=bool(golds))


def rule_outcome(question: str, gold: str | list[str] | None, answer: str | None) -> GradeOutcome:
    """The rule grader's outcome (grade and note) on `answer`, with its default settings."""
    return RuleGrader().grade_sync(ask(question, gold), answer)


def rule_grade(question: str, gold: str | list[str] | None, answer: str | None) -> Grade:
    return rule_outcome(question, gold, answer).grade


def rule_note(question: str, gold: str | list[str] | None, answer: str | None) -> str | None:
    return rule_outcome(question, gold, answer).note
