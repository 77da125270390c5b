"""decompose: split the question into single-fact sub-questions, answer them as a chain.

Graph: plan → answer_hop (looped once per hop: the number of answered hops is the counter, the
conditional edge stops at the plan's length) → compose → parse.

- plan: the `--decomposer` (`model`: an LLM call, validated; `gold`: the dataset's sub-QAs).
- answer_hop: substitutes the chain's own earlier answers for `#k`, asks the sub-question with the
  vanilla prompt and parameters (so a gold first hop is the very request the sub-QA probe sends,
  and costs nothing twice), and parses answer and confidence. A hop whose `#k` points at a hop
  without a usable answer (none parsed, or a refusal) is not asked: its answer is None.
  Under `decompose+rag` each hop retrieves for its own rendered sub-question (the passages
  retrieved for the whole question are shown to the decomposer only).
- compose: the final answer is the last hop's answer and its stated confidence. A final model call
  over the chain was the alternative; it was not chosen because the last sub-question asks for the
  whole answer by construction (gold sub-QAs end on it, the decomposer prompt demands it), and an
  extra call costs time and lets a small model rewrite a right answer into a wrong one.
- parse: the shared answer/confidence parser on the last hop's reply.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from langgraph.graph import END, START, StateGraph

from factprobe.agents.context import StrategyContext
from factprobe.agents.nodes import ask, parse_node
from factprobe.agents.parsing import parse_answer, parse_confidence
from factprobe.agents.rag import retrieval_pipeline
from factprobe.agents.registry import register_strategy
from factprobe.agents.state import QAState
from factprobe.agents.strategies.vanilla import vanilla_messages
from factprobe.decomposition.decomposer import check_decomposer, gold_plan, model_plan
from factprobe.eval.core.schema import HOP_REFERENCE, HopResult, Question
from factprobe.eval.grading.phrases import is_refusal


@dataclass
class HopPassages:
    """What a hop retriever found for one sub-question, and its trace step."""

    passages: list[dict[str, Any]]
    latency_s: float = 0.0
    step: dict[str, Any] | None = None

    @property
    def ids(self) -> list[str]:
        return [str(p["id"]) for p in self.passages if "id" in p]


# (question, rendered sub-question) -> passages.
HopRetriever = Callable[[Question, str], Awaitable[HopPassages]]


def pipeline_retriever(context: StrategyContext) -> HopRetriever:
    """Per-hop retrieval with the run's retriever (`--retriever`, `--top-k`), set up on first use.

    The pipeline is built lazily because plain `decompose` needs no retriever; under `+rag` the
    retrieval step before it has already built (and cached on disk) the shared index.
    """
    pipelines: list[Any] = []

    async def retrieve(question: Question, text: str) -> HopPassages:
        if not pipelines:
            pipelines.append(retrieval_pipeline(context))
        found = await pipelines[0].search(question, [text])
        return HopPassages(found["passages"], found["latency_s"], found["step"])

    return retrieve


def usable_answer(answer: str | None) -> str | None:
    """An answer that can stand in for `#k`: parsed, non-empty and not a refusal."""
    if answer is None or not answer.strip() or is_refusal(answer):
        return None
    return answer


def substitute(template: str, earlier: list[str | None]) -> tuple[str, list[int]]:
    """The sub-question with `#k` replaced by earlier answers, and the k that had no answer."""
    missing = sorted({int(k) for k in HOP_REFERENCE.findall(template)
                      if int(k) > len(earlier) or earlier[int(k) - 1] is None})
    if missing:
        return template, missing
    return HOP_REFERENCE.sub(lambda m: earlier[int(m.group(1)) - 1] or "", template), []


def plan_hops(state: QAState) -> list[str]:
    return state["extra"]["decomposition"]["hops"]


def build_decompose(context: StrategyContext, retrieve: HopRetriever | None = None):
    """The decompose graph. Each hop retrieves for its own sub-question with `retrieve` when given,
    else with the run's retriever when the graph runs after a retrieval step (`decompose+rag`:
    state `context` is set; the question-level passages then serve the decomposer only)."""
    decomposer = check_decomposer(context.options.get("decomposer", "model"))
    run_retriever = pipeline_retriever(context)

    async def plan(state: QAState) -> dict[str, Any]:
        question = state["question"]
        update: dict[str, Any] = {"calls": [], "trace": []}
        if decomposer == "gold":
            chosen = gold_plan(question)
        else:
            chosen, update = await model_plan(context, question, state.get("repeat", 0), state.get("context"))
        record = chosen.record()
        return {"hops": [], "extra": {**state.get("extra", {}), "decomposition": record},
                "calls": update["calls"], "trace": [*update["trace"], {"step": "plan", **record}]}

    async def answer_hop(state: QAState) -> dict[str, Any]:
        question, hops = state["question"], list(state.get("hops", []))
        templates = plan_hops(state)
        index = len(hops)
        gold = question.hops[index].answer if len(question.hops) == len(templates) else None
        text, missing = substitute(templates[index], [usable_answer(h.answer) for h in hops])
        if missing:
            hops.append(HopResult(question=text, gold=gold, answer=None))
            return {"hops": hops, "raw": "",
                    "trace": [{"step": "answer_hop", "hop": index + 1, "question": text,
                               "skipped": f"#{missing[0]} has no usable answer to substitute"}]}
        update: dict[str, Any] = {"trace": []}
        passages = None
        hop_retriever = retrieve or (run_retriever if "context" in state else None)
        if hop_retriever is not None:
            found = await hop_retriever(question, text)
            passages = found.passages
            retrieved = list(dict.fromkeys([*state.get("retrieved_ids", []), *found.ids]))
            update = {"retrieval_latency_s": found.latency_s, "retrieved_ids": retrieved,
                      "queries": [*state.get("queries", []), text],
                      "trace": [{**(found.step or {"step": "retrieve"}), "hop": index + 1}]}
        params = context.answer_params(state.get("repeat", 0))
        raw, asked = await ask(context, vanilla_messages(text, passages), "answer_hop", params)
        answer, confidence = parse_answer(raw), parse_confidence(raw)
        hops.append(HopResult(question=text, gold=gold, answer=answer, confidence=confidence))
        step = {**asked["trace"][0], "hop": index + 1, "question": text, "answer": answer,
                "confidence": confidence}
        return {**update, "hops": hops, "raw": raw, "calls": asked["calls"], "trace": [*update["trace"], step]}

    def next_step(state: QAState) -> str:
        return "answer_hop" if len(state.get("hops", [])) < len(plan_hops(state)) else "compose"

    def compose(state: QAState) -> dict[str, Any]:
        last = state["hops"][-1]
        return {"trace": [{"step": "compose", "rule": "last hop's answer", "answer": last.answer,
                           "confidence": last.confidence}]}

    graph = StateGraph(QAState)
    graph.add_node("plan", plan)
    graph.add_node("answer_hop", answer_hop)
    graph.add_node("compose", compose)
    graph.add_node("parse", parse_node)
    graph.add_edge(START, "plan")
    graph.add_edge("plan", "answer_hop")
    graph.add_conditional_edges("answer_hop", next_step, ["answer_hop", "compose"])
    graph.add_edge("compose", "parse")
    graph.add_edge("parse", END)
    return graph.compile()


@register_strategy("decompose", "split into single-fact sub-questions (#k = earlier answers) and answer "
                                "them as a chain; --decomposer model|gold", reads=("decomposer",), order=30)
def build(context: StrategyContext):
    return build_decompose(context)
