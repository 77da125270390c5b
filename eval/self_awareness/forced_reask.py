"""The forced re-ask of MM-SAP (protocols §6): refused answerable questions asked again without
the refusal option.

For a `refusal` row (or `refusal+…`) whose answer the grader marks NOT_ATTEMPTED on an answerable
question, the question is asked again with the vanilla prompt ("give your best guess"), the same
retrieved passages, parameters and repeat, and graded. A correct forced answer marks a known
question refused (an unknown known); otherwise the refusal was a correct one (a known unknown).
The call is measurement: recorded in the row as `forced_*` fields, kept out of its costs. When
vanilla ran too, the request is identical to vanilla's and the response cache answers it.
"""

from __future__ import annotations

from typing import Any

from factprobe.agents.models.base import ModelError
from factprobe.agents.parsing import parse_answer, parse_confidence
from factprobe.agents.registry import describes
from factprobe.agents.strategies.vanilla import vanilla_messages
from factprobe.eval.core.schema import Grade
from factprobe.eval.run.runner import error_text
from factprobe.eval.run.steps import PostStepInput, register_post_step


def offers_refusal(strategy: str) -> bool:
    """True for strategies whose prompt offers the refusal option (their spec says so)."""
    return describes(strategy, "offers_refusal")


@register_post_step("forced_reask", lambda config: any(offers_refusal(s) for s in config.strategies), order=30)
async def forced_reask(data: PostStepInput) -> dict[str, Any]:
    question = data.question
    if not offers_refusal(data.strategy) or not question.answerable:
        return {}
    outcome = await data.grader.grade(question, data.state.get("answer"))
    if outcome.grade is not Grade.NOT_ATTEMPTED:
        return {}
    messages = vanilla_messages(question.question, data.state.get("context"))
    try:
        completion = await data.context.model.generate(
            messages, data.context.answer_params(data.repeat))
    except ModelError as exc:
        return {"forced_grade": Grade.ERROR.value, "forced_error": error_text(exc)}
    answer = parse_answer(completion.text)
    forced = await data.grader.grade(question, answer)
    return {"forced_answer": answer, "forced_confidence": parse_confidence(completion.text),
            "forced_raw": completion.text, "forced_grade": forced.grade.value,
            "forced_call": {"prompt_tokens": completion.prompt_tokens,
                            "completion_tokens": completion.completion_tokens,
                            "latency_s": completion.latency_s, "cached": completion.cached}}
