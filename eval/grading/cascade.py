"""Choosing the grader (`--grader rules|judge|cascade`) and the cascade itself.

The cascade grades with the rule grader and asks the judge only where the rules return UNGRADED
(undecided). Each outcome's `grader` names who decided: `rules`, or the judge's name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from factprobe.agents.models.base import ChatModel
from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.base import GradeOutcome, Grader, HedgingPolicy
from factprobe.eval.grading.judge import JudgeGrader
from factprobe.eval.grading.judge_prompts import (
    DEFAULT_JUDGE_PROMPT,
    UNCOMMITTED_CANDIDATES_NOT_ATTEMPTED,
    JudgePolicyError,
    judge_policy,
)
from factprobe.eval.grading.rules import RuleGrader

GRADER_CHOICES = ("rules", "judge", "cascade")
RULE_POLICIES = UNCOMMITTED_CANDIDATES_NOT_ATTEMPTED  # --judge-prompt values the rule grader follows alone


class GraderConfigError(ValueError):
    """A grader choice the other options contradict (cascade without a judge, …)."""


class CascadeGrader:
    """Rules first; the judge only for answers the rules leave undecided."""

    def __init__(self, rules: Grader, judge: JudgeGrader) -> None:
        self.rules = rules
        self.judge = judge
        self.name = f"cascade:rules>{judge.name}"

    @property
    def parts(self) -> tuple[Grader, JudgeGrader]:
        """The graders whose names the cascade's outcomes carry."""
        return self.rules, self.judge

    @property
    def judge_calls(self) -> int:
        """How many answers the judge was asked to grade."""
        return self.judge.calls

    async def grade(self, question: Question, answer: str | None, reply: str | None = None) -> GradeOutcome:
        outcome = await self.rules.grade(question, answer)
        if outcome.grade is not Grade.UNGRADED:
            return outcome
        verdict = await self.judge.grade(question, answer, reply)
        return replace(verdict, note=f"rules undecided ({outcome.note}); judge: {verdict.note}")

    def describe(self) -> dict:
        return {"grader": "cascade", "rules": self.rules.describe(), "judge": self.judge.describe()}


def resolve_grader_choice(choice: str | None, has_judge: bool) -> str:
    """The effective `--grader`: rules without `--judge`, judge with it, unless chosen explicitly."""
    if choice is None:
        return "judge" if has_judge else "rules"
    if choice not in GRADER_CHOICES:
        raise GraderConfigError(f"unknown grader {choice!r}: choose one of {', '.join(GRADER_CHOICES)}")
    if choice in ("judge", "cascade") and not has_judge:
        raise GraderConfigError(f"--grader {choice} needs a judge model: add --judge MODEL "
                                f"(for example --judge local or --judge openai:MODEL), or use --grader rules")
    return choice


def check_grader_options(choice: str | None, has_judge: bool, hedging: HedgingPolicy,
                         judge_prompt: str = DEFAULT_JUDGE_PROMPT, prompt_file: Path | None = None,
                         judge_labels: Sequence[str] = ()) -> str:
    """Validate the grading options before any model is loaded; returns the effective choice."""
    resolved = resolve_grader_choice(choice, has_judge)
    if resolved == "rules" and prompt_file is not None:
        raise GraderConfigError(f"--judge-prompt-file {prompt_file} applies to a judge, but the rule grader "
                                f"grades this run; add --judge MODEL (and --grader judge or cascade)")
    if resolved == "rules" and judge_prompt != DEFAULT_JUDGE_PROMPT and judge_prompt not in RULE_POLICIES:
        raise GraderConfigError(f"--judge-prompt {judge_prompt} applies to a judge, but the rule grader "
                                f"grades this run; add --judge MODEL (and --grader judge or cascade)")
    try:
        judge_policy(judge_prompt, hedging, prompt_file, judge_labels)
    except JudgePolicyError as exc:
        raise GraderConfigError(str(exc)) from exc
    return resolved


def build_grader(choice: str | None, judge_model: ChatModel | None,
                 hedging: HedgingPolicy = HedgingPolicy.ACCEPT,
                 judge_prompt: str = DEFAULT_JUDGE_PROMPT, prompt_file: Path | None = None,
                 judge_labels: Sequence[str] = ()) -> Grader:
    """The grader `--grader`, `--judge`, `--hedging`, `--judge-prompt`, `--judge-prompt-file` and
    `--judge-labels` describe.

    The rules follow the judge's policy on candidates: under `simpleqa-verified` several uncommitted
    candidates are NOT_ATTEMPTED.
    """
    resolved = check_grader_options(choice, judge_model is not None, hedging, judge_prompt, prompt_file, judge_labels)
    candidates = Grade.NOT_ATTEMPTED if judge_prompt in UNCOMMITTED_CANDIDATES_NOT_ATTEMPTED else Grade.INCORRECT
    rules = RuleGrader(hedging, candidates)
    if resolved == "rules" or judge_model is None:
        return rules
    judge = JudgeGrader(judge_model, hedging, prompt=judge_prompt, prompt_file=prompt_file, labels=judge_labels)
    return judge if resolved == "judge" else CascadeGrader(rules, judge)
