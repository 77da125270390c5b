"""Retrieval for one question: which corpus, the search, rank fusion and the top k (docs/protocols.md §3).

Which corpus: a local retriever given a path (`bm25:PATH`) searches that corpus; otherwise a
question that brings its own paragraphs (HotpotQA, MuSiQue) is searched in them, indexed in memory;
otherwise the dataset's shared corpus, indexed once and cached on disk. The shared index is built
or loaded when the pipeline is built, so its one-time cost is not charged to the first question; a
per-question index is built (in memory) by that question's first query, whose retrieval latency
includes it.

The graph steps that call it (`X+rag`) are in factprobe.agents.rag; the run hands them
`pipeline_for` through the strategy context's resources (`resources.retrieval`), so strategies never
import this package.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from factprobe.eval.core.errors import StrategyOptionError
from factprobe.eval.core.schema import Question
from factprobe.retrieval.base import Retrieval, RetrievalError, Retriever
from factprobe.retrieval.corpus import load_corpus
from factprobe.retrieval.fusion import reciprocal_rank_fusion
from factprobe.retrieval.registry import RetrieverSpec, build_retriever, parse_spec
from factprobe.retrieval.results_cache import ResultCache, cached_search, default_results_path


@dataclass(frozen=True)
class RetrievalSettings:
    """The retrieval options of a run: `--retriever`, `--top-k`, entity method and source, caching."""

    spec: RetrieverSpec
    top_k: int = 3
    entities: str = "model"
    entity_source: str = "question"
    use_cache: bool = True
    cache_dir: Path | None = None

    @classmethod
    def from_context(cls, context: Any) -> "RetrievalSettings":
        """Settings from the run's strategy options; a bad value is a StrategyOptionError."""
        options = context.options
        resources = context.resources
        top_k = options.get("top_k")
        top_k = 3 if top_k is None else int(top_k)
        if top_k < 1:
            raise StrategyOptionError(f"--top-k must be at least 1, got {top_k}")
        entities = options.get("entities") or "model"
        if entities not in ("model", "rules"):
            raise StrategyOptionError(f"entity extraction {entities!r}: use model or rules")
        entity_source = options.get("entity_source") or "question"
        if entity_source not in ("question", "media"):
            raise StrategyOptionError(f"--entity-source {entity_source!r}: use question or media")
        if entity_source == "media" and entities == "rules":
            raise StrategyOptionError("--entity-source media needs the model to name the entities; "
                                      "entity extraction by rules reads the question only")
        if options.get("entity_model") and entities == "rules":
            raise StrategyOptionError("--entity-model names the entities with a model; entity extraction "
                                      "by rules calls none")
        try:
            spec = parse_spec(options.get("retriever") or "bm25")
        except RetrievalError as exc:
            raise StrategyOptionError(f"--retriever: {exc}") from None
        return cls(spec=spec, top_k=top_k, entities=entities, entity_source=entity_source,
                   use_cache=True if resources.config is None else bool(resources.config.use_cache),
                   cache_dir=resources.cache_dir)


class RetrievalPipeline:
    """Searches queries for one question: picks the corpus, searches, fuses, keeps the top k.

    Reusable outside the RAG graph (e.g. per hop of a decomposition) through `search`.
    """

    def __init__(self, context: Any) -> None:
        """`context`: the strategy context (its `options` and `resources`: corpus, config, cache_dir)."""
        self.settings = settings = RetrievalSettings.from_context(context)
        spec = settings.spec
        corpus = load_corpus(spec.path) if spec.path else list(context.resources.corpus)
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
        return self.shared, str(spec.path) if spec.path else ("dataset" if spec.local else str(spec))

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


def pipeline_for(context: Any) -> RetrievalPipeline:
    """The retrieval pipeline of a strategy context; what the run puts in `resources.retrieval`."""
    return RetrievalPipeline(context)
