"""Post step `multiple_choice`: grade a multiple-choice answer by its option letter.

For a question with `choices` the step rebuilds the shown order (agents.choices: same seed,
question and repeat as the prompt), maps the answer to a letter (rules, then one model call only
when they fail; eval.choice_mapping) and replaces the row's grade with the letter's grade
(`grader` "multiple_choice"). The row's `multiple_choice` entry records the shown options and
order, the gold letter, the mapped letter and how it was mapped ("rule", "model" or None), whether
the prompt showed the options, and the mapping call's tokens and latency (measurement, not
strategy cost). A failed mapping call leaves the answer unmapped and the error recorded.
"""

from __future__ import annotations

from typing import Any

from factprobe.agents.choices import options_block, shown_choices
from factprobe.agents.models.base import GenerationParams, ModelError
from factprobe.agents.registry import get_strategy
from factprobe.eval.choice_mapping import choice_grade, letter_by_model, letter_by_rules
from factprobe.eval.post_steps import PostStepInput, register_post_step
from factprobe.eval.runner import error_text

MAPPER_MAX_TOKENS = 8
GRADER_NAME = "multiple_choice"


def offers_refusal(strategy: str) -> bool:
    try:
        return get_strategy(strategy).offers_refusal
    except ValueError:
        return False


def prompt_showed(state_messages: list[dict[str, Any]], block: str) -> bool:
    return any(isinstance(m.get("content"), str) and block in m["content"] for m in state_messages)


@register_post_step("multiple_choice", enabled=lambda config: True)
async def multiple_choice(data: PostStepInput) -> dict[str, Any]:
    question = data.question
    if not question.choices:
        return {}
    shown = shown_choices(question, data.repeat, data.context.seed, offers_refusal(data.strategy))
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
            entry["mapper"] = {"error": error_text(exc)}
    entry.update(letter=letter, mapped_by=mapped_by if letter is not None else None,
                 model_asked=mapped_by == "model")
    grade = choice_grade(letter, answer, shown)
    note = f"option {letter} (gold {shown.gold_letter}), mapped by {mapped_by}" if letter else "no option"
    return {"multiple_choice": entry, "grade": grade, "grader": GRADER_NAME, "grade_note": note}
