"""`factprobe sweep --executor ray`: every cell of a sweep as one Ray task.

The Ray test starts a local Ray cluster (skipped without the `ray` extra: `pip install
'factprobe[ray]'`) and answers from the benchmarks' stand-in OpenAI-compatible server, started by
the test on 127.0.0.1. The other tests need no Ray: a missing extra, and cells whose task could not
finish, are checked with the Ray calls replaced.
"""

from __future__ import annotations

import csv
import importlib.util
import json
import re
import textwrap
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
from benchmarks.chat_server import SERVED_MODEL, ChatServer
from factprobe.eval.run.shard_worker import ShardOutcome

QUESTIONS = 12
TIMING_COLUMNS = {"latency_s_mean", "latency_ratio"}
needs_ray = pytest.mark.skipif(importlib.util.find_spec("ray") is None,
                               reason="--executor ray needs the ray extra: pip install 'factprobe[ray]'")


def write_grid(folder: Path, url: str, datasets: list[str]) -> Path:
    rows = [{"id": f"c{i}", "question": f"Which city hosts fair number {i}?", "answer": "Paris" if i % 3 else "Lyon"}
            for i in range(QUESTIONS)]
    (folder / "q.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    grid = folder / f"grid-{len(datasets)}.toml"
    grid.write_text(textwrap.dedent(f'''
        [sweep]
        dataset = {json.dumps(datasets)}
        model = "openai:{SERVED_MODEL}@{url}"
        strategies = [["vanilla"], ["vanilla", "best_of_n"]]
        samples = [1, 2]
        use_cache = false
        max_retries = 1
    '''), encoding="utf-8")
    return grid


def csv_rows(folder: Path) -> list[dict[str, str]]:
    """sweep.csv's rows without timings, run directories relative to the sweep's folder."""
    with (folder / "sweep.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    return [{**{k: v for k, v in row.items() if k not in TIMING_COLUMNS},
             "run_dir": str(Path(row["run_dir"]).relative_to(folder))} for row in rows]


def html_tables(folder: Path) -> tuple[list[list[str]], list[str], int]:
    """sweep.html's table (cells' text, the time× column left out), its links and its figure count."""
    page = (folder / "sweep.html").read_text(encoding="utf-8")
    rows = [re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S) for row in re.findall(r"<tr.*?</tr>", page, re.S)]
    timing = rows[0].index("time×")
    return ([row[:timing] + row[timing + 1:] for row in rows], re.findall(r'<a href="([^"#]+)">', page),
            page.count("<svg"))


@pytest.mark.needs_ray
@needs_ray
def test_sweep_cells_as_ray_tasks_write_the_in_process_sweep_and_resume(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch,
                                                                        capsys: pytest.CaptureFixture) -> None:
    import ray

    monkeypatch.setenv("OPENAI_API_KEY", "")
    # one local cluster for the three sweeps (a connected session is used as it is; the path where a
    # run starts its own cluster is tested by test_ray_executor.py)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        with ChatServer(delay_s=0.01) as server:
            grid = write_grid(tmp_path, server.base_url, [f"jsonl:{tmp_path / 'q.jsonl'}"])
            here, there = tmp_path / "here", tmp_path / "there"
            assert cli.main(["sweep", str(grid), "--out", str(here)]) == 0
            calls = server.stats()["requests"]
            assert cli.main(["sweep", str(grid), "--out", str(there), "--executor", "ray"]) == 0
            assert server.stats()["requests"] == 2 * calls
            assert csv_rows(there) == csv_rows(here) and len(csv_rows(here)) == 6
            assert html_tables(there) == html_tables(here)
            assert sorted(p.name for p in there.glob("*.log")) == sorted({row["run_dir"] + ".log"
                                                                         for row in csv_rows(there)})
            assert cli.main(["sweep", str(grid), "--out", str(there), "--executor", "ray"]) == 0
            assert server.stats()["requests"] == 2 * calls          # every cell resumed, nothing asked again
            capsys.readouterr()
            bad = write_grid(tmp_path, server.base_url, [f"jsonl:{tmp_path / 'q.jsonl'}",
                                                          f"jsonl:{tmp_path / 'missing.jsonl'}"])
            status = cli.main(["sweep", str(bad), "--out", str(tmp_path / "bad"), "--executor", "ray"])
            assert ray.is_initialized()
    finally:
        ray.shutdown()
    err = capsys.readouterr().err
    assert status == 2 and "missing.jsonl" in err and "cell 004-dataset=" in err, err
    assert not (tmp_path / "bad" / "sweep.csv").exists()
    done = sorted((tmp_path / "bad").glob("*/results.jsonl"))     # the good cells' rows are kept
    assert len(done) == 3 and all(len(p.read_text().splitlines()) >= QUESTIONS for p in done)


def test_sweep_on_ray_without_ray_names_the_extra_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "ray" else real(name, *a))
    grid = write_grid(tmp_path, "http://127.0.0.1:9/v1", ["jsonl:q.jsonl"])
    assert cli.main(["sweep", str(grid), "--out", str(tmp_path / "s"), "--executor", "ray"]) == 2
    assert "pip install 'factprobe[ray]'" in capsys.readouterr().err
    assert not (tmp_path / "s").exists()
    assert cli.main(["sweep", str(grid), "--executor", "dask"]) == 2
    assert "--executor" in capsys.readouterr().err


def test_a_cell_whose_ray_task_never_finished_stops_the_sweep_with_its_status(
        tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ray's calls replaced: the second cell's task failed more often than Ray retries it."""
    import factprobe.eval.run.ray_executor as ray_executor
    from factprobe.eval.run.cell_worker import run_cell

    def fake_run_tasks(task, configs, address, watch, done=None):
        outcomes = []
        for number, config in enumerate(configs):
            outcome = task(config, None) if number != 1 else ShardOutcome(1, "its Ray task failed (worker died)")
            done(number, outcome)
            outcomes.append(outcome)
        return outcomes

    monkeypatch.setattr(ray_executor, "require_ray", lambda what="": None)
    monkeypatch.setattr("factprobe.eval.run.sweep_ray.run_tasks", fake_run_tasks)
    monkeypatch.setenv("OPENAI_API_KEY", "")
    assert run_cell.__module__ == "factprobe.eval.run.cell_worker"
    with ChatServer(delay_s=0.0) as server:
        grid = write_grid(tmp_path, server.base_url, [f"jsonl:{tmp_path / 'q.jsonl'}"])
        status = cli.main(["sweep", str(grid), "--out", str(tmp_path / "s"), "--executor", "ray"])
    err = capsys.readouterr().err
    assert status == 1, err
    assert "002-strategies=vanilla+best_of_n-samples=1 stopped with status 1: its Ray task failed" in err
    assert "Run the sweep again" in err and not (tmp_path / "s" / "sweep.csv").exists()
    assert (tmp_path / "s" / "003-strategies=vanilla+best_of_n-samples=2" / "summary.json").is_file()


def test_cells_split_into_ray_tasks_of_their_own_are_refused_before_any_run(
        tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    import factprobe.eval.run.ray_executor as ray_executor

    monkeypatch.setattr(ray_executor, "require_ray", lambda what="": None)
    grid = write_grid(tmp_path, "http://127.0.0.1:9/v1", ["jsonl:q.jsonl"])
    grid.write_text(grid.read_text(encoding="utf-8") + 'executor = "ray"\nworkers = 2\n', encoding="utf-8")
    assert cli.main(["sweep", str(grid), "--out", str(tmp_path / "s"), "--executor", "ray"]) == 2
    err = capsys.readouterr().err
    assert "cell 000-strategies=vanilla-samples=1" in err and "without --executor ray" in err, err
    assert not (tmp_path / "s").exists()
