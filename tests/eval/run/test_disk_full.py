"""A full disk under `--out` or under the response cache.

- results.jsonl full while answering: the run stops with exit 2 and one line naming the file, the
  space free and about how much more the rest of the run needs; the row being written is cut off
  (no torn last line), and `--resume` finishes once there is room.
- full while the report is written: the rows are all kept; `--resume` writes the report without
  asking the model again.
- the response cache full: answered calls stay answered (no ERROR row), the run goes on without
  caching and says so once.

A full disk is simulated without root: the row writer is replaced by one that writes part of the
row and raises ENOSPC; the cache's sqlite file is capped at its size (`PRAGMA max_page_count`), so
sqlite itself reports "database or disk is full". The model is a fault-free local
OpenAI-compatible server on 127.0.0.1 (tests.fakes.FaultServer).
"""

from __future__ import annotations

import errno
import json
import re
import sqlite3
from pathlib import Path

import pytest

import factprobe.eval.store.run_dir as run_dir_module
from factprobe.eval.cli.main import main
from factprobe.eval.core.schema import Question
from factprobe.eval.store import json_store
from factprobe.eval.store.run_dir import RunDir
from tests.fakes import SERVED_MODEL, FaultServer, write_questions

QUESTIONS = [Question(id=f"q{i}", question=f"What is the capital of France, asked the {i}th time?",
                      answer="Paris", category="places") for i in range(8)]


@pytest.fixture(autouse=True)
def no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


@pytest.fixture
def server():
    with FaultServer(["ok"]) as running:
        yield running


def run(tmp_path: Path, url: str, *extra: str) -> int:
    data = tmp_path / "q.jsonl"
    if not data.exists():
        write_questions(data, QUESTIONS)
    return main(["run", "--dataset", f"jsonl:{data}", "--strategies", "vanilla", "--concurrency", "2",
                 "--model", f"openai:{SERVED_MODEL}@{url}", "--out", str(tmp_path / "run"), *extra])


def disk_fills_after(rows: int):
    """A row writer for which the disk is full after `rows` rows: later rows are half written, then ENOSPC."""
    written = []

    def write_all(handle, data: bytes) -> None:
        if len(written) >= rows:
            handle.write(data[: len(data) // 2])
            raise OSError(errno.ENOSPC, "No space left on device")
        written.append(data)
        handle.write(data)

    return write_all


def error_line(err: str) -> str:
    [line] = [line for line in err.splitlines() if line.startswith("factprobe: ")]
    return line


def test_a_full_disk_while_answering_stops_cleanly_and_resume_finishes(tmp_path: Path, server: FaultServer,
                                                                       monkeypatch: pytest.MonkeyPatch,
                                                                       capsys) -> None:
    results = tmp_path / "run" / "results.jsonl"
    monkeypatch.setattr(run_dir_module, "write_all", disk_fills_after(3))
    assert run(tmp_path, server.url) == 2
    err = capsys.readouterr().err
    line = error_line(err)
    assert "Traceback" not in err
    assert line.startswith(f"factprobe: {results}: no space left on the device (")
    assert "free there). Free at least " in line
    assert f"then continue with `factprobe run --resume --out {tmp_path / 'run'}`" in line
    needed = re.search(r"Free at least ([\d.]+) (bytes|KB)", line)
    assert needed is not None and float(needed.group(1)) > 0
    data = results.read_bytes()
    assert data.endswith(b"\n") and len(data.splitlines()) == 3          # the half-written row was cut off
    assert all(json.loads(row)["grade"] == "CORRECT" for row in data.splitlines())
    monkeypatch.undo()                                                   # room again
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert run(tmp_path, server.url, "--resume") == 0
    latest = RunDir(tmp_path / "run").latest()
    assert len(latest) == len(QUESTIONS) and {row.grade.value for row in latest.values()} == {"CORRECT"}
    assert len(results.read_bytes().splitlines()) == len(QUESTIONS)   # no row twice


def test_a_full_disk_while_reporting_keeps_the_rows_and_resume_writes_the_report(
        tmp_path: Path, server: FaultServer, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    def full(self, summary) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(RunDir, "write_summary", full)
    assert run(tmp_path, server.url) == 2
    err = capsys.readouterr().err
    line = error_line(err)
    assert "Traceback" not in err and f"{tmp_path / 'run'}: no space left on the device" in line
    assert f"finish the report with `factprobe report {tmp_path / 'run'}`" in line
    assert len(RunDir(tmp_path / "run").latest()) == len(QUESTIONS)
    assert not (tmp_path / "run" / "summary.json").exists()
    asked = server.requests
    monkeypatch.undo()
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert run(tmp_path, server.url, "--resume") == 0
    assert server.requests == asked                                     # the report only: no model call
    assert json.loads((tmp_path / "run" / "summary.json").read_text())["strategies"]["vanilla"]["n"] == len(QUESTIONS)


# a reply of about 2 KB: two fill a sqlite page, so the capped cache is full after a few
LONG_REPLY = "Answer: Paris\nConfidence: 90\n" + "Paris has been the seat of the French government for centuries. " * 30


def test_a_full_response_cache_never_turns_answers_into_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys) -> None:
    opened = json_store.JsonStore.__init__

    def capped(self, path: Path, table: str) -> None:
        opened(self, path, table)
        if table == "completions":          # the file may not grow past its size when the cache opened
            pages = self._db.execute("PRAGMA page_count").fetchone()[0]
            self._db.execute(f"PRAGMA max_page_count = {pages}")

    monkeypatch.setattr(json_store.JsonStore, "__init__", capped)
    monkeypatch.setattr(json_store, "_FULL_SAID", set(), raising=False)
    with FaultServer(["ok"], reply=LONG_REPLY) as server:
        assert run(tmp_path, server.url) == 0
    err = capsys.readouterr().err
    assert "Traceback" not in err
    warnings = [line for line in err.splitlines() if "no space left on the device" in line]
    assert len(warnings) == 1 and "responses.sqlite" in warnings[0] and "continuing without storing" in warnings[0]
    rows = RunDir(tmp_path / "run").latest().values()
    assert len(rows) == len(QUESTIONS) and {row.grade.value for row in rows} == {"CORRECT"}
    cache = Path(json_store.default_cache_dir()) / "responses.sqlite"
    with sqlite3.connect(cache) as db:
        stored = db.execute("SELECT COUNT(*) FROM completions").fetchone()[0]
    assert 0 < stored < len(QUESTIONS)                                   # it filled during the run


def test_a_full_disk_anywhere_else_is_one_line_naming_the_folder(tmp_path: Path, server: FaultServer,
                                                                 monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    """Where no writer says more (here the manifest, written before any question), the command
    still stops with one line naming the run directory, and no traceback."""
    def full(self, manifest) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(RunDir, "write_manifest", full)
    assert run(tmp_path, server.url) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and server.requests == 0
    line = error_line(err)
    assert line.startswith(f"factprobe: {tmp_path / 'run'}: no space left on the device (")
    assert "free some space on that file system and run the command again" in line
