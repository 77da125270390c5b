"""Post steps for multi-hop questions: sub-QA probes for every strategy, and grading a chain's hops.

Sub-QA probes (`hop_probes`, on unless `--no-hop-probes`): each gold sub-question is asked on its
own, with the TRUE earlier answers substituted for `#k` (Hop.render with gold answers), with the
vanilla prompt and parameters, and graded with the run's grader. For a strategy without retrieval
the probe is closed-book: it measures the model's per-hop knowledge, which does not depend on the
strategy, so the request depends only on (question, hop, repeat), every such strategy sends
identical messages and parameters, and the response cache answers all but the first.

A retrieval strategy (its registry flag `retrieves`: `rag`, any `X+rag`, a plugin's) is probed
with its retrieval, so that "final right, hop wrong" compares like with like: each probe retrieves
for its sub-question the way the strategy does, with the run's `--retriever` and `--top-k` over the
question's corpus — a decomposing strategy (`decompose+rag`) searches the sub-question itself, as
its hops do; any other extracts the sub-question's entities (the run's entity method, the model by
default) and builds the queries as the retrieval step before the strategy does (factprobe.agents.rag) —
and the passages go into the vanilla prompt. The probe entry records `retrieval` ("closed_book" or
"strategy"), `retrieved_ids`, the queries and the retrieval latency.

Probe calls (retrieval and entity extraction included) are measurement: they stay out of the
row's latency, tokens and call count and are recorded in each probe entry instead. A probe whose
model call or retrieval fails is an ERROR entry, never a wrong answer, and does not fail the row.

Chain hops (`chain_hops`): a strategy that decomposes leaves its own hops in the state; this step
grades them against the gold sub-QAs when the predicted hop count equals the gold one, and records
decomposition quality (hop counts, which predicted hop answers match gold hop answers).

Every grade here (probes, chain hops, the decomposition record's matches) is the run's grader's,
through the run's grading service (factprobe.eval.grading.service): a grader that raises leaves
that grade UNGRADED with the reason in the entry's `grade_note`, and an undecided match is None,
never a miss.
"""

from __future__ import annotations

from typing import Any

from factprobe.agents.context import StrategyContext
from factprobe.agents.entities import build_queries, extract_entities
from factprobe.agents.models.base import ModelError
from factprobe.agents.parsing import parse_answer, parse_confidence
from factprobe.agents.rag import retrieval_pipeline
from factprobe.agents.registry import describes
from factprobe.agents.resources import SearchPipeline
from factprobe.agents.strategies.vanilla import vanilla_messages
from factprobe.eval.core.redact import error_text
from factprobe.eval.core.schema import Grade, Hop, HopResult, Question
from factprobe.eval.grading.base import GradeOutcome
from factprobe.eval.grading.service import GradingService
from factprobe.eval.run.steps import PostStepInput, register_post_step
from factprobe.retrieval.base import RetrievalError


def is_multi_hop(question: Question) -> bool:
    return len(question.hops) >= 2


def hop_question(question: Question, index: int, text: str) -> Question:
    """A gold sub-QA as a question the run's grader can grade."""
    hop = question.hops[index]
    return Question(id=f"{question.id}/hop{index + 1}", question=text, answer=hop.answer,
                    aliases=hop.aliases, category=question.category)


def uses_retrieval(strategy: str) -> bool:
    """The strategy's registry flag `retrieves`: `rag`, any `X+rag` and any strategy registered as
    retrieving (also as a variant `NAME@SETTING`)."""
    return describes(strategy, "retrieves")


def probe_pipeline(context: StrategyContext) -> SearchPipeline:
    """The run's retrieval pipeline for probes, built on first use and kept in the context's
    resources (`hop_probe_retrieval`: the shared index is then loaded once per run, not once per probe)."""
    resources = context.resources
    if resources.hop_probe_retrieval is None:
        resources.hop_probe_retrieval = retrieval_pipeline(context)
    return resources.hop_probe_retrieval


async def probe_passages(data: PostStepInput, text: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """(passages, record) for a probe's sub-question, retrieved the way the strategy retrieves."""
    pipeline = probe_pipeline(data.context)
    record: dict[str, Any] = {"retrieval": "strategy", "entity_calls": 0}
    if (data.state.get("extra") or {}).get("decomposition") is not None:
        queries, record["entities"] = [text], "sub-question"           # as decompose+rag's hops do
    else:
        entities, method, update = await extract_entities(data.context, text, data.repeat,
                                                          pipeline.settings.entities)
        queries = build_queries(text, entities, combine=pipeline.settings.spec.local)
        record.update(entities=method, entity_calls=len(update["calls"]))
    found = await pipeline.search(data.question, queries)
    passages = found["passages"]
    record.update(queries=queries, retrieved_ids=[p["id"] for p in passages],
                  retrieval_latency_s=found["latency_s"])
    return passages, record


async def probe_hop(data: PostStepInput, index: int) -> dict[str, Any]:
    """Ask gold hop `index` with gold earlier answers substituted; the graded probe entry."""
    question = data.question
    hop: Hop = question.hops[index]
    entry: dict[str, Any] = {"question": hop.question, "gold": hop.answer, "answer": None,
                             "grade": Grade.ERROR.value, "confidence": None, "error": None,
                             "retrieval": "closed_book"}
    try:
        text = hop.render([earlier.answer for earlier in question.hops[:index]])
    except ValueError as exc:
        return {**entry, "error": f"gold sub-question cannot be rendered: {exc}"}
    passages = None
    try:
        if uses_retrieval(data.strategy):
            passages, record = await probe_passages(data, text)
            entry.update(record)
        completion = await data.context.model.generate(vanilla_messages(text, passages),
                                                       data.context.answer_params(data.repeat))
    except (ModelError, RetrievalError) as exc:
        return {**entry, "question": text, "error": error_text(exc)}
    answer, confidence = parse_answer(completion.text), parse_confidence(completion.text)
    outcome = await data.grader.grade(hop_question(question, index, text), answer)
    return {**entry, "question": text, "answer": answer, "grade": outcome.grade.value,
            "grader": outcome.grader, **undecided_note(outcome),
            "confidence": confidence, "raw": completion.text,
            "latency_s": completion.latency_s, "prompt_tokens": completion.prompt_tokens,
            "completion_tokens": completion.completion_tokens, "cached": completion.cached}


def undecided_note(outcome: GradeOutcome) -> dict[str, Any]:
    """`grade_note` for an UNGRADED outcome (why it is undecided); nothing for a decided one."""
    return {"grade_note": outcome.note} if outcome.grade is Grade.UNGRADED else {}


@register_post_step("hop_probes", enabled=lambda config: config.hop_probes, order=40)
async def hop_probes(data: PostStepInput) -> dict[str, Any]:
    """`hop_probes` for multi-hop questions; also the row's `hops` when the strategy has none. A
    recorded strategy's rows get none: its answers come from a file, not from the run's model."""
    if not is_multi_hop(data.question) or describes(data.strategy, "recorded"):
        return {}
    probes = [await probe_hop(data, index) for index in range(len(data.question.hops))]
    out: dict[str, Any] = {"hop_probes": probes}
    if not data.state.get("hops"):
        out["hops"] = [HopResult(question=p["question"], gold=p["gold"], answer=p["answer"],
                                 grade=Grade(p["grade"]), confidence=p["confidence"]) for p in probes]
    return out


async def answer_grades(grading: GradingService, question: Question,
                        hops: list[HopResult]) -> list[list[Grade]]:
    """`grades[g][p]`: predicted hop `p`'s answer graded by the run's grader against gold hop `g`
    (an empty answer is NOT_ATTEMPTED without a grader call); a gold hop's row stops at its first
    CORRECT, which is all the record needs."""
    grades: list[list[Grade]] = []
    for index, gold in enumerate(question.hops):
        try:
            text = gold.render([earlier.answer for earlier in question.hops[:index]])
        except ValueError:
            text = gold.question
        row: list[Grade] = []
        for hop in hops:
            if not hop.answer:
                row.append(Grade.NOT_ATTEMPTED)
                continue
            row.append((await grading.grade(hop_question(question, index, text), hop.answer)).grade)
            if row[-1] is Grade.CORRECT:
                break
        grades.append(row)
    return grades


def match_of(grade: Grade) -> bool | None:
    """A hop answer matches its gold when graded CORRECT; None when the grade is undecided."""
    return None if grade in (Grade.UNGRADED, Grade.ERROR) else grade is Grade.CORRECT


def decomposition_record(question: Question, plan: dict[str, Any], hops: list[HopResult],
                         grades: list[list[Grade]]) -> dict[str, Any]:
    """Plan, hop counts and matches of predicted hop answers against gold hop answers, by the run's
    grader (`grades` from `answer_grades`; CORRECT is a match, UNGRADED is undecided, never a miss).

    `hop_answer_matches` pairs hops by position (True, False, or None when undecided) and exists
    only when the counts agree; `gold_answers_recovered` counts gold hop answers matched by any
    predicted hop answer, in any position, so it is defined whatever the predicted count;
    `gold_answers_undecided` counts gold hops not recovered for which some grade is undecided.
    """
    gold_hops = question.hops
    same_count = bool(gold_hops) and len(gold_hops) == len(hops)
    positional = [match_of(hop.grade) if hop.grade is not None else None for hop in hops]
    recovered = [Grade.CORRECT in row for row in grades]
    undecided = [not found and any(match_of(grade) is None for grade in row) for row, found in zip(grades, recovered)]
    return {
        **plan, "predicted_hops": len(hops), "gold_hops": len(gold_hops),
        "hop_count_match": len(gold_hops) == len(hops) if gold_hops else None,
        "hop_answer_matches": positional if same_count else None,
        "gold_answers_recovered": sum(recovered) if gold_hops else None,
        "gold_answers_undecided": sum(undecided) if gold_hops else None,
    }


@register_post_step("chain_hops", enabled=lambda config: True, order=50)
async def chain_hops(data: PostStepInput) -> dict[str, Any]:
    """Grade a decomposing strategy's own hops against gold sub-QAs and record the decomposition."""
    plan = (data.state.get("extra") or {}).get("decomposition")
    if plan is None:
        return {}
    question, hops = data.question, list(data.state.get("hops", []))
    if question.hops and len(question.hops) == len(hops):
        graded = []
        for index, hop in enumerate(hops):
            outcome = await data.grader.grade(hop_question(question, index, hop.question), hop.answer)
            graded.append(hop.model_copy(update={"grade": outcome.grade}))
        hops = graded
    grades = await answer_grades(data.grader, question, hops)
    return {"hops": hops, "decomposition": decomposition_record(question, plan, hops, grades)}
