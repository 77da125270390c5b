"""Retrieval as graph steps, and `X+rag`: retrieval in front of any strategy (protocols §3).

    START → extract_entities → retrieve → <strategy X as a subgraph> → END

`extract_entities` turns the question into queries (state `queries`); `retrieve` searches each
query, fuses the rankings by reciprocal rank and keeps the top k (state `context`, a list of
{id, title, text, score, source}; `retrieved_ids`; `retrieval_latency_s`). Strategy X then builds
its prompts with `agents.prompts.question_block(question, state["context"])`, so its answer format,
grading and calibration are unchanged.

Which corpus: a local retriever given a path (`bm25:PATH`) searches that corpus; otherwise a
question that brings its own paragraphs (HotpotQA, MuSiQue) is searched in them, indexed in memory;
otherwise the dataset's shared corpus, indexed once and cached on disk. The shared index is built
or loaded when the graph is built, so its one-time cost is not charged to the first question; a
per-question index is built (in memory) by that question's first query, whose retrieval latency
includes it.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph

from factprobe.agents.context import StrategyContext
from factprobe.agents.registry import StrategyOptionError
from factprobe.agents.state import QAState
from factprobe.eval.schema import Question
from factprobe.retrieval.base import RetrievalError, Retrieval, Retriever
from factprobe.retrieval.corpus import load_corpus
from factprobe.retrieval.entities import ENTITY_PROMPT_VERSION, build_queries, extract_entities
from factprobe.retrieval.fusion import reciprocal_rank_fusion
from factprobe.retrieval.registry import RetrieverSpec, build_retriever, parse_spec
from factprobe.retrieval.results_cache import ResultCache, cached_search, default_results_path

RAG_SUFFIX = "+rag"
ACCUMULATED = ("trace", "calls", "retrieval_latency_s")  # reducer fields a subgraph must start empty


@dataclass(frozen=True)
class RetrievalSettings:
    """The retrieval options of a run: `--retriever`, `--top-k`, entity method, caching."""

    spec: RetrieverSpec
    top_k: int = 3
    entities: str = "model"
    use_cache: bool = True
    cache_dir: Path | None = None

    @classmethod
    def from_context(cls, context: StrategyContext) -> "RetrievalSettings":
        """Settings from the run's strategy options; a bad value is a StrategyOptionError."""
        options = context.options
        config = context.resources.get("config")
        top_k = options.get("top_k")
        top_k = 3 if top_k is None else int(top_k)
        if top_k < 1:
            raise StrategyOptionError(f"--top-k must be at least 1, got {top_k}")
        entities = options.get("entities") or "model"
        if entities not in ("model", "rules"):
            raise StrategyOptionError(f"entity extraction {entities!r}: use model or rules")
        try:
            spec = parse_spec(options.get("retriever") or "bm25")
        except RetrievalError as exc:
            raise StrategyOptionError(f"--retriever: {exc}") from None
        return cls(spec=spec, top_k=top_k, entities=entities,
                   use_cache=bool(getattr(config, "use_cache", True)),
                   cache_dir=context.resources.get("cache_dir"))


class RetrievalPipeline:
    """Searches queries for one question: picks the corpus, searches, fuses, keeps the top k.

    Reusable outside the RAG graph (e.g. per hop of a decomposition) through `search`.
    """

    def __init__(self, context: StrategyContext) -> None:
        self.settings = settings = RetrievalSettings.from_context(context)
        spec = settings.spec
        corpus = load_corpus(spec.path) if spec.path else list(context.resources.get("corpus") or [])
        self.shared: Retriever | None = None
        if not spec.local or corpus:
            try:
                self.shared = build_retriever(spec, corpus, persist=True, cache_dir=settings.cache_dir)
                prepare = getattr(self.shared, "index", None)
                if prepare is not None:
                    prepare()
            except RetrievalError as exc:  # e.g. dense without its extra: a setup problem
                raise StrategyOptionError(f"--retriever {spec}: {exc}") from None
        self.cache = ResultCache(default_results_path(settings.cache_dir)) if settings.use_cache else None

    def retriever_for(self, question: Question) -> tuple[Retriever, str]:
        """The retriever for this question and a label of the corpus it searches."""
        spec = self.settings.spec
        if spec.local and spec.path is None and question.corpus:
            return build_retriever(spec, question.corpus, persist=False), "question"
        if self.shared is None:
            raise RetrievalError(spec.name, "the corpus is empty: this dataset has no shared corpus and "
                                 f"question {question.id!r} brings none; use --retriever {spec.name}:PATH "
                                 "(a JSONL file or folder of documents), wikipedia or web")
        return self.shared, str(spec.path) if spec.path else ("dataset" if spec.local else spec.name)

    def _search_sync(self, question: Question, queries: list[str], top_k: int) -> dict[str, Any]:
        started = time.perf_counter()
        retriever, corpus = self.retriever_for(question)  # a question's index is built by its first query
        setup_s = time.perf_counter() - started
        retrievals: list[Retrieval] = [cached_search(retriever, query, top_k, self.cache) for query in queries]
        if len(retrievals) == 1:
            passages = retrievals[0].passages[:top_k]
        else:
            passages = reciprocal_rank_fusion([r.passages for r in retrievals])[:top_k]
        latency = setup_s + sum(r.latency_s for r in retrievals)
        step = {"step": "retrieve", "retriever": str(self.settings.spec), "source": retriever.name,
                "corpus": corpus, "top_k": top_k, "setup_s": setup_s, "latency_s": latency,
                "queries": [{"query": r.query, "ids": [p.id for p in r.passages],
                             "latency_s": r.latency_s, "cached": r.cached} for r in retrievals],
                "passages": [p.id for p in passages]}
        return {"passages": [p.as_dict() for p in passages], "latency_s": latency, "step": step}

    async def search(self, question: Question, queries: list[str], top_k: int | None = None) -> dict[str, Any]:
        """{"passages": [passage dicts best first], "latency_s": …, "step": trace step}."""
        if not queries:
            raise RetrievalError(self.settings.spec.name, f"no query for question {question.id!r}")
        return await asyncio.to_thread(self._search_sync, question, queries, top_k or self.settings.top_k)


def extract_node(context: StrategyContext, settings: RetrievalSettings):
    """Graph step: the question's entities and the queries built from them (state `queries`)."""

    async def extract_queries(state: QAState) -> dict[str, Any]:
        question = state["question"].question
        entities, method, update = await extract_entities(context, question, state.get("repeat", 0),
                                                          settings.entities)
        queries = build_queries(question, entities, combine=settings.spec.local)
        step = {"step": "queries", "method": method, "entities": entities, "queries": queries}
        if method != "rules":
            step["prompt_version"] = ENTITY_PROMPT_VERSION
        return {"queries": queries, "calls": update["calls"], "trace": [*update["trace"], step]}

    return extract_queries


def retrieve_node(pipeline: RetrievalPipeline):
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
    pipeline = RetrievalPipeline(context)
    graph = StateGraph(QAState)
    graph.add_node("extract_entities", extract_node(context, pipeline.settings))
    graph.add_node("retrieve", retrieve_node(pipeline))
    graph.add_node("strategy", subgraph_node(strategy_graph))
    graph.add_edge(START, "extract_entities")
    graph.add_edge("extract_entities", "retrieve")
    graph.add_edge("retrieve", "strategy")
    graph.add_edge("strategy", END)
    return graph.compile()


def rag_composition(base: Any) -> Any:
    """The StrategySpec of `base.name + "+rag"`: retrieval, then `base`'s graph."""
    from factprobe.agents.registry import StrategySpec

    def build(context: StrategyContext):
        return with_retrieval(base.build(context), context)

    reads = None if base.reads is None else (*base.reads, "retriever", "top_k")
    return StrategySpec(f"{base.name}{RAG_SUFFIX}", f"{base.description}, after retrieval", build,
                        samples=base.samples, offers_refusal=base.offers_refusal, retrieves=True,
                        reads=reads)
