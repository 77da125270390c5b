"""What each speed trick of factprobe.eval.core.speedups is worth, side by side in one session.

Four workloads, each run with every trick on, with one trick off (FACTPROBE_NO_SPEEDUPS=<name>)
and with all off (=1), interleaved round by round (the order rotated each round) so every variant
sees the same machine load: `factprobe run` of RUN_QUESTIONS vanilla questions on the stand-in
server (benchmarks.chat_server), the same with `--workers 2`, and `factprobe report` over a
synthetic run of REPORT_ROWS rows, and the imports a vanilla run makes before its first request
(what the start-up tricks are for, without the run's noise). The figure is process CPU (user +
system, the workers' included), which other load on the shared machine inflates less than wall
time; for a run also the CPU spent by its first request. Each is the median over the rounds; a
trick's worth is the ratio of the median with it off over the median of the workload's first
variant (every trick on; above 1: the trick saves time), and the median of the same ratio taken
round by round ("paired").
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from benchmarks.chat_server import ChatServer
from benchmarks.client_harness import factprobe_command, run_process, write_dataset
from benchmarks.synthetic_run import write_run

RUN_QUESTIONS = 300
WORKER_QUESTIONS = 600
REPORT_ROWS = 30_000
IN_PROCESS_ROWS = 100_000
ROUNDS = 5
# workload -> the variants it measures: "" is every trick on, "1" every trick off
VARIANTS = {
    "start-up imports": ("", "deferred_inits", "start_up_collector", "1"),
    "run": ("", "deferred_inits", "start_up_collector", "exit_freeze", "read_pause", "report_freeze", "1"),
    # the workers freeze what they inherit when they end the start-up: fork_freeze counts without that
    "run --workers 2": ("", "fork_freeze", "start_up_collector", "start_up_collector,fork_freeze", "1"),
    "report": ("", "read_pause", "report_freeze", "exit_freeze", "1"),
}


@dataclass
class Measured:
    cpu_s: list[float] = field(default_factory=list)
    wall_s: list[float] = field(default_factory=list)
    first_cpu_s: list[float] = field(default_factory=list)


def switch_env(folder: Path, variant: str) -> dict[str, str]:
    env = {**os.environ, "FACTPROBE_CACHE": str(folder / "cache"), "COLUMNS": "160", "OPENAI_API_KEY": ""}
    env.pop("FACTPROBE_NO_SPEEDUPS", None)
    if variant:
        env["FACTPROBE_NO_SPEEDUPS"] = variant
    return env


REPORT = [sys.executable, "-m", "factprobe.eval.cli.main", "report"]
# what a vanilla run imports before its first request, with the start-up tricks as the command applies them
START_UP = [sys.executable, "-c", "from factprobe.eval.core import speedups\n"
            "speedups.pause_collection()\nspeedups.defer_inits()\n"
            "import factprobe.eval.cli.main, factprobe.eval.run.pipeline, factprobe.agents.strategies.vanilla\n"
            "import factprobe.agents.models.openai_backend, langgraph.graph\nspeedups.end_start_up()\n"]


def process_cost(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of `command` in its own process."""
    started = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        errors = process.stderr.read().decode()[-2000:] if process.stderr else ""
        raise RuntimeError(f"{command[-1][:40]} exited {os.waitstatus_to_exitcode(status)}: {errors}")
    return time.perf_counter() - started, usage.ru_utime + usage.ru_stime


def measure_once(workload: str, variant: str, folder: Path, server: ChatServer | None, inputs: dict[str, Path],
                 into: Measured, round_: int) -> None:
    work = folder / f"{workload.replace(' ', '_')}-{variant or 'on'}-{round_}"
    env = switch_env(work, variant)
    if workload in ("report", "start-up imports"):
        wall, cpu = process_cost(REPORT + [str(inputs["report"])] if workload == "report" else START_UP, env)
        into.wall_s.append(wall)
        into.cpu_s.append(cpu)
        return
    assert server is not None
    dataset = inputs["workers" if "workers" in workload else "run"]
    command = factprobe_command(server, dataset, work / "out")
    if "workers" in workload:
        command += ["--workers", "2"]
    cost = run_process(command, server, env, folder / "last.log")   # an empty cache: every call is asked
    into.wall_s.append(cost.wall_s)
    into.cpu_s.append(cost.cpu_s)
    if cost.cpu_to_first_request_s is not None:
        into.first_cpu_s.append(cost.cpu_to_first_request_s)


def measure(folder: Path, rounds: int = ROUNDS, run_questions: int = RUN_QUESTIONS,
            worker_questions: int = WORKER_QUESTIONS, report_rows: int = REPORT_ROWS,
            variants: dict[str, tuple[str, ...]] = VARIANTS) -> dict[str, dict[str, Measured]]:
    """workload -> variant -> its measurements, over `rounds` interleaved rounds."""
    inputs = {"run": write_dataset(folder / "run-data", run_questions),
              "workers": write_dataset(folder / "workers-data", worker_questions),
              "report": write_run(folder / "report-data", report_rows)}
    process_cost(REPORT + [str(inputs["report"])], switch_env(folder / "warm", ""))   # first plots fill caches
    found = {workload: {variant: Measured() for variant in names} for workload, names in variants.items()}
    jobs = [(workload, variant) for workload, names in variants.items() for variant in names]
    with ChatServer(0.02) if set(variants) - {"report"} else nullcontext() as server:
        for round_ in range(rounds):
            shift = round_ % len(jobs)
            for workload, variant in jobs[shift:] + jobs[:shift]:
                measure_once(workload, variant, folder, server, inputs, found[workload][variant], round_)
    return found


def in_process(folder: Path, rows: int = IN_PROCESS_ROWS, rounds: int = ROUNDS) -> dict[str, list[float]]:
    """CPU seconds, in this process and alternating round by round, of reading a synthetic run's
    `rows` rows with and without read_pause, and of its summary over them with and without
    report_freeze: the two collector tricks on the work they cover, without a process's other costs."""
    from factprobe.eval.analysis.summary import build_summary
    from factprobe.eval.core.speedups import SWITCH, report_rows_frozen
    from factprobe.eval.store.run_dir import RunDir

    run_dir = RunDir(write_run(folder, rows))
    manifest = run_dir.read_manifest()
    found: dict[str, list[float]] = {name: [] for name in ("read", "read, pause off", "summary", "summary, freeze off")}
    saved = os.environ.pop(SWITCH, None)
    try:
        for _ in range(rounds):
            for name, switch in (("read", ""), ("read, pause off", "read_pause")):
                os.environ[SWITCH] = switch
                started = time.process_time()
                read: list[Any] = run_dir.latest_slim()   # its collector pause is read_pause
                found[name].append(time.process_time() - started)
            for name, switch in (("summary", ""), ("summary, freeze off", "report_freeze")):
                os.environ[SWITCH] = switch
                started = time.process_time()
                with report_rows_frozen():
                    build_summary(read, manifest, run_dir.path)
                found[name].append(time.process_time() - started)
    finally:
        os.environ.pop(SWITCH, None)
        if saved is not None:
            os.environ[SWITCH] = saved
    return found


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def rows(found: dict[str, dict[str, Measured]]) -> list[tuple[str, ...]]:
    """One table row per workload and variant: medians, and the ratios to the workload's first variant."""
    table: list[tuple[str, ...]] = []
    for workload, variants in found.items():
        base = next(iter(variants.values()))
        for variant, measured in variants.items():
            name = {"": "all on", "1": "all off"}.get(variant, f"{variant} off")
            paired = median([cpu / on for cpu, on in zip(measured.cpu_s, base.cpu_s)])
            first = median(measured.first_cpu_s)
            table.append((workload, name, f"{median(measured.cpu_s):.2f}",
                          f"{median(measured.cpu_s) / median(base.cpu_s):.3f}", f"{paired:.3f}",
                          f"{first:.2f}" if measured.first_cpu_s else "",
                          f"{first / median(base.first_cpu_s):.3f}" if measured.first_cpu_s else "",
                          f"{median(measured.wall_s):.2f}"))
    return table


def run(console: Console) -> None:
    with tempfile.TemporaryDirectory(prefix="factprobe-bench-") as folder:
        found = measure(Path(folder))
        alone = in_process(Path(folder) / "in-process")
    table = Table(title=f"speed tricks: medians of {ROUNDS} interleaved rounds; ratio = variant / first variant")
    for column in ("workload", "variant", "CPU s", "ratio", "paired", "CPU to 1st request s", "ratio", "wall s"):
        table.add_column(column)
    for row in rows(found):
        table.add_row(*row)
    console.print(table)
    for work, trick in (("read", "read, pause off"), ("summary", "summary, freeze off")):
        on, off = median(alone[work]), median(alone[trick])
        console.print(f"{IN_PROCESS_ROWS:,} rows in one process, {work}: {on:.2f} s of CPU, {trick} "
                      f"{off:.2f} s ({off / on:.2f}x)")
