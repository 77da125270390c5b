"""The scaling benchmark's parts on a small scale (the workers runs are bench_workers.py's, tested
in test_bench_workers.py): the readers agree on the values they hand the summary, a concurrency
point is measured against the benchmarks' stand-in OpenAI-compatible server on 127.0.0.1, and the
tables, plot and figures file come out of measured values."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Console

from benchmarks.bench_report import ReportCost
from benchmarks.bench_scaling import Throughput, installed, measure_concurrency, measure_readers, print_and_save
from benchmarks.synthetic_run import write_run

pytestmark = pytest.mark.bench   # `make check` leaves the benchmarks' smoke tests to `make test`


def test_every_installed_reader_reads_the_values_factprobe_reads(tmp_path: Path) -> None:
    readers = measure_readers(write_run(tmp_path, 600))
    ours = readers[0]
    assert ours.reader == "factprobe" and ours.rows == 600 and ours.digest and ours.peak_mb
    for reader in readers[1:]:
        assert (reader.digest == ours.digest and reader.rows == 600) if installed(reader.reader) \
            else reader.read_s is None


def test_a_concurrency_point_answers_every_question(tmp_path: Path) -> None:
    points = measure_concurrency(tmp_path, questions=30, levels=(4,), rounds=1)
    assert [p.setting for p in points] == [4] and points[0].per_s > 0 and points[0].cpu_s > 0


def test_the_tables_plot_and_figures_file_show_the_measured_values(tmp_path: Path) -> None:
    readers = measure_readers(write_run(tmp_path, 200), readers=("factprobe",))
    measured = {"questions": 100, "cores": 2,
                "workers": [Throughput(1, 4.0, 3.0, 100), Throughput(2, 2.5, 3.4, 100)],
                "concurrency": [Throughput(8, 5.0, 3.0, 100), Throughput(64, 2.0, 3.1, 100)],
                "reports": [ReportCost(100, 1.0, 100.0), ReportCost(200, 3.0, 150.0)], "readers": readers}
    console = Console(record=True, width=200)
    plot = print_and_save(measured, console, tmp_path / "out")
    text = console.export_text()
    assert "1.60x" in text and "2.50x" in text          # throughput over the first setting: 4.0/2.5, 5.0/2.0
    assert "1.50" in text and "0.75" in text            # report wall and RSS over linear growth from 100 rows
    assert plot.stat().st_size > 10_000 and plot.read_bytes()[:4] == b"\x89PNG"
    saved = json.loads((tmp_path / "out" / "scaling.json").read_text())
    assert saved["workers"][1] == {"setting": 2, "wall_s": 2.5, "cpu_s": 3.4, "questions": 100}
