"""`--executor ray`: a 200-question run in 4 shards as Ray tasks on a local Ray cluster started by
the run; one task's worker process is killed mid-shard, Ray retries the task, the retry continues
the shard, and the merged run holds every row once with the summary of a single-process run. The
model is the benchmarks' stand-in OpenAI-compatible server, started by the test on 127.0.0.1.

Needs the `ray` extra (`pip install 'factprobe[ray]'`); skipped without it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
from benchmarks.chat_server import SERVED_MODEL, ChatServer
from tests.eval.run.test_shards import rows_by_key, without_timings

pytestmark = pytest.mark.needs_ray

pytest.importorskip("ray", reason="--executor ray needs the ray extra: pip install 'factprobe[ray]'")

QUESTIONS = 200
SHARDS = 4
WAIT_S = 300.0
STARTED = "questions × 1 strategies × 1 repeats"


def write_questions(path: Path) -> Path:
    rows = [{"id": f"r{i}", "question": f"What is the capital of region {i}?", "answer": "Paris" if i % 4 else "Lyon"}
            for i in range(QUESTIONS)]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def args(url: str, data: Path, out: Path, *extra: str) -> list[str]:
    return ["run", "--dataset", f"jsonl:{data}", "--strategies", "vanilla", "--model", f"openai:{SERVED_MODEL}@{url}",
            "--out", str(out), "--no-cache", "--max-retries", "1", *extra]


def rows_in(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.is_file() else 0


def test_a_killed_ray_task_is_retried_and_its_shard_resumed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "")
    data = write_questions(tmp_path / "q.jsonl")
    single, split = tmp_path / "single", tmp_path / "ray"
    with ChatServer(delay_s=0.05) as server:
        assert cli.main(args(server.base_url, data, single, "--concurrency", "8")) == 0
        # relative paths, read by the tasks from the folder the run was started in
        run = subprocess.Popen([sys.executable, "-m", "factprobe.eval.cli.main",
                                *args(server.base_url, Path(data.name), Path(split.name), "--workers", str(SHARDS),
                                      "--executor", "ray")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
        shards = [split / "shards" / f"{i}-of-{SHARDS}" for i in range(1, SHARDS + 1)]
        deadline, victim = time.monotonic() + WAIT_S, None
        while victim is None:   # a shard some way into its rows, far from its end
            assert run.poll() is None, run.stderr.read() if run.stderr else ""
            assert time.monotonic() < deadline, "no shard got under way"
            victim = next((shard for shard in shards if 5 <= rows_in(shard / "results.jsonl") <= 25), None)
            time.sleep(0.02)
        os.kill(int((victim / ".lock").read_text()), signal.SIGKILL)    # the Ray worker running it
        _, err = run.communicate(timeout=WAIT_S)
    assert run.returncode == 0, err

    starts = [line for line in (victim.parent / f"{victim.name}.log").read_text().splitlines() if STARTED in line]
    assert len(starts) == 2, starts                     # the task ran again, and continued the shard:
    assert int(starts[1].rsplit(";", 1)[1].split()[0]) < int(starts[0].rsplit(";", 1)[1].split()[0])
    assert sum(len(rows_by_key(shard)) for shard in shards) == QUESTIONS   # each shard's rows once
    got, expected = rows_by_key(split), rows_by_key(single)
    assert set(got) == set(expected) and len(got) == QUESTIONS
    assert {k: r["grade"] for k, r in got.items()} == {k: r["grade"] for k, r in expected.items()}
    summary = json.loads((split / "summary.json").read_text())
    assert without_timings(summary) == without_timings(json.loads((single / "summary.json").read_text()))
