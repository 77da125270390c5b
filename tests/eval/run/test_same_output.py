"""Speed never changes what a run writes: a run answered from the response cache at a higher
concurrency writes the same rows and summary, byte for byte apart from timings and the `cached`
flags, as the run that asked the server one question at a time. The model is an OpenAI-compatible
server the test starts on 127.0.0.1 (tests.fakes.ChatServer)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import factprobe.eval.cli.main as cli
from tests.eval.run.test_shards import rows_by_key, without_timings
from tests.fakes import ChatServer

QUESTIONS = 8


def reply(body: dict) -> str:
    """Right, wrong or declining by the question's number and the call's seed, with varied confidence."""
    text = body["messages"][-1]["content"]
    found = re.search(r"harbour (\d+)", text)
    number = int(found.group(1)) if found else len(text)
    kind = (number + int(body.get("seed") or 0)) % 3
    answer = (f"Quay{number}", f"Pier{number + 2}", "I am not sure")[kind]
    return f"Answer: {answer}\nConfidence: {(number * 17) % 90 + 5}"


def without_cache_flags(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: without_cache_flags(item) for key, item in value.items() if key != "cached"}
    if isinstance(value, list):
        return [without_cache_flags(item) for item in value]
    return value


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    path = tmp_path / "harbours.jsonl"
    rows = [{"id": f"h{i:02d}", "question": f"Which town has harbour {i}?", "answer": f"Quay{i}",
             "category": ("north", "south")[i % 2]} for i in range(QUESTIONS)]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def test_a_cached_concurrent_run_writes_what_a_serial_one_did(dataset: Path, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FACTPROBE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("OPENAI_API_KEY", "")
    with ChatServer(reply) as server:
        def run(out: Path, concurrency: int) -> None:
            status = cli.main(["run", "--dataset", f"jsonl:{dataset}", "--strategies", "vanilla,best_of_n",
                               "--samples", "3", "--model", f"openai:scripted@{server.url}", "--out", str(out),
                               "--grader", "rules", "--concurrency", str(concurrency), "--repeats", "2"])
            assert status == 0

        run(tmp_path / "serial", 1)
        asked = len(server.chats())
        run(tmp_path / "cached", 16)
        assert len(server.chats()) == asked            # every call of the second run came from the cache
    serial, cached = rows_by_key(tmp_path / "serial"), rows_by_key(tmp_path / "cached")
    assert len(serial) == QUESTIONS * 2 * 2
    assert {row["grade"] for row in serial.values()} >= {"CORRECT", "INCORRECT", "NOT_ATTEMPTED"}

    def text(rows: dict) -> str:
        return json.dumps(without_cache_flags(without_timings([rows[key] for key in sorted(rows)])))

    assert text(cached) == text(serial)
    summaries = [json.loads((tmp_path / name / "summary.json").read_text()) for name in ("serial", "cached")]
    assert json.dumps(without_timings(summaries[1])) == json.dumps(without_timings(summaries[0]))
