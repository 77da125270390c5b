"""The speed tricks change no result: `factprobe run --workers 2` (forked workers, merged and reported
by the command: every trick is on that path) and `factprobe report` write the same rows and
summary with FACTPROBE_NO_SPEEDUPS=1 as without it, apart from timings. Each command runs in its own process, as the installed command does (the
tricks are the command's own); the model is an OpenAI-compatible server the test starts on
127.0.0.1 (tests.fakes.ChatServer)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from tests.eval.run.test_shards import rows_by_key, without_timings
from tests.fakes import ChatServer

ROOT = Path(__file__).resolve().parents[3]
QUESTIONS = 8


def reply(body: dict) -> str:
    """Right, wrong or declining by the question's number, with varied confidence."""
    found = re.search(r"harbour (\d+)", body["messages"][-1]["content"])
    number = int(found.group(1)) if found else 0
    answer = (f"Quay{number}", f"Pier{number}", "I am not sure")[number % 3]
    return f"Answer: {answer}\nConfidence: {(number * 17) % 90 + 5}"


def factprobe(arguments: list[str], switch: str | None, cache: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "FACTPROBE_CACHE": str(cache), "OPENAI_API_KEY": ""}
    env.pop("FACTPROBE_NO_SPEEDUPS", None)
    if switch is not None:
        env["FACTPROBE_NO_SPEEDUPS"] = switch
    done = subprocess.run([sys.executable, "-m", "factprobe.eval.cli.main", *arguments], env=env,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]


def written(out: Path) -> tuple[str, str]:
    rows = rows_by_key(out)
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    return (json.dumps(without_timings([rows[key] for key in sorted(rows)])),
            json.dumps(without_timings(summary), sort_keys=True))


def test_a_run_and_its_report_write_the_same_with_the_speedups_off(tmp_path: Path) -> None:
    data = tmp_path / "harbours.jsonl"
    data.write_text("".join(json.dumps({"id": f"h{i}", "question": f"Which town has harbour {i}?",
                                        "answer": f"Quay{i}", "category": ("north", "south")[i % 2]}) + "\n"
                            for i in range(QUESTIONS)), encoding="utf-8")
    results = {}
    with ChatServer(reply) as server:
        for switch in (None, "1"):
            out = tmp_path / f"run-{switch}"
            factprobe(["run", "--dataset", f"jsonl:{data}", "--strategies", "vanilla,refusal", "--grader", "rules",
                       "--model", f"openai:scripted@{server.url}", "--out", str(out), "--workers", "2"],
                      switch, tmp_path / f"cache-{switch}")
            results[switch] = written(out)
    on, off = results[None], results["1"]
    assert len(json.loads(on[0])) == QUESTIONS * 2
    assert {row["grade"] for row in json.loads(on[0])} >= {"CORRECT", "INCORRECT", "NOT_ATTEMPTED"}
    assert off == on
    (tmp_path / "run-1" / "summary.json").unlink()
    factprobe(["report", str(tmp_path / "run-1")], "1", tmp_path / "cache-1")
    assert written(tmp_path / "run-1") == on      # the report alone, speedups off, recomputes the same
