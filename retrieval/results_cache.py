"""An on-disk cache of retrieval results, keyed by what was searched (retriever key), query and k.

A cached result keeps the latency measured when it was first retrieved (flagged `cached`), as the
model response cache does, so a re-run reports the cost of the run that paid for it.
"""

from __future__ import annotations

from pathlib import Path

from factprobe.eval.store.json_store import JsonStore, default_cache_dir, hash_key
from factprobe.retrieval.base import Retrieval, RetrievedPassage, Retriever, timed_search

CACHE_VERSION = "1"


def default_results_path(cache_dir: Path | None = None) -> Path:
    return (cache_dir or default_cache_dir()) / "retrieval" / "results.sqlite"


def result_key(retriever_key: str, query: str, top_k: int) -> str:
    return hash_key({"v": CACHE_VERSION, "retriever": retriever_key, "query": query, "k": top_k})


class ResultCache:
    """Retrievals on disk, one JSON entry per (retriever, query, k) key."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._store = JsonStore(path, "retrievals")

    def get(self, key: str) -> Retrieval | None:
        data = self._store.get(key)
        if data is None:
            return None
        passages = [RetrievedPassage(**passage) for passage in data["passages"]]
        return Retrieval(data["query"], data["source"], passages, data["latency_s"], cached=True)

    def put(self, key: str, retrieval: Retrieval) -> None:
        self._store.put(key, {"query": retrieval.query, "source": retrieval.source,
                              "latency_s": retrieval.latency_s,
                              "passages": [p.as_dict() for p in retrieval.passages]})


def cached_search(retriever: Retriever, query: str, top_k: int, cache: ResultCache | None) -> Retrieval:
    """The retrieval for (retriever, query, top_k): from the cache when there, else searched and stored."""
    if cache is None:
        return timed_search(retriever, query, top_k)
    key = result_key(retriever.key, query, top_k)
    hit = cache.get(key)
    if hit is not None:
        return hit
    retrieval = timed_search(retriever, query, top_k)
    cache.put(key, retrieval)
    return retrieval
