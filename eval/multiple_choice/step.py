"""Post step `multiple_choice`: grade a multiple-choice answer by its option letter or by the judge.

For a question with `choices` the step rebuilds the shown order (agents.choices: the run's
`--option-order`, same seed, question and repeat as the prompt) and grades the answer with a
`ChoiceGrader` through the run's grading service (factprobe.eval.grading.service), so the grade is
given under the same error policy as every other grade of the run. Two modes (`--choice-grading`,
MMWorld's two evaluation strategies):

- `letter` (the default): the free answer aligned to an option letter, by rules first, then, when
  they fail, by one call to the run's judge (`--judge`; never the model under test); the letter
  is graded. Without a judge, an answer no rule maps is INCORRECT, as the benchmarks score it (its
  `mapped_by` None: summary `unmapped`); a refusal is NOT_ATTEMPTED.
- `judge`: the run's judge says True or False whether the free answer is the gold option
  (eval.multiple_choice.verdict); a refusal or the refusal option is NOT_ATTEMPTED, unasked.
- `self`: as `letter`, but the model under test maps its own answer (MMWorld Table 8's second
  mode: the evaluated model aligns its open answer to an option); `mapper_model` names it and the
  manifest's `multiple_choice.mapper` describes it.

The row's grade is that grade (`grader` "multiple_choice"); the free-text grade the run's grader
gave the answer stays in the row's `grades`, beside it (Result.grades). The row's `multiple_choice` entry
records the shown options and order, the option order and shuffle key, the gold letter, the
mapped letter and how it was mapped ("rule", "model" or None), the mapping model's name
(`mapper_model`), the grading mode, whether the prompt showed the options, and the mapping or
verdict call's tokens and latency (measurement, not strategy cost).

A failed mapping or verdict call leaves the answer UNGRADED (the service's policy) with the error
also in `post_step_errors`, so --resume answers and grades the row again. A mapping reply that
is neither a shown letter nor NONE, and a verdict neither True nor False, leave it UNGRADED with
the reply quoted in the grade note. A gold answer that is not one of the choices is UNGRADED too
(an unanswerable question, MM-SAP's BeyondVisQA, is graded like any other: the refusal option or a
refusal is NOT_ATTEMPTED, any option chosen INCORRECT). On --resume such a row is never re-graded
by the run's own grader (GradingService.regrades): its grading policy stays the letter's.
"""

from __future__ import annotations

from typing import Any

from factprobe.agents.choices import ShownChoices, context_order, options_block, shown_choices, shuffle_key
from factprobe.agents.models.base import ChatModel, Completion, GenerationParams, ModelError
from factprobe.agents.registry import describes
from factprobe.eval.core.redact import error_text
from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.core.secrets import clip
from factprobe.eval.grading.base import GradeOutcome
from factprobe.eval.grading.phrases import is_refusal
from factprobe.eval.multiple_choice.mapping import (
    choice_grade,
    letter_by_rules,
    mapper_messages,
    parse_mapper_reply,
    says_none,
)
from factprobe.eval.multiple_choice.verdict import read_verdict, verdict_messages
from factprobe.eval.run.steps import PostStepInput, register_post_step

MAPPER_MAX_TOKENS = 8
VERDICT_MAX_TOKENS = 8
GRADER_NAME = "multiple_choice"
UNMAPPED_NOTE = ("no option: no rule maps the answer to an option and the run has no --judge to map it "
                 "(counted wrong)")


class ChoiceMappingError(RuntimeError):
    """The model call that maps an answer to an option letter failed."""


class ChoiceGrader:
    """Grades an answer in one shown order, by its letter (`mode` "letter") or by the judge's verdict
    (`mode` "judge"); what the mapping did (letter, by rule or model, the call's costs) stays on
    the grader for the row's entry. `mapper` is the run's judge model (None without --judge)."""

    name = GRADER_NAME

    def __init__(self, shown: ShownChoices, mapper: ChatModel | None, mode: str = "letter") -> None:
        self.shown = shown
        self.model = mapper
        self.mode = mode
        self.letter: str | None = None
        self.mapped_by: str | None = None
        self.model_asked = False
        self.mapper: dict[str, Any] | None = None

    async def call(self, messages: list[dict[str, str]], max_tokens: int, what: str) -> Completion:
        if self.model is None:
            raise ChoiceMappingError(f"{what} needs the run's judge model; give --judge")
        self.model_asked = True
        try:
            completion = await self.model.generate(messages, GenerationParams(max_tokens=max_tokens))
        except ModelError as exc:
            self.mapped_by, self.mapper = None, {"model": self.model.name, "error": error_text(exc)}
            raise ChoiceMappingError(f"{what} failed: {exc}") from exc
        self.mapper = {"model": self.model.name, "reply": clip(completion.text, 200),
                       "prompt_tokens": completion.prompt_tokens, "completion_tokens": completion.completion_tokens,
                       "latency_s": completion.latency_s, "cached": completion.cached}
        return completion

    async def grade(self, question: Question, answer: str | None, reply: str | None = None) -> GradeOutcome:
        shown = self.shown
        self.letter, self.mapped_by = letter_by_rules(answer, shown), "rule"
        if self.letter is None:
            self.mapped_by = None
        if shown.gold_letter is None and question.answerable:
            return GradeOutcome(Grade.UNGRADED, self.name,
                                f"the gold answer {question.answer!r} is not one of the choices")
        refused = not answer or not answer.strip() or (self.letter is None and is_refusal(answer)) or (
            self.letter is not None and self.letter == shown.refusal_letter)
        if self.mode == "judge" and not refused and shown.gold_letter is not None:
            return await self.verdict(question, answer or "")
        if self.letter is None and not refused:
            if self.model is None:    # as the benchmarks score it: wrong, and counted as unmapped
                return GradeOutcome(Grade.INCORRECT, self.name, UNMAPPED_NOTE)
            self.mapped_by = "model"
            completion = await self.call(mapper_messages(answer or "", shown), MAPPER_MAX_TOKENS,
                                         "mapping the answer to an option")
            self.letter = parse_mapper_reply(completion.text, shown)
            if self.letter is None:
                self.mapped_by = None
                if not says_none(completion.text):   # neither an option nor NONE: nothing was decided
                    return GradeOutcome(Grade.UNGRADED, self.name, f"unreadable mapping reply from "
                                        f"{self.model.name} (a letter or NONE expected): {clip(completion.text, 80)!r}")
        gold = shown.gold_letter or "none: unanswerable"
        by = f"{self.mapped_by} ({self.model.name})" if self.mapped_by == "model" and self.model else self.mapped_by
        note = f"option {self.letter} (gold {gold}), mapped by {by}" if self.letter else "no option"
        return GradeOutcome(choice_grade(self.letter, answer, shown), self.name, note)

    async def verdict(self, question: Question, answer: str) -> GradeOutcome:
        """The judge's True / False on the free answer against the gold option."""
        completion = await self.call(verdict_messages(question.question, answer, self.shown),
                                     VERDICT_MAX_TOKENS, "the judge's verdict on the answer")
        grade = read_verdict(completion.text)
        name = self.model.name if self.model else "?"
        note = (f"judge {name} said {clip(completion.text.strip(), 40)!r} (gold {self.shown.gold_letter})"
                if grade is not Grade.UNGRADED else
                f"unreadable verdict from judge {name} (True or False expected): {clip(completion.text, 80)!r}")
        return GradeOutcome(grade, self.name, note, judge_prompt_tokens=completion.prompt_tokens,
                            judge_completion_tokens=completion.completion_tokens, judge_latency_s=completion.latency_s)

    def describe(self) -> dict:
        return {"grader": self.name, "mode": self.mode, "mapper": self.model.name if self.model else None}


def prompt_showed(state_messages: list[dict[str, Any]], block: str) -> bool:
    return any(isinstance(m.get("content"), str) and block in m["content"] for m in state_messages)


def run_judge(data: PostStepInput) -> ChatModel | None:
    """The run's judge model (`--judge`), which the run puts in the context's resources."""
    return data.context.resources.judge


def answering_model(data: PostStepInput) -> ChatModel:
    """The model under test, without the wrapper that attaches the question's media (the mapping
    call is about the reply's text)."""
    model = data.context.model
    return getattr(model, "inner", model)


@register_post_step("multiple_choice", enabled=lambda config: True, order=80)
async def multiple_choice(data: PostStepInput) -> dict[str, Any]:
    question = data.question
    if not question.choices:
        return {}
    order = context_order(data.context)
    shown = shown_choices(question, data.repeat, data.context.seed, describes(data.strategy, "offers_refusal"),
                          order)
    mode = getattr(data.config, "choice_grading", "letter")
    entry: dict[str, Any] = {"options": list(shown.options), "shown_order": list(shown.order),
                             "option_order": order,
                             "shuffle_key": None if order == "released" else shuffle_key(question, data.repeat,
                                                                                         data.context.seed),
                             "gold_letter": shown.gold_letter, "refusal_letter": shown.refusal_letter,
                             "options_in_prompt": prompt_showed(data.state.get("messages") or [],
                                                                options_block(shown)),
                             "chance": 1 / len(question.choices), "grading": mode}
    judge = answering_model(data) if mode == "self" else run_judge(data)
    grader = ChoiceGrader(shown, judge, mode)
    outcome = await data.grader.grade(question, data.state.get("answer"), by=grader)
    if grader.mapper is not None:
        entry["mapper"] = grader.mapper
    entry.update(letter=grader.letter, mapped_by=grader.mapped_by, model_asked=grader.model_asked,
                 mapper_model=judge.name if judge is not None else None)
    out: dict[str, Any] = {"multiple_choice": entry, "grade": outcome.grade, "grader": outcome.grader,
                           "grade_note": outcome.note}
    if outcome.judge_latency_s is not None:
        out.update(outcome.judge_cost())
    if outcome.error is not None:      # the row is answered and graded again on --resume
        out["post_step_errors"] = {"multiple_choice": outcome.error}
    return out
