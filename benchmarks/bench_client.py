"""factprobe as a client of an OpenAI-compatible server, side by side with a raw AsyncOpenAI loop.

One session against the stand-in server (benchmarks.chat_server, 20 ms per answer): 2,000
generated questions, vanilla only, no hop probes, rule grader, `--concurrency 64`. Reports
factprobe's wall time over the raw loop's, CPU seconds per question of both, time from launch to
the first request, a warm-cache re-run against the cold run, and `--resume` of the finished run.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from rich.console import Console

from benchmarks.client_harness import ClientFigures, measure_clients
from benchmarks.figures import Figure, print_figures
from benchmarks.graph_floor import graph_seconds_per_question

QUESTIONS = 2000


def client_figures(measured: ClientFigures, graph_s: float) -> list[Figure]:
    """The figures of one session with their targets; `graph_s`: LangGraph's own seconds per question."""
    n = measured.questions
    first = measured.cold.first_request_s
    allowed = 0.2 * measured.raw.wall_s  # what a 1.2x wall-time target leaves for everything but the calls
    return [
        Figure("wall time, factprobe / raw AsyncOpenAI loop",
               f"{measured.wall_ratio:.2f}x ({measured.cold.wall_s:.1f} s vs {measured.raw.wall_s:.1f} s)",
               "<= 1.2x", measured.wall_ratio <= 1.2),
        Figure("CPU per question, factprobe vs raw loop",
               f"{1000 * measured.cold.cpu_s / n:.2f} ms vs {1000 * measured.raw.cpu_s / n:.2f} ms "
               f"({measured.cold.cpu_s / measured.raw.cpu_s:.2f}x)"),
        Figure("the vanilla graph's own time per question (instant model, in process)",
               f"{1000 * graph_s:.2f} ms; x {n} = {n * graph_s:.1f} s against the {allowed:.1f} s "
               f"a 1.2x target leaves"),
        Figure("time to the first request", "never" if first is None else
               f"{first:.2f} s (raw loop: {measured.raw.first_request_s or 0:.2f} s)",
               "<= 2 s", first is not None and first <= 2.0),
        Figure("warm-cache re-run speed-up over cold",
               f"{measured.warm_speedup:.1f}x ({measured.warm.wall_s:.1f} s; "
               f"{measured.warm.requests} requests)", ">= 10x", measured.warm_speedup >= 10),
        Figure("--resume of the finished run", f"{measured.resume.wall_s:.2f} s", "<= 2 s",
               measured.resume.wall_s <= 2.0),
    ]


def run(console: Console) -> None:
    with tempfile.TemporaryDirectory(prefix="factprobe-bench-") as folder:
        measured = measure_clients(Path(folder), QUESTIONS)
    graph_s = graph_seconds_per_question(QUESTIONS)
    print_figures(console, f"{QUESTIONS} questions at --concurrency 64, 20 ms server",
                  client_figures(measured, graph_s))
