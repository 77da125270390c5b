"""The forced re-ask of MM-SAP (docs/protocols.md §6): refused answerable questions asked again without
the refusal option.

For a `refusal` row (or `refusal+…`) that refused an answerable question, the question is asked
again without the refusal option, with the same retrieved passages, parameters and repeat, and
graded. A row refused when its answer is the refusal phrase or, for a multiple-choice question,
names the refusal option's letter (read by the same rules as every option letter,
factprobe.agents.choices.letter_by_rules); an open answer refused when the grader marks it
NOT_ATTEMPTED. The re-ask keeps what the first ask showed: the options (same order, without the
refusal option) and the run's answer prompt (`--preset` / `--prompt-file`), else the vanilla
prompt ("give your best guess"). A correct forced answer marks a known question refused (an
unknown known); otherwise the refusal was a correct one (a known unknown). The call is
measurement: recorded in the row as `forced_*` fields, kept out of its costs. Without an answer
prompt the request is identical to vanilla's, and the response cache answers it when vanilla ran.
"""

from __future__ import annotations

from typing import Any

from factprobe.agents.benchmark_prompts import benchmark_messages, parse_reply
from factprobe.agents.choices import context_order, letter_by_rules, presented_question, shown_choices
from factprobe.agents.models.base import ModelError
from factprobe.agents.registry import describes
from factprobe.agents.strategies.vanilla import vanilla_messages
from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.phrases import is_refusal
from factprobe.eval.run.runner import error_text
from factprobe.eval.run.steps import PostStepInput, register_post_step


def offers_refusal(strategy: str) -> bool:
    """True for strategies whose prompt offers the refusal option (their spec says so)."""
    return describes(strategy, "offers_refusal")


async def refused(data: PostStepInput, answer: str | None) -> bool:
    """Whether the answer refuses: the refusal option's letter or phrase, or (open questions) a
    NOT_ATTEMPTED grade."""
    question = data.question
    if question.choices:
        shown = shown_choices(question, data.repeat, data.context.seed, True, context_order(data.context))
        letter = letter_by_rules(answer, shown)
        if letter is not None:
            return letter == shown.refusal_letter
        return not answer or not answer.strip() or is_refusal(answer)
    return (await data.grader.grade(question, answer)).grade is Grade.NOT_ATTEMPTED


async def forced_grade(data: PostStepInput, answer: str | None) -> Grade:
    """The forced answer's grade: by its option letter when it names one, else by the grader."""
    question = data.question
    if question.choices:
        shown = shown_choices(question, data.repeat, data.context.seed, False, context_order(data.context))
        letter = letter_by_rules(answer, shown)
        if letter is not None and shown.gold_letter is not None:
            return Grade.CORRECT if letter == shown.gold_letter else Grade.INCORRECT
    return (await data.grader.grade(question, answer)).grade


def forced_messages(data: PostStepInput, question: Question) -> list[dict[str, str]]:
    prompt = data.context.options.get("answer_prompt")
    passages = data.state.get("context")
    if prompt:
        return benchmark_messages(prompt, question, data.repeat, data.context.seed, False, passages,
                                  context_order(data.context))
    return vanilla_messages(presented_question(question, data.repeat, data.context.seed, False,
                                               context_order(data.context)), passages)


@register_post_step("forced_reask", lambda config: any(offers_refusal(s) for s in config.strategies), order=30)
async def forced_reask(data: PostStepInput) -> dict[str, Any]:
    question = data.question
    if not offers_refusal(data.strategy) or not question.answerable:
        return {}
    if not await refused(data, data.state.get("answer")):
        return {}
    try:
        completion = await data.context.model.generate(
            forced_messages(data, question), data.context.answer_params(data.repeat))
    except ModelError as exc:
        return {"forced_grade": Grade.ERROR.value, "forced_error": error_text(exc)}
    prompt = data.context.options.get("answer_prompt")
    answer, confidence, _ = parse_reply(completion.text, prompt["reply_format"] if prompt else "lines")
    forced = await forced_grade(data, answer)
    return {"forced_answer": answer, "forced_confidence": confidence,
            "forced_raw": completion.text, "forced_grade": forced.value,
            "forced_call": {"prompt_tokens": completion.prompt_tokens,
                            "completion_tokens": completion.completion_tokens,
                            "latency_s": completion.latency_s, "cached": completion.cached}}
