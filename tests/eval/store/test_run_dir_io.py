"""results.jsonl I/O: rows readable as soon as they are appended, fsync batched in time and done on
unlock, rows streamed line by line, ranges still checked."""

from __future__ import annotations

import json
import os

import pytest

from factprobe.eval.core.schema import Grade, Result
from factprobe.eval.store import run_dir as run_dir_module
from factprobe.eval.store.run_dir import RunDir, RunDirError


def row(qid: str, confidence: float | None = 80.0) -> Result:
    return Result(question_id=qid, strategy="vanilla", repeat=0, question=qid, gold="x", category="c",
                  answerable=True, grade=Grade.CORRECT, grader="rules", confidence=confidence)


def test_rows_are_readable_at_once_and_fsynced_in_batches(tmp_path, monkeypatch):
    synced: list[int] = []
    real_fsync = os.fsync

    def counting_fsync(fd: int) -> None:
        synced.append(fd)
        real_fsync(fd)

    monkeypatch.setattr(run_dir_module.os, "fsync", counting_fsync)
    monkeypatch.setattr(run_dir_module, "SYNC_INTERVAL_S", 3600.0)
    run_dir = RunDir(tmp_path / "run")
    run_dir.lock()
    for number in range(20):
        run_dir.append(row(f"q{number}"))
        assert len(run_dir.read_results()) == number + 1      # a killed process would lose nothing
    assert len(synced) == 1                                   # the first row only, within the interval
    run_dir.unlock()
    assert len(synced) == 2                                   # the rows still pending, on unlock
    run_dir.sync()
    assert len(synced) == 2                                   # nothing pending: no fsync


def test_streamed_rows_keep_the_latest_per_key_and_skip_a_torn_tail(tmp_path):
    run_dir = RunDir(tmp_path)
    run_dir.append(row("a", 10.0))
    run_dir.append(row("b"))
    run_dir.append(row("a", 90.0))
    with run_dir.results_path.open("a", encoding="utf-8") as handle:
        handle.write('{"question_id": "c", "strat')
    latest = run_dir.latest()
    assert list(key[0] for key in latest) == ["a", "b"]
    assert latest[("a", "vanilla", 0)].confidence == 90.0


def test_a_confidence_out_of_range_names_its_line_and_field(tmp_path):
    run_dir = RunDir(tmp_path)
    run_dir.append(row("a"))
    bad = json.loads(row("b").model_dump_json())
    bad["confidence"] = 140
    with run_dir.results_path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(bad) + "\n")
    with pytest.raises(RunDirError, match=r"line 2: field `confidence`"):
        run_dir.read_results()
