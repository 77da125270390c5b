"""BM25 over a local corpus with llama-index's BM25Retriever (bm25s underneath; no model download).

Shared corpora are indexed once and persisted in the factprobe cache, keyed by their content;
per-question corpora (10–20 paragraphs) are indexed in memory only.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Sequence

from llama_index.retrievers.bm25 import BM25Retriever

from factprobe.eval.core.schema import Passage
from factprobe.retrieval.base import RetrievalError, RetrievedPassage
from factprobe.retrieval.corpus import fingerprint, to_nodes
from factprobe.retrieval.index_cache import cached_index, remember

INDEX_VERSION = "1"  # bump when the index settings below change
# One lock for every query: indexes are shared between searchers of the same corpus, and the
# retriever's similarity_top_k is an attribute set per query (a query takes about a millisecond).
_QUERY_LOCK = threading.Lock()


def build_bm25(passages: Sequence[Passage]) -> BM25Retriever:
    """A BM25 index over the passages (English stemming and stop words, title included)."""
    return BM25Retriever.from_defaults(nodes=to_nodes(passages), similarity_top_k=1, language="en")


def _save(index: BM25Retriever, path: Path) -> None:
    index.persist(str(path), show_progress=False)


def _load(path: Path) -> BM25Retriever:
    return BM25Retriever.from_persist_dir(str(path), show_progress=False)


class BM25Search:
    """Ranks passages of one corpus by BM25; passages sharing no term with the query are dropped."""

    name = "bm25"

    def __init__(self, passages: Sequence[Passage], *, persist: bool = True,
                 cache_dir: Path | None = None) -> None:
        if not passages:
            raise RetrievalError(self.name, "the corpus is empty: this dataset has no shared corpus "
                                 "and the question brings none; use --retriever bm25:PATH (a JSONL "
                                 "file or folder of documents), wikipedia or web")
        self.passages = list(passages)
        self.key = f"bm25-v{INDEX_VERSION}-{fingerprint(self.passages)}"
        self.persist = persist
        self.cache_dir = cache_dir
        self._index: BM25Retriever | None = None

    def index(self) -> BM25Retriever:
        """Build, load or reuse the index (persisted on disk only for shared corpora)."""
        if self._index is None:
            build = lambda: build_bm25(self.passages)  # noqa: E731
            if self.persist:
                self._index = cached_index("bm25", self.key, build, save=_save, load=_load,
                                           cache_dir=self.cache_dir)
            else:
                self._index = remember("bm25", self.key, build)
        return self._index

    def search(self, query: str, top_k: int) -> list[RetrievedPassage]:
        index = self.index()
        with _QUERY_LOCK:
            index.similarity_top_k = max(1, min(top_k, len(self.passages)))
            hits = index.retrieve(query)
        return [RetrievedPassage(id=hit.node.node_id, title=hit.node.metadata.get("title", ""),
                                 text=hit.node.get_content(), score=float(hit.score or 0.0),
                                 source=self.name)
                for hit in hits if (hit.score or 0.0) > 0.0]
