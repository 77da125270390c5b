"""The sqlite store under the cache directory, opened by several processes at once."""

from __future__ import annotations

import multiprocessing
import sys
from pathlib import Path

import pytest

from factprobe.eval.store.json_store import JsonStore


def _open(path: str, barrier, results) -> None:
    barrier.wait()
    try:
        store = JsonStore(Path(path), "completions")
        store.put_text("k", '{"a": 1}')
        results.put("ok")
    except Exception as exc:   # reported to the test
        results.put(repr(exc))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks the openers")
def test_processes_opening_one_new_store_at_once_all_get_it(tmp_path: Path) -> None:
    """The workers of a split run open the shared response cache at the same moment; sqlite refuses
    all but one switch to WAL at once, which used to stop a shard ("database is locked")."""
    context = multiprocessing.get_context("fork")
    for attempt in range(20):
        path = tmp_path / f"cache-{attempt}.sqlite"
        barrier, results = context.Barrier(3), context.Queue()
        openers = [context.Process(target=_open, args=(str(path), barrier, results)) for _ in range(3)]
        for opener in openers:
            opener.start()
        for opener in openers:
            opener.join(timeout=60)
        assert [results.get(timeout=10) for _ in openers] == ["ok"] * 3
        assert JsonStore(path, "completions").get("k") == {"a": 1}
