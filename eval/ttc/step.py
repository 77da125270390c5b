"""Post steps that make test-time-compute curves computable offline (eval.ttc).

`grade_samples`: grades every recorded sample of best_of_n and every round of self_refine with the
run's grader through its grading service (once per distinct answer in a row), so curves need no
grader later; a judge works as well as the rule grader, and a sample whose grader raised is
UNGRADED with the reason in its `grade_note` (left out of the curves, never a wrong answer).
`prefix_picks` (best_of_n with `--selector model` only): asks the model to
pick among the first N samples for each N = 2, 4, … below `--samples`, the extra calls the `model`
selector needs for a curve. Which strategy gets which step is decided by its registry flags
(`samples`, `selects`), so a composed or variant name (`best_of_n+rag`, `best_of_n@text`) is
treated as its base. Both are measurement: their calls stay out of the row's costs and are
recorded in the entries. A failed pick call is recorded in its entry and does not fail the row.
"""

from __future__ import annotations

from typing import Any

from factprobe.agents.models.base import ModelError
from factprobe.agents.registry import describes
from factprobe.agents.selection import parse_pick, selection_messages
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.core.redact import error_text
from factprobe.eval.core.schema import Grade
from factprobe.eval.run.steps import PostStepInput, register_post_step


def samples_answers(strategy: str) -> bool:
    """True for strategies that draw several answers (their spec says so)."""
    return describes(strategy, "samples")


@register_post_step("grade_samples", lambda config: any(samples_answers(s) for s in config.strategies), order=10)
async def grade_samples(data: PostStepInput) -> dict[str, Any]:
    samples = data.state.get("samples")
    if not samples_answers(data.strategy) or not samples:
        return {}
    outcomes: dict[str | None, Any] = {}
    graded = []
    for sample in samples:
        answer = sample.get("answer")
        if answer not in outcomes:
            outcomes[answer] = await data.grader.grade(data.question, answer)
        outcome = outcomes[answer]
        undecided = {"grade_note": outcome.note} if outcome.grade is Grade.UNGRADED else {}
        graded.append({**sample, "grade": outcome.grade.value, "grader": outcome.grader, **undecided})
    return {"samples": graded}


def selects_sample(strategy: str) -> bool:
    """True for strategies that select one of their samples (their spec says so)."""
    return describes(strategy, "selects")


def wants_prefix_picks(config: RunConfig) -> bool:
    return config.selector == "model" and config.samples > 2 and any(map(selects_sample, config.strategies))


@register_post_step("prefix_picks", wants_prefix_picks, order=20)
async def prefix_picks(data: PostStepInput) -> dict[str, Any]:
    # imported here: the curves import numpy, which a run loads only for its report (every post
    # step module is imported before the first question)
    from factprobe.eval.ttc.curves import curve_sizes

    samples = data.state.get("samples")
    if not selects_sample(data.strategy) or not samples:
        return {}
    answers = [sample.get("answer") for sample in samples]
    entries = []
    for size in curve_sizes(len(samples))[1:-1]:
        messages = selection_messages(data.question.question, data.state.get("context"), answers[:size])
        entry: dict[str, Any] = {"n": size, "index": None, "pick_failed": False, "tokens": 0}
        try:
            completion = await data.context.model.generate(
                messages, data.context.params(repeat=data.repeat))
        except ModelError as exc:
            entries.append({**entry, "error": error_text(exc)})
            continue
        index = parse_pick(completion.text, answers[:size])
        entry.update(index=0 if index is None else index, pick_failed=index is None,
                     output=completion.text, prompt_tokens=completion.prompt_tokens,
                     completion_tokens=completion.completion_tokens,
                     tokens=completion.prompt_tokens + completion.completion_tokens,
                     latency_s=completion.latency_s, cached=completion.cached)
        entries.append(entry)
    return {"prefix_picks": entries}
