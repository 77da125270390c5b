"""The workers benchmark runs end to end on a small scale (its target is judged by `make bench`);
it drives the benchmarks' stand-in server on 127.0.0.1."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console

from benchmarks.bench_workers import measure_workers, workers_figures, workers_table

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
