"""Retrieval as graph steps, and `X+rag`: retrieval in front of any strategy (docs/protocols.md §3).

    START → extract_entities → retrieve → <strategy X as a subgraph> → END

`extract_entities` turns the question into queries (state `queries`); `retrieve` searches each
query, fuses the rankings by reciprocal rank and keeps the top k (state `context`, a list of
{id, title, text, score, source}; `retrieved_ids`; `retrieval_latency_s`). Strategy X then builds
its prompts with `agents.prompts.question_block(question, state["context"])`, so its answer format,
grading and calibration are unchanged.

The search itself belongs to factprobe.retrieval; the run supplies it as the context's
`resources.retrieval`, a function from the context to a pipeline with `settings` and an async
`search(question, queries, top_k=None)` (agents.resources.SearchPipeline). Strategies depend on
that shape, not on the package.
"""

from __future__ import annotations

from typing import Any

from langchain_core.runnables import RunnableConfig

from factprobe.agents.context import StrategyContext
from factprobe.agents.entities import ENTITY_PROMPT_VERSION, build_queries, extract_entities
from factprobe.agents.linear import linear_graph
from factprobe.agents.resources import SearchPipeline, SearchSettings
from factprobe.agents.state import QAState
from factprobe.eval.core.errors import StrategyOptionError

ACCUMULATED = ("trace", "calls", "retrieval_latency_s")  # reducer fields a subgraph must start empty


def retrieval_pipeline(context: StrategyContext) -> SearchPipeline:
    """The pipeline the run supplies for this context (`resources.retrieval`), built on each call."""
    make = context.resources.retrieval
    if make is None:
        raise StrategyOptionError("retrieval needs a retriever, and this strategy context has none: the "
                                  "run puts one in resources.retrieval "
                                  "(factprobe.retrieval.pipeline.pipeline_for)")
    return make(context)


def extract_node(context: StrategyContext, settings: SearchSettings):
    """Graph step: the question's entities and the queries built from them (state `queries`)."""

    async def extract_queries(state: QAState) -> dict[str, Any]:
        question = state["question"].question
        entities, method, update = await extract_entities(context, question, state.get("repeat", 0),
                                                          settings.entities, settings.entity_source)
        queries = build_queries(question, entities, combine=settings.spec.local)
        step = {"step": "queries", "method": method, "entities": entities, "queries": queries}
        if settings.entity_source != "question":
            step["entity_source"] = settings.entity_source
        entity_model = context.resources.entity_model   # present whenever the option is (entity_context)
        if context.options.get("entity_model") and method != "rules" and entity_model is not None:
            step["entity_model"] = entity_model.name
        if method != "rules":
            step["prompt_version"] = ENTITY_PROMPT_VERSION
        return {"queries": queries, "calls": update["calls"], "trace": [*update["trace"], step]}

    return extract_queries


def retrieve_node(pipeline: SearchPipeline):
    """Graph step: search the queries and put the top-k passages in state `context`."""

    async def retrieve(state: QAState) -> dict[str, Any]:
        question = state["question"]
        found = await pipeline.search(question, state.get("queries") or [question.question])
        return {"context": found["passages"], "retrieved_ids": [p["id"] for p in found["passages"]],
                "retrieval_latency_s": found["latency_s"], "trace": [found["step"]]}

    return retrieve


def subgraph_node(strategy_graph: Any):
    """Run a compiled strategy graph on the current state.

    The subgraph starts with the accumulated fields (trace, calls, retrieval latency) empty and
    returns its own; the parent's reducers add them once. (Adding the compiled graph directly as a
    node would hand back the parent's trace with the subgraph's and count it twice.)
    """

    async def strategy(state: QAState, config: RunnableConfig) -> dict[str, Any]:
        start = {key: value for key, value in state.items() if key not in ACCUMULATED}
        return await strategy_graph.ainvoke(start, config)

    return strategy


def with_retrieval(strategy_graph: Any, context: StrategyContext):
    """START → extract_entities → retrieve → strategy → END, compiled."""
    pipeline = retrieval_pipeline(context)
    return linear_graph({"extract_entities": extract_node(context, pipeline.settings),
                         "retrieve": retrieve_node(pipeline), "strategy": subgraph_node(strategy_graph)})
