"""An on-disk cache of retrieval results, keyed by what was searched (retriever key), query and k.

A cached result keeps the latency measured when it was first retrieved (flagged `cached`), as the
model response cache does, so a re-run reports the cost of the run that paid for it.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from pathlib import Path

from agents.models.cache import default_cache_dir
from retrieval.base import Retrieval, RetrievedPassage, Retriever, timed_search

CACHE_VERSION = "1"


def default_results_path(cache_dir: Path | None = None) -> Path:
    return (cache_dir or default_cache_dir()) / "retrieval" / "results.sqlite"


def result_key(retriever_key: str, query: str, top_k: int) -> str:
    payload = json.dumps({"v": CACHE_VERSION, "retriever": retriever_key, "query": query, "k": top_k},
                         sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


class ResultCache:
    """A small sqlite table of retrievals; safe to share between threads of one process."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False)
        self._db.execute("CREATE TABLE IF NOT EXISTS retrievals (key TEXT PRIMARY KEY, value TEXT)")
        self._db.commit()

    def get(self, key: str) -> Retrieval | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM retrievals WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        data = json.loads(row[0])
        passages = [RetrievedPassage(**passage) for passage in data["passages"]]
        return Retrieval(data["query"], data["source"], passages, data["latency_s"], cached=True)

    def put(self, key: str, retrieval: Retrieval) -> None:
        value = json.dumps({"query": retrieval.query, "source": retrieval.source,
                            "latency_s": retrieval.latency_s,
                            "passages": [p.as_dict() for p in retrieval.passages]}, ensure_ascii=False)
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO retrievals VALUES (?, ?)", (key, value))
            self._db.commit()


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
