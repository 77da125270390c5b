"""`--retriever` values: NAME or NAME:PATH, NAME one of bm25, dense, hybrid, wikipedia, web.

Local retrievers (bm25, dense, hybrid) search the dataset's corpus, a question's own paragraphs
when it brings some, or the corpus at PATH (a JSONL file of passages or a folder of documents).
Search engines combine as `wikipedia,web`: each is asked every query and their rankings are merged
by reciprocal rank (Video SimpleQA's RAG searched Google and Wikipedia together), each passage
keeping its own source. Local ones do not combine this way: `hybrid` fuses bm25 and dense.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from factprobe.eval.core.schema import Passage
from factprobe.retrieval.base import RetrievalError, Retriever

RETRIEVERS = {
    "bm25": "BM25 over the local corpus (default; llama-index-retrievers-bm25, no model download)",
    "dense": "embedding similarity over the local corpus (all-MiniLM-L6-v2; needs the dense extra)",
    "hybrid": "BM25 and dense fused by reciprocal rank (needs the dense extra)",
    "wikipedia": "Wikipedia search, page introductions (needs internet)",
    "web": "DuckDuckGo web search via ddgs, result snippets (needs internet)",
}
LOCAL = ("bm25", "dense", "hybrid")


@dataclass(frozen=True)
class RetrieverSpec:
    """A parsed `--retriever` value."""

    name: str
    path: Path | None = None
    others: tuple[str, ...] = ()   # further search engines merged with this one (`wikipedia,web`)

    @property
    def local(self) -> bool:
        return self.name in LOCAL

    def __str__(self) -> str:
        return f"{self.name}:{self.path}" if self.path else ",".join((self.name, *self.others))


def parse_spec(text: str) -> RetrieverSpec:
    """`bm25`, `hybrid:corpus.jsonl`, `wikipedia`, `wikipedia,web`, …; a RetrievalError lists the
    valid names."""
    if "," in text:
        return combined_spec(text)
    name, sep, path = text.strip().partition(":")
    if name not in RETRIEVERS:
        raise RetrievalError("retriever", f"unknown retriever {text!r}; use one of "
                             f"{', '.join(RETRIEVERS)} (local ones also as NAME:PATH)")
    if sep and not path:
        raise RetrievalError("retriever", f"{text!r}: give a corpus path after the colon")
    if path and name not in LOCAL:
        raise RetrievalError("retriever", f"{text!r}: only {', '.join(LOCAL)} search a corpus path")
    return RetrieverSpec(name, Path(path).expanduser() if path else None)


def combined_spec(text: str) -> RetrieverSpec:
    """`wikipedia,web`: two or more search engines, each named once."""
    names = [part.strip() for part in text.split(",")]
    engines = [name for name in RETRIEVERS if name not in LOCAL]
    wrong = [name for name in names if name not in engines]
    if wrong:
        raise RetrievalError("retriever", f"{text!r}: only the search engines {', '.join(engines)} combine "
                             f"(not {', '.join(repr(name) for name in wrong)}); for bm25 and dense use hybrid")
    if len(set(names)) < len(names):
        raise RetrievalError("retriever", f"{text!r}: name each search engine once")
    return RetrieverSpec(names[0], others=tuple(names[1:]))


def build_retriever(spec: RetrieverSpec, corpus: Sequence[Passage], *, persist: bool = True,
                    cache_dir: Path | None = None, embed_model: Any = None) -> Retriever:
    """The retriever `spec` names over `corpus` (ignored by wikipedia and web).

    `persist` keeps local indexes on disk (shared corpora); per-question corpora pass False.
    """
    if spec.others:
        from factprobe.retrieval.fusion import MultiSourceSearch

        return MultiSourceSearch([build_retriever(RetrieverSpec(name), corpus) for name in (spec.name, *spec.others)])
    if spec.name == "bm25":
        from factprobe.retrieval.bm25 import BM25Search

        return BM25Search(corpus, persist=persist, cache_dir=cache_dir)
    if spec.name == "dense":
        from factprobe.retrieval.dense import DenseSearch

        return DenseSearch(corpus, embed_model=embed_model, persist=persist, cache_dir=cache_dir)
    if spec.name == "hybrid":
        from factprobe.retrieval.bm25 import BM25Search
        from factprobe.retrieval.dense import DenseSearch
        from factprobe.retrieval.fusion import HybridSearch

        return HybridSearch(BM25Search(corpus, persist=persist, cache_dir=cache_dir),
                            DenseSearch(corpus, embed_model=embed_model, persist=persist, cache_dir=cache_dir))
    if spec.name == "wikipedia":
        from factprobe.retrieval.wikipedia_search import WikipediaSearch

        return WikipediaSearch()
    from factprobe.retrieval.web_search import WebSearch

    return WebSearch()
