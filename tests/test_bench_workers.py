"""The workers benchmarks run end to end on a small scale (their targets are judged by `make bench`);
they drive the benchmarks' stand-in server, or nginx, on 127.0.0.1."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console

from benchmarks.bench_workers import measure_workers, workers_figures, workers_table
from benchmarks.bench_workers_scale import measure_scale, row_outcomes, same_rows
from benchmarks.nginx_server import nginx_binary

pytestmark = pytest.mark.bench   # `make check` leaves the benchmarks' smoke tests to `make test`


def test_the_workers_benchmark_measures_both_settings(tmp_path: Path) -> None:
    costs = measure_workers(tmp_path, questions=30, rounds=1)
    assert [cost.workers for cost in costs] == [1, 2]
    assert all(run.requests == 30 and run.wall_s > 0 and run.cpu_s > 0 for cost in costs for run in cost.runs)
    assert (tmp_path / "w2-r0" / "shards" / "2-of-2" / "results.jsonl").is_file()
    console = Console(record=True, width=160)
    console.print(workers_table(costs, 30))
    assert "throughput / 1 worker" in console.export_text()
    assert workers_figures(costs)[0].name.startswith("wall time, --workers 2")


@pytest.mark.skipif(nginx_binary() is None, reason="nginx is not installed (apt-get install nginx-light)")
def test_the_scale_benchmark_runs_both_settings_against_nginx(tmp_path: Path) -> None:
    """nginx on 127.0.0.1, started by the benchmark; Ray is left out here (its start takes long)."""
    costs, ray_run, same = measure_scale(tmp_path, questions=24, rounds=1, ray=False)
    assert [cost.workers for cost in costs] == [1, 2] and ray_run is None and same is None
    assert all(run.requests == 24 and run.idle_cores is not None and run.idle_cores >= 0
               for cost in costs for run in cost.runs)
    assert same_rows(tmp_path / "w1-r0", tmp_path / "w2-r0")      # two shards give one process's rows
    assert len(row_outcomes(tmp_path / "w2-r0")) == 24
    console = Console(record=True, width=200)
    console.print(workers_table(costs, 24, "nginx"))
    text = console.export_text()
    assert "idle cores" in text and "nginx" in text
