"""`factprobe run --workers N`: shards in their own processes, merged into the run directory, with the
lock, resume and exit statuses of one process. The model is the stand-in OpenAI-compatible server
of the benchmarks (benchmarks/chat_server.py), started by the test on 127.0.0.1."""

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

QUESTIONS = 16
WAIT_S = 90.0


@pytest.fixture(scope="module")
def server():
    with ChatServer(delay_s=0.03) as running:
        yield running


@pytest.fixture(autouse=True)
def no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "")


def write_questions(path: Path) -> Path:
    rows = [{"id": f"c{i}", "question": f"What is the capital of country {i}?",
             "answer": "Paris" if i % 3 else "Rome", "category": "even" if i % 2 else "odd"} for i in range(QUESTIONS)]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def args(url: str, data: Path, out: Path, *extra: str) -> list[str]:
    return ["run", "--dataset", f"jsonl:{data}", "--strategies", "vanilla,refusal", "--model",
            f"openai:{SERVED_MODEL}@{url}", "--out", str(out), "--max-retries", "1", "--no-cache", *extra]


def start(arguments: list[str]) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "factprobe.eval.cli.main", *arguments],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def wait_for(ready, proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + WAIT_S
    while not ready():
        assert proc.poll() is None, f"the run ended too early: {proc.stderr.read()}"
        assert time.monotonic() < deadline, "never got there"
        time.sleep(0.02)


def rows_in(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.is_file() else 0


@pytest.fixture(scope="module")
def single(server, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("workers")
    data = write_questions(folder / "q.jsonl")
    os.environ.setdefault("OPENAI_API_KEY", "")
    assert cli.main(args(server.base_url, data, folder / "single", "--concurrency", "4")) == 0
    return data, folder / "single"


def test_two_workers_equal_one_process_and_hold_the_lock(server, single, tmp_path: Path) -> None:
    data, one = single
    out = tmp_path / "split"
    run = start(args(server.base_url, data, out, "--workers", "2"))
    wait_for(lambda: rows_in(out / "shards" / "1-of-2" / "results.jsonl") > 0, run)
    second = subprocess.run([sys.executable, "-m", "factprobe.eval.cli.main", *args(server.base_url, data, out)],
                            capture_output=True, text=True)
    assert second.returncode == 2 and "in use by another factprobe run" in second.stderr
    _, err = run.communicate(timeout=WAIT_S)
    assert run.returncode == 0, err

    expected, got = rows_by_key(one), rows_by_key(out)
    assert set(got) == set(expected) and len(got) == QUESTIONS * 2
    assert {key: row["grade"] for key, row in got.items()} == {key: row["grade"] for key, row in expected.items()}
    assert all(rows_in(out / "shards" / f"{i}-of-2" / "results.jsonl") > 0 for i in (1, 2))
    summary = json.loads((out / "summary.json").read_text())
    assert without_timings(summary) == without_timings(json.loads((one / "summary.json").read_text()))
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["config"]["workers"] == 2 and len(manifest["merged_from"]) == 2
    assert (out / "report.html").is_file() and not (out / "shards" / "1-of-2" / "report.html").exists()
    if sys.platform.startswith("linux"):   # forked from the run: the shard records the command given
        shard_manifest = json.loads((out / "shards" / "1-of-2" / "manifest.json").read_text())
        assert shard_manifest["command"][1:] == args(server.base_url, data, out, "--workers", "2")


def test_with_another_thread_alive_the_workers_are_new_interpreters(server, single, tmp_path: Path) -> None:
    """Forking a process that runs threads is unsafe: the run starts each worker as a new
    interpreter instead, with the same rows and summary."""
    import threading

    data, one = single
    out = tmp_path / "threaded"
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert cli.main(args(server.base_url, data, out, "--workers", "2")) == 0
    finally:
        stop.set()
        thread.join()
    shard_manifest = json.loads((out / "shards" / "2-of-2" / "manifest.json").read_text())
    assert Path(shard_manifest["command"][0]).name == "shard_worker.py"
    assert {key: row["grade"] for key, row in rows_by_key(out).items()} == \
        {key: row["grade"] for key, row in rows_by_key(one).items()}
    summary = json.loads((out / "summary.json").read_text())
    assert without_timings(summary) == without_timings(json.loads((one / "summary.json").read_text()))


def test_a_killed_worker_is_resumed_and_nothing_is_lost_or_repeated(server, single, tmp_path: Path) -> None:
    data, one = single
    out = tmp_path / "split"
    shard = out / "shards" / "2-of-2"
    run = start(args(server.base_url, data, out, "--workers", "2"))
    wait_for(lambda: rows_in(shard / "results.jsonl") >= 3, run)
    os.kill(int((shard / ".lock").read_text()), signal.SIGKILL)        # the shard's own process
    _, err = run.communicate(timeout=WAIT_S)
    assert run.returncode == 128 + signal.SIGKILL
    assert "shard 2/2 stopped" in err and f"--resume --out {out}" in err
    assert not (out / "results.jsonl").exists()                        # nothing merged from a part

    done_before = rows_in(shard / "results.jsonl")
    resumed = subprocess.run([sys.executable, "-m", "factprobe.eval.cli.main", "run", "--resume", "--out", str(out)],
                             capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    # every row of either shard once (rows_by_key fails on a key written twice), and merged once
    assert len(rows_by_key(shard)) + len(rows_by_key(out / "shards" / "1-of-2")) == QUESTIONS * 2
    assert set(rows_by_key(out)) == set(rows_by_key(one)) and done_before >= 3
    summary = json.loads((out / "summary.json").read_text())
    assert without_timings(summary) == without_timings(json.loads((one / "summary.json").read_text()))

    again = subprocess.run([sys.executable, "-m", "factprobe.eval.cli.main", "run", "--resume", "--out", str(out),
                            "--workers", "3"], capture_output=True, text=True)
    assert again.returncode == 2 and "resume it with --workers 2" in again.stderr


def test_a_dead_server_exits_2_with_one_message(tmp_path: Path, capsys) -> None:
    data = write_questions(tmp_path / "q.jsonl")
    status = cli.main(args("http://127.0.0.1:9/v1", data, tmp_path / "dead", "--workers", "2",
                           "--request-timeout", "2"))
    err = capsys.readouterr().err
    assert status == 2 and err.count("could not be reached") == 1
    assert not (tmp_path / "dead").exists()       # nothing left behind: the same --out can be used again


def test_an_unknown_strategy_exits_2_with_its_message_and_leaves_nothing(server, tmp_path: Path, capsys) -> None:
    data = write_questions(tmp_path / "q.jsonl")
    arguments = args(server.base_url, data, tmp_path / "bad", "--workers", "2")
    arguments[arguments.index("vanilla,refusal")] = "vanilla,nosuch"
    assert cli.main(arguments) == 2
    err = capsys.readouterr().err
    assert err.count("unknown strategy 'nosuch'") == 1
    assert not (tmp_path / "bad").exists()       # the same --out can be used again


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux only")
def test_the_split_run_leaves_the_shards_libraries_to_their_starter(server, single, tmp_path: Path) -> None:
    """The workers are forked by a starter that imports what they run, while the run's own process
    imports only what the merge and the report need."""
    data, _ = single
    code = ("import sys\n"
            "from factprobe.eval.cli.main import main\n"
            f"status = main({args(server.base_url, data, tmp_path / 'split', '--workers', '2')!r})\n"
            "print(status, 'langgraph.graph' in sys.modules, 'openai' in sys.modules, 'matplotlib' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.split()[-4:] == ["0", "False", "False", "True"], done.stderr
    assert rows_in(tmp_path / "split" / "results.jsonl") == QUESTIONS * 2
