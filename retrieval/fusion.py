"""Reciprocal rank fusion (Cormack, Clarke and Büttcher, 2009) and the hybrid BM25 + dense retriever.

RRF scores a passage by the sum over rankings of 1 / (k + rank), rank starting at 1, k = 60. We
fuse our own `RetrievedPassage` rankings rather than use llama-index's QueryFusionRetriever: its
fusion is a private method of a retriever that resolves an LLM from global settings, and we fuse
rankings of several queries as well as of several retrievers.
"""

from __future__ import annotations

from typing import Sequence

from factprobe.retrieval.base import RetrievedPassage, Retriever

RRF_K = 60


def reciprocal_rank_fusion(rankings: Sequence[Sequence[RetrievedPassage]], k: int = RRF_K,
                           source: str | None = None) -> list[RetrievedPassage]:
    """One ranking from several, by summed 1 / (k + rank); the score becomes the fused score.

    Passages are identified by id; ties keep the order in which passages were first seen (the
    earlier ranking's best passages first). `source` renames the passages' source when given.
    """
    scores: dict[str, float] = {}
    first: dict[str, RetrievedPassage] = {}
    for ranking in rankings:
        for rank, passage in enumerate(ranking, start=1):
            scores[passage.id] = scores.get(passage.id, 0.0) + 1.0 / (k + rank)
            first.setdefault(passage.id, passage)
    order = {pid: position for position, pid in enumerate(first)}
    ranked = sorted(scores, key=lambda pid: (-scores[pid], order[pid]))
    return [RetrievedPassage(id=pid, title=first[pid].title, text=first[pid].text, score=scores[pid],
                             source=source or first[pid].source) for pid in ranked]


class HybridSearch:
    """BM25 and dense rankings of the same corpus fused by RRF.

    Each side contributes `candidates` passages (at least top_k) so that a passage ranked well by
    one retriever and moderately by the other can still win.
    """

    name = "hybrid"

    def __init__(self, lexical: Retriever, dense: Retriever, candidates: int = 10) -> None:
        self.lexical = lexical
        self.dense = dense
        self.candidates = candidates
        self.key = f"hybrid-rrf{RRF_K}-{candidates}({lexical.key},{dense.key})"

    def index(self) -> None:
        """Build or load both indexes."""
        self.lexical.index()  # type: ignore[attr-defined]
        self.dense.index()  # type: ignore[attr-defined]

    def search(self, query: str, top_k: int) -> list[RetrievedPassage]:
        depth = max(top_k, self.candidates)
        fused = reciprocal_rank_fusion([self.lexical.search(query, depth), self.dense.search(query, depth)],
                                       source=self.name)
        return fused[:top_k]


class MultiSourceSearch:
    """Several search engines asked the same query (`--retriever wikipedia,web`), their rankings
    fused by RRF; each passage keeps its own source. A source that fails fails the search: a
    ranking silently missing one source is not the one asked for."""

    def __init__(self, sources: Sequence[Retriever]) -> None:
        self.sources = list(sources)
        self.name = ",".join(source.name for source in self.sources)
        self.key = f"sources-rrf{RRF_K}({','.join(source.key for source in self.sources)})"

    def search(self, query: str, top_k: int) -> list[RetrievedPassage]:
        return reciprocal_rank_fusion([source.search(query, top_k) for source in self.sources])[:top_k]
