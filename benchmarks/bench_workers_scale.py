"""`--workers` where scale matters: 20,000 questions against nginx answering a canned reply.

nginx (benchmarks/nginx_server.py) spends about a second of CPU on the whole run, so the cores
are the clients'. `--workers 1` and `--workers 2` alternate, ROUNDS times each, each run on an
empty cache (vanilla, rule grader, no hop probes, `--concurrency 64` per worker); the table shows
the machine's idle cores over each setting's runs beside the wall time. Then one run of the same
with `--executor ray --workers 2` on a local Ray cluster (when Ray is installed), whose rows are
compared with the last `--workers 1` run's: every (question, strategy, repeat) with the same
answer and grade. Left out, with the reason, when nginx is not installed.
"""

from __future__ import annotations

import importlib.util
import json
import os
import tempfile
from pathlib import Path

from rich.console import Console

from benchmarks.bench_workers import WorkersCost, measure_workers, workers_figures, workers_table
from benchmarks.client_harness import ProcessCost, factprobe_command, run_process
from benchmarks.figures import Figure, print_figures
from benchmarks.nginx_server import NginxServer, nginx_binary

QUESTIONS = 20_000
ROUNDS = 3
SERVER = "nginx, canned reply at once"


def row_outcomes(run_dir: Path) -> dict[tuple[str, str, int], tuple[str | None, str]]:
    """(question, strategy, repeat) → (answer, grade) of the latest row of each key."""
    outcomes = {}
    with (run_dir / "results.jsonl").open(encoding="utf-8") as rows:
        for line in rows:
            row = json.loads(line)
            outcomes[(row["question_id"], row["strategy"], row["repeat"])] = (row["answer"], row["grade"])
    return outcomes


def measure_ray(folder: Path, questions: int, workers: int = 2) -> ProcessCost:
    """One `--executor ray --workers N` run over the dataset in `folder`, against nginx."""
    env = {**os.environ, "FACTPROBE_CACHE": str(folder / "cache-ray"), "COLUMNS": "160"}
    with NginxServer() as server:
        command = [*factprobe_command(server, folder / "questions.jsonl", folder / "ray"), "--executor", "ray",
                   "--workers", str(workers)]
        run = run_process(command, server, env, folder / "ray.log")
    if run.requests != questions:
        raise RuntimeError(f"the Ray run made {run.requests} requests for {questions} questions")
    return run


def same_rows(first: Path, second: Path) -> bool:
    return row_outcomes(first) == row_outcomes(second)


def measure_scale(folder: Path, questions: int = QUESTIONS, rounds: int = ROUNDS,
                  ray: bool = True) -> tuple[list[WorkersCost], ProcessCost | None, bool | None]:
    """The workers' runs; the Ray run (None without Ray or when not asked); whether its rows equal
    the last --workers 1 run's (None without a Ray run)."""
    costs = measure_workers(folder, questions, (1, 2), rounds, serve=NginxServer)
    if not ray or importlib.util.find_spec("ray") is None:
        return costs, None, None
    run = measure_ray(folder, questions)
    return costs, run, same_rows(folder / f"w1-r{rounds - 1}", folder / "ray")


def ray_figures(costs: list[WorkersCost], run: ProcessCost | None, same: bool | None) -> list[Figure]:
    if run is None:
        return [Figure("--executor ray --workers 2", "not run (pip install 'factprobe[ray]')")]
    alone = next(cost for cost in costs if cost.workers == 1)
    return [Figure("--executor ray --workers 2, wall / --workers 1",
                   f"{run.wall_s / alone.wall_s:.2f}x ({run.wall_s:.1f} s, Ray's start-up included)"),
            Figure("--executor ray: the same rows as --workers 1", "yes" if same else "NO", "same", bool(same))]


def run(console: Console) -> None:
    if nginx_binary() is None:
        console.print("left out: nginx is not installed (Debian: apt-get install nginx-light)")
        return
    with tempfile.TemporaryDirectory(prefix="factprobe-bench-") as folder:
        costs, ray_run, same = measure_scale(Path(folder))
    console.print(workers_table(costs, QUESTIONS, SERVER))
    print_figures(console, f"{QUESTIONS:,} questions at --concurrency 64 per worker, {SERVER}",
                  workers_figures(costs) + ray_figures(costs, ray_run, same))
