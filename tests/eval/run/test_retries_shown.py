"""Retries are visible while a run slows: its progress line counts the retries made since it
started and names the last cause. The server is a fault-injecting OpenAI-compatible fake on
127.0.0.1 (tests/fakes.py) that fails twice with HTTP 500 before answering."""

from __future__ import annotations

from rich.progress import Progress

import factprobe.eval.cli.main as cli
from factprobe.eval.core.retry import AttemptTimeout, RetryTally
from factprobe.eval.core.schema import Question
from factprobe.eval.run.retries_column import RetriesColumn
from tests.fakes import SERVED_MODEL, FaultServer, write_questions


class Status(Exception):
    status_code = 503


def test_the_column_counts_retries_since_the_run_began() -> None:
    tally = RetryTally(count=7, last="HTTP 429")           # retries of an earlier run in this process
    column = RetriesColumn(tally)
    task = Progress().tasks                                  # render reads nothing of the task
    assert column.render(task).plain == ""
    tally.add(Status())
    assert column.render(task).plain == "retries: 1, last HTTP 503"
    tally.add(AttemptTimeout())
    assert column.render(task).plain == "retries: 2, last timeout"


def test_a_run_against_a_failing_server_shows_its_retries(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    data = write_questions(tmp_path / "q.jsonl", [Question(id="q", question="Capital of France?", answer="Paris")])
    with FaultServer(["500", "500", "ok"]) as server:
        status = cli.main(["run", "--dataset", f"jsonl:{data}", "--strategies", "vanilla", "--no-cache",
                           "--model", f"openai:{SERVED_MODEL}@{server.url}", "--out", str(tmp_path / "run"),
                           "--max-retries", "3", "--request-timeout", "5"])
    assert status == 0
    progress = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("answering"))
    assert "retries: 2, last HTTP 500" in progress
