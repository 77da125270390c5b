"""Post step `multiple_choice`: grade a multiple-choice answer by its option letter.

For a question with `choices` the step rebuilds the shown order (agents.choices: same seed,
question and repeat as the prompt) and grades the answer with a `ChoiceGrader` through the run's
grading service (factprobe.eval.grading.service), so the letter is graded under the same error
policy as every other grade of the run. The grader maps the answer to a letter (rules, then one
model call only when they fail; eval.multiple_choice.mapping) and grades the letter; the row's
grade is that grade (`grader` "multiple_choice"). The row's `multiple_choice` entry records the
shown options and order, the gold letter, the mapped letter and how it was mapped ("rule", "model"
or None), whether the prompt showed the options, and the mapping call's tokens and latency
(measurement, not strategy cost).

A failed mapping call leaves the answer UNGRADED (the service's policy) with the error also in
`post_step_errors`, so --resume answers and grades the row again; a gold answer that is not one of
the choices is UNGRADED too. On --resume such a row is never re-graded by the run's own grader
(GradingService.regrades): its grading policy stays the letter's.
"""

from __future__ import annotations

from typing import Any

from factprobe.agents.choices import ShownChoices, options_block, shown_choices
from factprobe.agents.models.base import ChatModel, GenerationParams, ModelError
from factprobe.agents.registry import describes
from factprobe.eval.core.redact import error_text
from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.base import GradeOutcome
from factprobe.eval.multiple_choice.mapping import choice_grade, letter_by_model, letter_by_rules
from factprobe.eval.run.steps import PostStepInput, register_post_step

MAPPER_MAX_TOKENS = 8
GRADER_NAME = "multiple_choice"


class ChoiceMappingError(RuntimeError):
    """The model call that maps an answer to an option letter failed."""


class ChoiceGrader:
    """Grades an answer by the option letter it maps to in one shown order; what the mapping did
    (letter, by rule or model, the call's costs) stays on the grader for the row's entry."""

    name = GRADER_NAME

    def __init__(self, shown: ShownChoices, model: ChatModel) -> None:
        self.shown = shown
        self.model = model
        self.letter: str | None = None
        self.mapped_by: str | None = None
        self.model_asked = False
        self.mapper: dict[str, Any] | None = None

    async def grade(self, question: Question, answer: str | None) -> GradeOutcome:
        shown = self.shown
        self.letter, self.mapped_by = letter_by_rules(answer, shown), "rule"
        if self.letter is None and answer and answer.strip():
            self.mapped_by, self.model_asked = "model", True
            try:
                self.letter, completion = await letter_by_model(self.model, answer, shown,
                                                                GenerationParams(max_tokens=MAPPER_MAX_TOKENS))
            except ModelError as exc:
                self.mapped_by, self.mapper = None, {"error": error_text(exc)}
                raise ChoiceMappingError(f"mapping the answer to an option failed: {exc}") from exc
            self.mapper = {"reply": completion.text[:200], "prompt_tokens": completion.prompt_tokens,
                           "completion_tokens": completion.completion_tokens,
                           "latency_s": completion.latency_s, "cached": completion.cached}
        if self.letter is None:
            self.mapped_by = None
        if shown.gold_letter is None:
            return GradeOutcome(Grade.UNGRADED, self.name,
                                f"the gold answer {question.answer!r} is not one of the choices")
        note = (f"option {self.letter} (gold {shown.gold_letter}), mapped by {self.mapped_by}"
                if self.letter else "no option")
        return GradeOutcome(choice_grade(self.letter, answer, shown), self.name, note)

    def describe(self) -> dict:
        return {"grader": self.name}


def prompt_showed(state_messages: list[dict[str, Any]], block: str) -> bool:
    return any(isinstance(m.get("content"), str) and block in m["content"] for m in state_messages)


@register_post_step("multiple_choice", enabled=lambda config: True, order=80)
async def multiple_choice(data: PostStepInput) -> dict[str, Any]:
    question = data.question
    if not question.choices:
        return {}
    shown = shown_choices(question, data.repeat, data.context.seed, describes(data.strategy, "offers_refusal"))
    entry: dict[str, Any] = {"options": list(shown.options), "shown_order": list(shown.order),
                             "gold_letter": shown.gold_letter, "refusal_letter": shown.refusal_letter,
                             "options_in_prompt": prompt_showed(data.state.get("messages") or [],
                                                                options_block(shown)),
                             "chance": 1 / len(question.choices)}
    grader = ChoiceGrader(shown, data.context.model)
    outcome = await data.grader.grade(question, data.state.get("answer"), by=grader)
    if grader.mapper is not None:
        entry["mapper"] = grader.mapper
    entry.update(letter=grader.letter, mapped_by=grader.mapped_by, model_asked=grader.model_asked)
    out: dict[str, Any] = {"multiple_choice": entry, "grade": outcome.grade, "grader": outcome.grader,
                           "grade_note": outcome.note}
    if outcome.error is not None:      # the row is answered and graded again on --resume
        out["post_step_errors"] = {"multiple_choice": outcome.error}
    return out
