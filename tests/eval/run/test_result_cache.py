"""The strategy-result cache: a re-run whose calls are all in the response cache reuses each
strategy's recorded output instead of running its graph, and writes the rows a graph run would
(same answers, grades, tokens and trace, `cached` flags included) apart from timings; anything that
can change a strategy's output misses. The model is an OpenAI-compatible server each test starts on
127.0.0.1 (tests.fakes.ChatServer)."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.run.runner as runner_module
from factprobe.agents.models.cache import CallLedger
from factprobe.eval.core.schema import CallRecord
from factprobe.eval.run.result_cache import StrategyResults, as_cached, source_digest
from tests.eval.run.test_shards import rows_by_key, without_timings
from tests.fakes import ChatServer

QUESTIONS = 6


def reply(body: dict) -> str:
    """Right, wrong or declining by the question's number and the call's seed."""
    text = body["messages"][-1]["content"]
    found = re.search(r"lighthouse (\d+)", text)
    number = int(found.group(1)) if found else len(text)
    kind = (number + int(body.get("seed") or 0)) % 3
    answer = (f"Cape{number}", f"Point{number + 1}", "I do not know")[kind]
    return f"Answer: {answer}\nConfidence: {(number * 13) % 90 + 5}"


def write_dataset(path: Path, changed: int | None = None) -> Path:
    rows = [{"id": f"l{i:02d}", "question": f"Which headland has lighthouse {i}?" + (" Name it." if i == changed else ""),
             "answer": f"Cape{i}", "category": ("east", "west")[i % 2]} for i in range(QUESTIONS)]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


class GraphRuns:
    """Counts the graph runs of the runner (stream_graph calls), wrapping the real one."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real = runner_module.stream_graph

        async def counted(graph: Any, inputs: dict, state: Any) -> Any:
            self.count += 1
            return await real(graph, inputs, state)

        monkeypatch.setattr(runner_module, "stream_graph", counted)

    def during(self, action: Any) -> int:
        before = self.count
        action()
        return self.count - before


@pytest.fixture
def setup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, GraphRuns]:
    monkeypatch.setenv("FACTPROBE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("OPENAI_API_KEY", "")
    return write_dataset(tmp_path / "lighthouses.jsonl"), GraphRuns(monkeypatch)


def run(url: str, dataset: Path, out: Path, *extra: str, strategies: str = "vanilla,best_of_n") -> None:
    status = cli.main(["run", "--dataset", f"jsonl:{dataset}", "--strategies", strategies, "--samples", "3",
                       "--model", f"openai:scripted@{url}", "--out", str(out), "--grader", "rules",
                       "--repeats", "2", "--concurrency", "4", *extra])
    assert status == 0


def forget_strategy_results(cache: Path) -> None:
    with sqlite3.connect(cache / "responses.sqlite") as db:
        db.execute("DELETE FROM strategy_results")


def text(rows: dict) -> str:
    return json.dumps(without_timings([rows[key] for key in sorted(rows)]))


def test_a_rerun_reuses_the_output_and_writes_the_rows_a_graph_run_writes(setup: tuple[Path, GraphRuns],
                                                                          tmp_path: Path) -> None:
    dataset, graphs = setup
    jobs = QUESTIONS * 2 * 2
    with ChatServer(reply) as server:
        assert graphs.during(lambda: run(server.url, dataset, tmp_path / "first")) == jobs
        asked = len(server.requests)
        forget_strategy_results(tmp_path / "cache")        # the next run runs every graph on cached calls
        assert graphs.during(lambda: run(server.url, dataset, tmp_path / "graph")) == jobs
        assert graphs.during(lambda: run(server.url, dataset, tmp_path / "reused")) == 0
        assert len(server.requests) == asked
    first, graph, reused = (rows_by_key(tmp_path / name) for name in ("first", "graph", "reused"))
    assert len(reused) == jobs
    assert {row["grade"] for row in reused.values()} >= {"CORRECT", "INCORRECT", "NOT_ATTEMPTED"}
    assert text(reused) == text(graph)                     # the cached flags as a re-run sets them
    assert all(step.get("cached", True) for row in reused.values() for step in row["trace"])
    assert not all(step.get("cached", True) for row in first.values() for step in row["trace"])
    summaries = [json.loads((tmp_path / name / "summary.json").read_text()) for name in ("first", "reused")]
    assert json.dumps(without_timings(summaries[1])) == json.dumps(without_timings(summaries[0]))
    manifest = json.loads((tmp_path / "reused" / "manifest.json").read_text())
    assert manifest["strategy_cache"]["table"] == "strategy_results"


def test_grading_options_do_not_miss_but_are_applied(setup: tuple[Path, GraphRuns], tmp_path: Path) -> None:
    dataset, graphs = setup
    with ChatServer(reply) as server:
        run(server.url, dataset, tmp_path / "first", strategies="vanilla")
        assert graphs.during(lambda: run(server.url, dataset, tmp_path / "other", "--hedging", "penalize",
                                         strategies="vanilla")) == 0
    manifest = json.loads((tmp_path / "other" / "manifest.json").read_text())
    assert "penalize" in json.dumps(manifest["config"])


@pytest.mark.parametrize("change", ["model", "strategy option", "prompt", "generation", "seed"])
def test_what_changes_the_output_misses(setup: tuple[Path, GraphRuns], tmp_path: Path, change: str) -> None:
    dataset, graphs = setup
    prompt = tmp_path / "prompt.txt"
    prompt.write_text("Say where this is.\n{question}", encoding="utf-8")
    base = ("--prompt-file", str(prompt)) if change == "prompt" else ()
    strategies = "best_of_n" if change == "strategy option" else "vanilla"
    with ChatServer(reply) as server, ChatServer(reply) as other:
        run(server.url, dataset, tmp_path / "first", *base, strategies=strategies)
        url, extra = server.url, list(base)
        if change == "model":
            url = other.url                                 # another server: another model identity
        elif change == "strategy option":
            extra += ["--samples", "2"]
        elif change == "prompt":
            prompt.write_text("Say which headland this is.\n{question}", encoding="utf-8")
        elif change == "generation":
            extra += ["--max-tokens", "40"]
        elif change == "seed":
            extra += ["--seed", "7"]
        assert graphs.during(lambda: run(url, dataset, tmp_path / "second", *extra, strategies=strategies)) == QUESTIONS * 2


def test_a_changed_question_misses_alone_and_no_cache_bypasses(setup: tuple[Path, GraphRuns], tmp_path: Path) -> None:
    dataset, graphs = setup
    with ChatServer(reply) as server:
        run(server.url, dataset, tmp_path / "first", strategies="vanilla")
        write_dataset(dataset, changed=2)
        assert graphs.during(lambda: run(server.url, dataset, tmp_path / "changed", strategies="vanilla")) == 2
        assert graphs.during(lambda: run(server.url, dataset, tmp_path / "uncached", "--no-cache",
                                         strategies="vanilla")) == QUESTIONS * 2


def test_a_failed_call_or_a_call_outside_the_cache_is_not_stored(tmp_path: Path) -> None:
    results = StrategyResults.__new__(StrategyResults)
    results.stored = 0
    state: Any = {"answer": "Cape1", "calls": [CallRecord(model="m")], "trace": []}
    assert not results.put("k", state, CallLedger(in_cache=1, not_stored=1))
    assert not results.put("k", state, CallLedger(in_cache=0))          # a call the response cache never saw
    assert not results.put("k", {**state, "extra": {"when": (1, 2)}}, CallLedger(in_cache=1))  # not JSON-exact
    assert results.stored == 0


def test_stored_output_reads_as_served_from_the_cache_and_the_source_is_in_the_key(tmp_path: Path) -> None:
    state = {"calls": [CallRecord(model="m", cached=False)],
             "trace": [{"step": "generate", "cached": False, "retrievals": [{"cached": False}]}]}
    flipped = as_cached(state)
    assert flipped["calls"][0].cached and flipped["trace"][0]["cached"] and flipped["trace"][0]["retrievals"][0]["cached"]
    plugin = tmp_path / "my_strategy.py"
    plugin.write_text("PROMPT = 'a'\n", encoding="utf-8")
    before = source_digest([plugin])
    plugin.write_text("PROMPT = 'b'\n", encoding="utf-8")
    assert source_digest([plugin]) != before


def test_a_response_gone_from_the_cache_runs_the_graph_again(setup: tuple[Path, GraphRuns], tmp_path: Path) -> None:
    dataset, graphs = setup
    with ChatServer(reply) as server:
        run(server.url, dataset, tmp_path / "first", strategies="vanilla")
        with sqlite3.connect(tmp_path / "cache" / "responses.sqlite") as db:
            [key] = db.execute("SELECT key FROM completions WHERE value LIKE '%Cape3%' LIMIT 1").fetchone()
            db.execute("DELETE FROM completions WHERE key = ?", (key,))
        asked = len(server.requests)
        assert graphs.during(lambda: run(server.url, dataset, tmp_path / "second", strategies="vanilla")) == 1
        assert len(server.requests) == asked + 1


def test_a_strategy_the_cache_answers_wholly_is_never_compiled(setup: tuple[Path, GraphRuns], tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    dataset, _ = setup
    compiled: list[str] = []
    real = runner_module.Runner.build_graphs

    def recording(self: Any, names: Any) -> None:
        names = list(names)
        compiled.extend(name for name in names if name not in self.graphs)
        real(self, names)

    monkeypatch.setattr(runner_module.Runner, "build_graphs", recording)
    with ChatServer(reply) as server:
        run(server.url, dataset, tmp_path / "first")
        assert sorted(compiled) == ["best_of_n", "vanilla"]
        compiled.clear()
        run(server.url, dataset, tmp_path / "cached")
        assert compiled == []
        write_dataset(dataset, changed=4)
        run(server.url, dataset, tmp_path / "changed")
        assert sorted(compiled) == ["best_of_n", "vanilla"]
