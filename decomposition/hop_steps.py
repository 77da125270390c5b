"""Post steps for multi-hop questions: sub-QA probes for every strategy, and grading a chain's hops.

Sub-QA probes (`hop_probes`, on unless `--no-hop-probes`): each gold sub-question is asked on its
own, with the TRUE earlier answers substituted for `#k` (Hop.render with gold answers), closed-book
with the vanilla prompt and parameters, and graded with the run's grader. The probes measure the
model's per-hop knowledge, which does not depend on the strategy, so the request depends only on
(question, hop, repeat): every strategy sends identical messages and parameters, and the response
cache answers all but the first. Probe calls are measurement: they stay out of the row's latency,
tokens and call count and are recorded in each probe entry instead. A probe whose model call fails
is an ERROR entry, never a wrong answer, and does not fail the row.

Chain hops (`chain_hops`): a strategy that decomposes leaves its own hops in the state; this step
grades them against the gold sub-QAs when the predicted hop count equals the gold one, and records
decomposition quality (hop counts, which predicted hop answers match gold hop answers).
"""

from __future__ import annotations

from typing import Any

from factprobe.agents.models.base import ModelError
from factprobe.agents.parsing import parse_answer, parse_confidence
from factprobe.agents.strategies.vanilla import vanilla_messages
from factprobe.eval.grading.base import Grader
from factprobe.eval.grading.rules import matches_gold
from factprobe.eval.post_steps import PostStepInput, register_post_step
from factprobe.eval.runner import error_text
from factprobe.eval.schema import Grade, Hop, HopResult, Question


def is_multi_hop(question: Question) -> bool:
    return len(question.hops) >= 2


def hop_question(question: Question, index: int, text: str) -> Question:
    """A gold sub-QA as a question the run's grader can grade."""
    hop = question.hops[index]
    return Question(id=f"{question.id}/hop{index + 1}", question=text, answer=hop.answer,
                    aliases=hop.aliases, category=question.category)


async def safe_grade(grader: Grader, question: Question, answer: str | None) -> tuple[Grade, str | None]:
    try:
        return (await grader.grade(question, answer)).grade, None
    except ModelError as exc:
        return Grade.ERROR, error_text(exc)


async def probe_hop(data: PostStepInput, index: int) -> dict[str, Any]:
    """Ask gold hop `index` with gold earlier answers substituted; the graded probe entry."""
    question = data.question
    hop: Hop = question.hops[index]
    entry: dict[str, Any] = {"question": hop.question, "gold": hop.answer, "answer": None,
                             "grade": Grade.ERROR.value, "confidence": None, "error": None}
    try:
        text = hop.render([earlier.answer for earlier in question.hops[:index]])
    except ValueError as exc:
        return {**entry, "error": f"gold sub-question cannot be rendered: {exc}"}
    params = data.context.answer_params(data.repeat)
    try:
        completion = await data.context.model.generate(vanilla_messages(text), params)
    except ModelError as exc:
        return {**entry, "question": text, "error": error_text(exc)}
    answer, confidence = parse_answer(completion.text), parse_confidence(completion.text)
    grade, error = await safe_grade(data.grader, hop_question(question, index, text), answer)
    return {"question": text, "gold": hop.answer, "answer": answer, "grade": grade.value,
            "confidence": confidence, "error": error, "raw": completion.text,
            "latency_s": completion.latency_s, "prompt_tokens": completion.prompt_tokens,
            "completion_tokens": completion.completion_tokens, "cached": completion.cached}


@register_post_step("hop_probes", enabled=lambda config: config.hop_probes)
async def hop_probes(data: PostStepInput) -> dict[str, Any]:
    """`hop_probes` for multi-hop questions; also the row's `hops` when the strategy has none."""
    if not is_multi_hop(data.question):
        return {}
    probes = [await probe_hop(data, index) for index in range(len(data.question.hops))]
    out: dict[str, Any] = {"hop_probes": probes}
    if not data.state.get("hops"):
        out["hops"] = [HopResult(question=p["question"], gold=p["gold"], answer=p["answer"],
                                 grade=Grade(p["grade"]), confidence=p["confidence"]) for p in probes]
    return out


def decomposition_record(question: Question, plan: dict[str, Any], hops: list[HopResult]) -> dict[str, Any]:
    """Plan, hop counts and rule-grader matches of predicted hop answers against gold hop answers.

    `hop_answer_matches` pairs hops by position and exists only when the counts agree;
    `gold_answers_recovered` counts gold hop answers matched by any predicted hop answer, in any
    position, so it is defined whatever the predicted count.
    """
    gold_hops = question.hops
    answers = [hop.answer for hop in hops if hop.answer]
    same_count = bool(gold_hops) and len(gold_hops) == len(hops)
    return {
        **plan, "predicted_hops": len(hops), "gold_hops": len(gold_hops),
        "hop_count_match": len(gold_hops) == len(hops) if gold_hops else None,
        "hop_answer_matches": [bool(hop.answer) and matches_gold(hop.answer, [gold.answer, *gold.aliases])
                               for hop, gold in zip(hops, gold_hops)] if same_count else None,
        "gold_answers_recovered": sum(any(matches_gold(a, [g.answer, *g.aliases]) for a in answers)
                                      for g in gold_hops) if gold_hops else None,
    }


@register_post_step("chain_hops", enabled=lambda config: True)
async def chain_hops(data: PostStepInput) -> dict[str, Any]:
    """Grade a decomposing strategy's own hops against gold sub-QAs and record the decomposition."""
    plan = (data.state.get("extra") or {}).get("decomposition")
    if plan is None:
        return {}
    question, hops = data.question, list(data.state.get("hops", []))
    if question.hops and len(question.hops) == len(hops):
        graded = []
        for index, hop in enumerate(hops):
            grade, _ = await safe_grade(data.grader, hop_question(question, index, hop.question), hop.answer)
            graded.append(hop.model_copy(update={"grade": grade}))
        hops = graded
    return {"hops": hops, "decomposition": decomposition_record(question, plan, hops)}
