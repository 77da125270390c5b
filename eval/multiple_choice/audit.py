"""Auditing the multiple-choice graders from labelled cases (`factprobe audit-grader --grader
choice-judge` or `choice-letter`; MMWorld's Table 9 audits its judge this way).

A case holds the question, its `options` in the order they were shown, the gold option (text or
letter), the model's free answer and the label a person gave. Each case is graded exactly as a run
grades a multiple-choice row (eval.multiple_choice.step.ChoiceGrader, options in the case's
order, no refusal option): `choice-judge` asks the judge the True/False verdict of
`--choice-grading judge`; `choice-letter` maps the answer to a letter by rules, then by the judge
(`--choice-grading letter`). A refusal is NOT_ATTEMPTED without asking the judge, as in a run; such
outcomes name `rules` as their grader, so the audit's counts tell the judge's decisions apart.
"""

from __future__ import annotations

from dataclasses import replace

from factprobe.agents.choices import shown_choices
from factprobe.agents.models.base import ChatModel
from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.base import GradeOutcome
from factprobe.eval.multiple_choice.step import ChoiceGrader
from factprobe.eval.multiple_choice.verdict import VERDICT_PROMPT_VERSION

CHOICE_GRADERS = {"choice-judge": "judge", "choice-letter": "letter"}   # --grader value -> --choice-grading mode


class ChoiceAuditGrader:
    """Grades a labelled multiple-choice case as a run's `multiple_choice` step would."""

    def __init__(self, choice: str, judge: ChatModel | None) -> None:
        if choice not in CHOICE_GRADERS:
            raise ValueError(f"unknown multiple-choice grader {choice!r}: one of {', '.join(CHOICE_GRADERS)}")
        if choice == "choice-judge" and judge is None:
            raise ValueError("--grader choice-judge needs the judge model: add --judge MODEL")
        self.choice = choice
        self.mode = CHOICE_GRADERS[choice]
        self.judge = judge
        self.name = f"{choice}:{judge.name}" if judge is not None else choice
        self.calls = 0

    async def grade(self, question: Question, answer: str | None, reply: str | None = None) -> GradeOutcome:
        if not question.choices:
            return GradeOutcome(Grade.UNGRADED, self.name, "the case has no `options`")
        shown = shown_choices(question, 0, 0, offers_refusal=False, option_order="released")
        grader = ChoiceGrader(shown, self.judge, self.mode)
        try:
            outcome = await grader.grade(question, answer)
        finally:
            self.calls += grader.model_asked
        return replace(outcome, grader=self.name if grader.model_asked else "rules")

    def describe(self) -> dict:
        described: dict = {"grader": self.choice, "mode": self.mode,
                           "model": self.judge.describe() if self.judge is not None else None}
        if self.mode == "judge":
            described["prompt_version"] = VERDICT_PROMPT_VERSION
        return described
