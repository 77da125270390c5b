"""Where a whole `factprobe run` spends its time: start-up, answering, writing, the report.

2,000 generated questions, vanilla, rule grader, no hop probes, `--no-cache`, `--concurrency 64`,
against the Python stand-in answering after 20 ms, as one process, ROUNDS times. The phases are
cut at moments seen from outside the process: its launch; the first request the server saw;
the last row reaching results.jsonl (its modification time); the process's exit. Each phase's CPU
is read from the process's CPU time sampled every 5 ms (/proc), so it is robust to other load on
the machine where wall time is not. Writing is inside answering (rows are appended as they
finish); its own share is the CPU profile's business, not this benchmark's.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table

from benchmarks.chat_server import ChatServer
from benchmarks.client_harness import CpuSampler, factprobe_command, write_dataset

QUESTIONS = 2000
ROUNDS = 3
PHASES = ("start-up (launch to first request)", "answering (first request to last row written)",
          "report (last row to exit)")


@dataclass
class PhaseSplit:
    """One run's moments, in seconds from its launch: wall times and the process's CPU by then."""

    wall: tuple[float, float, float]   # first request, last row, exit
    cpu: tuple[float, float, float]

    def walls(self) -> list[float]:
        return [self.wall[0], self.wall[1] - self.wall[0], self.wall[2] - self.wall[1]]

    def cpus(self) -> list[float]:
        return [self.cpu[0], self.cpu[1] - self.cpu[0], self.cpu[2] - self.cpu[1]]


def measure_once(server: ChatServer, dataset: Path, out: Path, env: dict[str, str]) -> PhaseSplit:
    """One `factprobe run` cut into its phases; raises when it fails."""
    server.reset()
    command = [*factprobe_command(server, dataset, out), "--no-cache"]
    log = out.with_name(f"{out.name}.log")
    with log.open("w", encoding="utf-8") as errors:
        started = time.time()
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=errors)
        sampler = CpuSampler(process.pid)
        _, status, usage = os.wait4(process.pid, 0)
        ended = time.time()
        sampler.stop()
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"factprobe exited {status}: {log.read_text(encoding='utf-8')[-1500:]}")
    first = server.stats()["first_at"]
    last_row = (out / "results.jsonl").stat().st_mtime
    total_cpu = usage.ru_utime + usage.ru_stime
    cpu_first, cpu_last = sampler.cpu_at(first), sampler.cpu_at(last_row)
    if first is None or cpu_first is None or cpu_last is None:
        raise RuntimeError("the run made no request, or its CPU could not be sampled")
    return PhaseSplit((first - started, last_row - started, ended - started), (cpu_first, cpu_last, total_cpu))


def measure_phases(folder: Path, questions: int = QUESTIONS, rounds: int = ROUNDS,
                   delay_s: float = 0.02) -> list[PhaseSplit]:
    dataset = write_dataset(folder, questions)
    env = {**os.environ, "FACTPROBE_CACHE": str(folder / "cache"), "COLUMNS": "160"}
    with ChatServer(delay_s) as server:
        return [measure_once(server, dataset, folder / f"run-{number}", env) for number in range(rounds)]


def phases_table(splits: list[PhaseSplit], questions: int) -> Table:
    table = Table(title=f"factprobe run, {questions:,} questions at --concurrency 64, 20 ms server: "
                        f"medians of {len(splits)} runs")
    for column in ("phase", "wall s", "share of wall", "CPU s", "CPU ms per question"):
        table.add_column(column, justify="left" if column == "phase" else "right")
    walls = [statistics.median(split.walls()[index] for split in splits) for index in range(3)]
    cpus = [statistics.median(split.cpus()[index] for split in splits) for index in range(3)]
    for name, wall, cpu in zip(PHASES, walls, cpus):
        table.add_row(name, f"{wall:.2f}", f"{100 * wall / sum(walls):.0f}%", f"{cpu:.2f}",
                      f"{1000 * cpu / questions:.2f}")
    table.add_row("whole process", f"{sum(walls):.2f}", "100%", f"{sum(cpus):.2f}",
                  f"{1000 * sum(cpus) / questions:.2f}")
    return table


def run(console: Console) -> None:
    with tempfile.TemporaryDirectory(prefix="factprobe-bench-") as folder:
        splits = measure_phases(Path(folder))
    console.print(phases_table(splits, QUESTIONS))
    console.print(f"{os.cpu_count()} cores; {sys.executable}")
