"""`kill -9` a real `factprobe run` at several moments, then `--resume`: nothing lost, nothing
duplicated; and a second run on a directory in use stops with exit 2.

The runs are subprocesses talking to tests/fakes.py, which answers every request after
0.3 s, so each moment (before the first row, mid-run, after the last row) can be caught.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from factprobe.eval.store.run_dir import RunDir
from tests.fakes import SERVED_MODEL, FaultServer

QUESTIONS = 8
WAIT_S = 60.0


def write_questions(path: Path) -> Path:
    rows = [{"id": f"q{i}", "question": f"What is the capital of country {i}?", "answer": "Paris"}
            for i in range(QUESTIONS)]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def command(url: str, data: Path, out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "factprobe.eval.cli.main", "run", "--dataset", f"jsonl:{data}",
            "--strategies", "vanilla", "--model", f"openai:{SERVED_MODEL}@{url}", "--out", str(out),
            "--request-timeout", "5", "--max-retries", "1", *extra]


def start(args: list[str]) -> subprocess.Popen:
    env = {**os.environ, "OPENAI_API_KEY": ""}
    return subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)


def rows_written(out: Path) -> int:
    path = out / "results.jsonl"
    return path.read_bytes().count(b"\n") if path.is_file() else 0


def kill_when(proc: subprocess.Popen, ready) -> None:
    """SIGKILL `proc` as soon as `ready()` holds; fails if it exits or never gets there."""
    deadline = time.monotonic() + WAIT_S
    while not ready():
        assert proc.poll() is None, f"the run ended before the kill moment: {proc.stderr.read()}"
        assert time.monotonic() < deadline, "the kill moment never came"
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()


def finish(proc: subprocess.Popen) -> tuple[int, str]:
    _, err = proc.communicate(timeout=WAIT_S)
    return proc.returncode, err


@pytest.fixture(autouse=True)
def no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


def test_kill_at_several_moments_then_resume_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    data, out = write_questions(tmp_path / "q.jsonl"), tmp_path / "run"
    with FaultServer(["slow"]) as server:
        first = start(command(server.url, data, out))
        # before any row: the manifest is written, the first answers are still on their way
        kill_when(first, lambda: (out / "manifest.json").is_file())
        assert rows_written(out) == 0

        # mid-run, after 3 rows (a row may be half-written at the kill: --resume drops it)
        middle = start(command(server.url, data, out, "--resume"))
        kill_when(middle, lambda: rows_written(out) >= 3)

        last = start(command(server.url, data, out, "--resume"))
        kill_when(last, lambda: rows_written(out) >= QUESTIONS)     # after the last row: in the report

        code, err = finish(start(command(server.url, data, out, "--resume")))
    assert code == 0, err
    keys = Counter(row.key for row in RunDir(out).read_results())
    assert set(keys) == {(f"q{i}", "vanilla", 0) for i in range(QUESTIONS)}     # 0 lost
    assert max(keys.values()) == 1                                               # 0 duplicated
    summary = json.loads((out / "summary.json").read_text())
    assert summary["strategies"]["vanilla"]["n"] == QUESTIONS
    assert summary["strategies"]["vanilla"]["correct"] == QUESTIONS


def test_a_second_run_on_a_directory_in_use_exits_2_naming_it_and_the_holder(tmp_path: Path) -> None:
    data, out = write_questions(tmp_path / "q.jsonl"), tmp_path / "run"
    with FaultServer(["slow"]) as server:
        holder = start(command(server.url, data, out))
        deadline = time.monotonic() + WAIT_S
        while not (out / "manifest.json").is_file():
            assert holder.poll() is None and time.monotonic() < deadline
            time.sleep(0.02)
        fresh = subprocess.run(command(server.url, data, out), capture_output=True, text=True,
                               timeout=WAIT_S, env={**os.environ, "OPENAI_API_KEY": ""})
        resumed = subprocess.run(command(server.url, data, out, "--resume"), capture_output=True,
                                 text=True, timeout=WAIT_S, env={**os.environ, "OPENAI_API_KEY": ""})
        assert holder.poll() is None, "the first run must still hold the directory"
        code, err = finish(holder)
    for second in (fresh, resumed):
        assert second.returncode == 2 and "Traceback" not in second.stderr
        assert f"{out} is in use by another factprobe run (pid {holder.pid})" in second.stderr
    assert code == 0, err
    keys = Counter(row.key for row in RunDir(out).read_results())
    assert len(keys) == QUESTIONS and max(keys.values()) == 1


def test_a_lock_left_by_a_killed_run_does_not_block(tmp_path: Path) -> None:
    out = tmp_path / "run"
    out.mkdir()
    (out / ".lock").write_text("12345\n")          # the pid of a run that no longer exists
    run_dir = RunDir(out)
    run_dir.lock()
    try:
        assert (out / ".lock").read_text() == f"{os.getpid()}\n"
    finally:
        run_dir.unlock()
