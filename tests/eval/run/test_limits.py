"""Absurd sizes are refused before any work, in well under a second, naming the limit and how to
raise it; the jobs of a legal run are generated one at a time, so memory does not grow with them."""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path
from types import SimpleNamespace

from factprobe.eval.cli.main import main
from factprobe.eval.core.schema import Question
from factprobe.eval.run.runner import Runner


def test_huge_repeats_are_refused_at_once(tmp_path: Path, capsys) -> None:
    started = time.perf_counter()
    code = main(["run", "--repeats", "100000000", "--strategies", "vanilla", "--out", str(tmp_path / "run")])
    elapsed = time.perf_counter() - started
    err = capsys.readouterr().err
    assert code == 2 and elapsed < 1.0, (elapsed, err)
    assert "1,200,000,000 jobs" in err and "above --max-jobs 1,000,000" in err and "raise --max-jobs" in err
    assert not (tmp_path / "run").exists()


def test_a_grid_of_millions_of_cells_is_refused_at_once(tmp_path: Path, capsys) -> None:
    grid = tmp_path / "grid.toml"
    grid.write_text("[sweep]\nstrategies = [['vanilla']]\n"
                    f"seed = {list(range(2000))}\nlimit = {list(range(1, 2001))}\n")
    started = time.perf_counter()
    code = main(["sweep", str(grid), "--out", str(tmp_path / "sweep")])
    elapsed = time.perf_counter() - started
    err = capsys.readouterr().err
    assert code == 2 and elapsed < 1.0, (elapsed, err)
    assert "4,000,000 cells (2000 seed × 2000 limit), above the limit of 1,000" in err
    assert "max_cells = 4000000" in err and "Traceback" not in err
    assert not (tmp_path / "sweep").exists()


def test_a_bad_cell_limit_is_named(tmp_path: Path, capsys) -> None:
    grid = tmp_path / "grid.toml"
    grid.write_text("[sweep]\nmax_cells = 0\nseed = [1, 2]\n")
    assert main(["sweep", str(grid), "--out", str(tmp_path / "sweep")]) == 2
    assert "max_cells = 0: expected a whole number of at least 1" in capsys.readouterr().err


def test_jobs_are_generated_lazily() -> None:
    questions = [Question(id=f"q{n}", question=f"Question {n}?", answer="a") for n in range(100)]
    fake = SimpleNamespace(config=SimpleNamespace(repeats=2000, strategies=["vanilla", "rag"]))
    done = {("q0", "vanilla", 0)}
    tracemalloc.start()
    try:
        count = sum(1 for _ in Runner.jobs(fake, questions, done))      # type: ignore[arg-type]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == 100 * 2 * 2000 - 1
    assert peak < 200_000            # a list of 400,000 jobs would take tens of megabytes
