"""The retriever protocol: a query in, ranked passages out, with what the lookup cost."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Protocol


class RetrievalError(RuntimeError):
    """A retrieval that could not be done; the message names the source (bm25, wikipedia, web, …)."""

    def __init__(self, source: str, message: str) -> None:
        super().__init__(f"{source}: {message}")
        self.source = source


@dataclass(frozen=True)
class RetrievedPassage:
    """One ranked hit. `score` is the source's own score (BM25, cosine, RRF, or rank for search)."""

    id: str
    title: str
    text: str
    score: float
    source: str

    def as_dict(self) -> dict:
        """The dict kept in state `context` and in the trace."""
        return asdict(self)


@dataclass
class Retrieval:
    """The answer to one query: passages best first, the lookup's wall time, and whether it was cached.

    A cached retrieval keeps the latency measured when it was first done, as cached model calls do.
    """

    query: str
    source: str
    passages: list[RetrievedPassage] = field(default_factory=list)
    latency_s: float = 0.0
    cached: bool = False


class Retriever(Protocol):
    """Anything that ranks passages for a query. `name` says where passages come from.

    `key` identifies what the retriever searches and how (corpus fingerprint, model, settings): two
    retrievers with the same key return the same passages for the same query, so results can be
    cached under it.
    """

    name: str
    key: str

    def search(self, query: str, top_k: int) -> list[RetrievedPassage]:
        """At most `top_k` passages for `query`, best first; raises RetrievalError on failure."""
        ...


def timed_search(retriever: Retriever, query: str, top_k: int) -> Retrieval:
    """Run one query and measure its wall time."""
    started = time.perf_counter()
    passages = retriever.search(query, top_k)
    return Retrieval(query, retriever.name, passages, time.perf_counter() - started)
