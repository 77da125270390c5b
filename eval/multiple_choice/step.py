"""Post step `multiple_choice`: grade a multiple-choice answer by its option letter.

For a question with `choices` the step rebuilds the shown order (agents.choices: same seed,
question and repeat as the prompt), maps the answer to a letter (rules, then one model call only
when they fail; eval.choice_mapping) and replaces the row's grade with the letter's grade
(`grader` "multiple_choice"). The row's `multiple_choice` entry records the shown options and
order, the gold letter, the mapped letter and how it was mapped ("rule", "model" or None), whether
the prompt showed the options, and the mapping call's tokens and latency (measurement, not
strategy cost). A failed mapping call leaves the answer UNGRADED with the error in `post_step_errors`
(so --resume asks again); a gold answer that is not one of the choices is UNGRADED too. An
unanswerable question (MM-SAP's BeyondVisQA: no option is right) is graded like any other: the
refusal option or a refusal is NOT_ATTEMPTED, any option chosen INCORRECT.
"""

from __future__ import annotations

from typing import Any

from factprobe.agents.choices import options_block, shown_choices
from factprobe.agents.models.base import GenerationParams, ModelError
from factprobe.agents.registry import describes
from factprobe.eval.core.schema import Grade
from factprobe.eval.multiple_choice.mapping import choice_grade, letter_by_model, letter_by_rules
from factprobe.eval.run.runner import error_text
from factprobe.eval.run.steps import PostStepInput, register_post_step

MAPPER_MAX_TOKENS = 8
GRADER_NAME = "multiple_choice"


def prompt_showed(state_messages: list[dict[str, Any]], block: str) -> bool:
    return any(isinstance(m.get("content"), str) and block in m["content"] for m in state_messages)


@register_post_step("multiple_choice", enabled=lambda config: True)
async def multiple_choice(data: PostStepInput) -> dict[str, Any]:
    question = data.question
    if not question.choices:
        return {}
    shown = shown_choices(question, data.repeat, data.context.seed, describes(data.strategy, "offers_refusal"))
    answer = data.state.get("answer")
    entry: dict[str, Any] = {"options": list(shown.options), "shown_order": list(shown.order),
                             "gold_letter": shown.gold_letter, "refusal_letter": shown.refusal_letter,
                             "options_in_prompt": prompt_showed(data.state.get("messages") or [],
                                                                options_block(shown)),
                             "chance": 1 / len(question.choices)}
    letter, mapped_by = letter_by_rules(answer, shown), "rule"
    if letter is None and answer and answer.strip():
        mapped_by = "model"
        try:
            letter, completion = await letter_by_model(data.context.model, answer, shown,
                                                       GenerationParams(max_tokens=MAPPER_MAX_TOKENS))
            entry["mapper"] = {"reply": completion.text[:200], "prompt_tokens": completion.prompt_tokens,
                               "completion_tokens": completion.completion_tokens,
                               "latency_s": completion.latency_s, "cached": completion.cached}
        except ModelError as exc:
            # the answer could not be mapped, which is not a wrong answer: UNGRADED, and the step's
            # error is recorded so that --resume runs the row again
            entry["mapper"] = {"error": error_text(exc)}
            entry.update(letter=None, mapped_by=None, model_asked=True)
            return {"multiple_choice": entry, "grade": Grade.UNGRADED, "grader": GRADER_NAME,
                    "grade_note": f"mapping the answer to an option failed: {error_text(exc)}",
                    "post_step_errors": {"multiple_choice": error_text(exc)}}
    entry.update(letter=letter, mapped_by=mapped_by if letter is not None else None,
                 model_asked=mapped_by == "model")
    if shown.gold_letter is None and question.answerable:
        return {"multiple_choice": entry, "grade": Grade.UNGRADED, "grader": GRADER_NAME,
                "grade_note": f"the gold answer {question.answer!r} is not one of the choices"}
    grade = choice_grade(letter, answer, shown)
    gold = shown.gold_letter or "none: unanswerable"
    note = f"option {letter} (gold {gold}), mapped by {mapped_by}" if letter else "no option"
    return {"multiple_choice": entry, "grade": grade, "grader": GRADER_NAME, "grade_note": note}
