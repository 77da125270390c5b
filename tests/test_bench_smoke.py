"""The benchmark harness runs end to end on a small scale (timing targets live in benchmarks/)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.bench_client import client_figures, target_figures
from benchmarks.bench_report import measure_report, report_figures
from benchmarks.client_harness import measure_clients
from benchmarks.graph_floor import graph_seconds_per_question

pytestmark = pytest.mark.bench   # `make check` leaves the benchmarks' smoke tests to `make test`


def test_the_client_harness_measures_every_figure(tmp_path: Path) -> None:
    measured = measure_clients(tmp_path, questions=50)
    assert measured.raw.requests == 50
    assert measured.cold.requests == 50
    assert measured.warm.requests == 0          # every call answered from the cache
    assert measured.resume.requests == 0
    assert measured.warm_one.requests == 0      # its one question was asked by the cold run
    assert measured.warm_one.cpu_s > 0 and measured.warm.cpu_s > 0   # which is larger at 50 rows is noise
    assert measured.cached_ms_per_question == 1000 * (measured.warm.cpu_s - measured.warm_one.cpu_s) / 49
    assert measured.first_request_lag_s == measured.cold.first_request_s - measured.raw.first_request_s
    assert 0 < measured.raw.cpu_to_first_request_s < measured.raw.cpu_s        # sampled from /proc
    assert 0 < measured.cold.cpu_to_first_request_s < measured.cold.cpu_s
    assert measured.cold.first_request_s is not None and 0 < measured.cold.first_request_s < measured.cold.wall_s
    assert measured.wall_ratio > 0 and measured.warm_speedup > 0
    assert measured.cold.cpu_s > 0 and measured.raw.cpu_s > 0
    graph_s = graph_seconds_per_question(20)
    assert 0 < graph_s < 1
    names = [figure.name for figure in client_figures(measured, graph_s)]
    assert any("raw AsyncOpenAI" in name for name in names) and any("--resume" in name for name in names)
    assert any("graph's own time" in name for name in names)
    targets = {figure.name: figure for figure in target_figures(measured)}
    assert [name.split(",")[0] for name in targets] == ["CPU per question", "time to the first request",
                                                         "fully cached re-run"]
    assert all(figure.target and figure.passed in (True, False) for figure in targets.values())


def test_the_report_harness_times_a_synthetic_run(tmp_path: Path) -> None:
    costs = [measure_report(tmp_path, rows) for rows in (200, 600)]
    assert all(cost.wall_s > 0 and cost.peak_mb > 0 for cost in costs)
    assert (tmp_path / "run-200" / "summary.json").is_file()
    figures = report_figures(costs)
    assert any("growth" in figure.name for figure in figures)


def test_an_isolated_peak_is_the_commands_own_not_its_parents() -> None:
    """Linux starts a child's ru_maxrss from its parent's; the launcher keeps a 200 MB parent out."""
    import sys

    import numpy as np

    from benchmarks.isolated import run_isolated

    parent = np.ones(200_000_000, dtype=np.uint8)  # touched, so resident in this process
    cost = run_isolated([sys.executable, "-c", "block = bytearray(50_000_000)"])
    assert 50 <= cost.peak_mb < 150 and parent.sum() == 200_000_000


def test_the_speedups_harness_measures_a_report_with_the_tricks_on_and_off(tmp_path: Path) -> None:
    from benchmarks.bench_speedups import measure, rows

    found = measure(tmp_path, rounds=1, run_questions=1, worker_questions=1, report_rows=200,
                    variants={"report": ("", "1")})
    assert [len(found["report"][v].cpu_s) for v in ("", "1")] == [1, 1]
    table = rows(found)
    assert [row[:2] for row in table] == [("report", "all on"), ("report", "all off")]
    assert table[0][3] == table[0][4] == "1.000" and float(table[1][2]) > 0
