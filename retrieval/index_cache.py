"""Indexes built once per corpus: kept in memory for the process and on disk across runs.

An index lives in `<cache dir>/retrieval/indexes/<kind>/<key>/`, where the key hashes the corpus
content and the settings that shape the index, so a changed corpus never reuses a stale index.
`builds` and `loads` count what happened, per kind (tests and the benchmark read them).
"""

from __future__ import annotations

import shutil
import threading
from collections import Counter, OrderedDict
from pathlib import Path
from typing import Callable, TypeVar

from factprobe.eval.store.atomic import atomic_folder
from factprobe.eval.store.json_store import default_cache_dir

T = TypeVar("T")

builds: Counter[str] = Counter()
loads: Counter[str] = Counter()
_memory: dict[tuple[str, str], object] = {}
_small: OrderedDict[tuple[str, str], object] = OrderedDict()
SMALL_INDEXES_KEPT = 256
_lock = threading.Lock()


def index_root(cache_dir: Path | None = None) -> Path:
    """Where indexes are persisted: `<factprobe cache dir>/retrieval/indexes`."""
    return (cache_dir or default_cache_dir()) / "retrieval" / "indexes"


def forget_memory() -> None:
    """Drop the in-process indexes (as a new process would start); disk copies stay."""
    with _lock:
        _memory.clear()
        _small.clear()


def cached_index(kind: str, key: str, build: Callable[[], T], *,
                 save: Callable[[T, Path], None] | None = None,
                 load: Callable[[Path], T] | None = None,
                 cache_dir: Path | None = None) -> T:
    """The index for (kind, key): from memory, else from disk, else built (and saved when `save`).

    An unreadable disk copy is rebuilt and overwritten.
    """
    with _lock:
        if (kind, key) in _memory:
            return _memory[(kind, key)]  # type: ignore[return-value]
        index: T | None = None
        path = index_root(cache_dir) / kind / key
        if load is not None and path.is_dir():
            try:
                index = load(path)
                loads[kind] += 1
            except Exception:  # a partial or outdated copy: rebuild it below
                shutil.rmtree(path, ignore_errors=True)
                index = None
        if index is None:
            index = build()
            builds[kind] += 1
            if save is not None:
                _save_atomically(index, path, save)
        _memory[(kind, key)] = index
        return index


def remember(kind: str, key: str, build: Callable[[], T]) -> T:
    """An in-memory-only index for a small per-question corpus; the last SMALL_INDEXES_KEPT stay.

    Strategies and repeats asking the same question reuse it; nothing is written to disk.
    """
    with _lock:
        if (kind, key) in _small:
            _small.move_to_end((kind, key))
            return _small[(kind, key)]  # type: ignore[return-value]
    index = build()
    with _lock:
        builds[kind] += 1
        _small[(kind, key)] = index
        while len(_small) > SMALL_INDEXES_KEPT:
            _small.popitem(last=False)
    return index


def _save_atomically(index: T, path: Path, save: Callable[[T, Path], None]) -> None:
    """Write into a temporary folder and rename it, so a reader never sees half an index (when
    another process saved the same index first, its copy is kept)."""
    with atomic_folder(path) as temporary:
        save(index, temporary)
