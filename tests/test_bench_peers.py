"""The peers benchmark runs end to end on a handful of questions (its figures are judged by
`python -m benchmarks peers`); the servers it drives listen on 127.0.0.1 only: the benchmarks'
stand-in, and nginx when it is installed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Console

from benchmarks.bench_peers import PeerRun, default_peers, measure_peers, peers_table, ratios
from benchmarks.chat_server import ChatServer
from benchmarks.client_harness import write_dataset
from benchmarks.nginx_server import NginxServer, nginx_binary


def test_the_raw_script_and_factprobe_answer_every_question(tmp_path: Path) -> None:
    dataset = write_dataset(tmp_path / "data", 12)
    peers = default_peers(dataset)[0][:2]   # Inspect AI, when installed, is an optional peer
    sessions, skipped = measure_peers(tmp_path, questions=12, rounds=1, peers=peers,
                                      kinds=[("stand-in", lambda: ChatServer(0.0))])
    runs = sessions["stand-in"]
    assert list(runs) == ["raw AsyncOpenAI script", "factprobe run --no-cache"] and skipped == []
    assert all(run.requests == 12 and run.wall_s > 0 and run.cpu_s > 0 for done in runs.values() for run in done)
    answers = [json.loads(line) for line in (tmp_path / "s0" / "p0-r0" / "answers.jsonl").read_text().splitlines()]
    assert [answer["id"] for answer in answers] == [f"q{n:06d}" for n in range(12)]
    assert all(answer["answer"] for answer in answers)
    assert len((tmp_path / "s0" / "p1-r0" / "results.jsonl").read_text().splitlines()) == 12


def test_the_table_divides_each_round_by_the_raw_scripts() -> None:
    runs = {"raw": [PeerRun(2.0, 1.0, 5), PeerRun(4.0, 1.0, 5)], "other": [PeerRun(3.0, 1.0, 5), PeerRun(10.0, 1.0, 5)]}
    assert ratios(runs) == {"raw": [1.0, 1.0], "other": [1.5, 2.5]}
    console = Console(record=True, width=200)
    console.print(peers_table("t", runs))
    text = console.export_text()
    assert "2.00x" in text and "1.50–2.50x" in text and "3.00 / 10.00" in text


@pytest.mark.skipif(nginx_binary() is None, reason="nginx is not installed (apt-get install nginx-light)")
def test_nginx_answers_a_chat_completion_and_counts_it() -> None:
    from openai import OpenAI

    with NginxServer() as server:
        client = OpenAI(api_key="not-needed", base_url=server.base_url)
        reply = client.chat.completions.create(model="bench", messages=[{"role": "user", "content": "hi"}])
        assert reply.choices[0].message.content.startswith("Answer:")
        assert server.requests() == 1
        server.reset()
        assert server.requests() == 0


def test_the_phase_split_cuts_a_run_at_its_first_request_and_its_last_row(tmp_path: Path) -> None:
    from benchmarks.bench_phases import measure_phases, phases_table

    splits = measure_phases(tmp_path, questions=20, rounds=1, delay_s=0.0)
    first, last_row, end = splits[0].wall
    assert 0 < first <= last_row <= end
    assert all(part >= 0 for part in splits[0].cpus()) and splits[0].cpu[2] > 0
    console = Console(record=True, width=200)
    console.print(phases_table(splits, 20))
    text = console.export_text()
    assert "start-up" in text and "whole process" in text
