"""Side-by-side client measurements against the stand-in server: factprobe vs a raw AsyncOpenAI loop.

Each client runs as its own process; wall time is from launch to exit, CPU is that process's
user + system time (`os.wait4`), and time to first request is from launch to the first request
the server saw (with the CPU the process had spent by then, sampled from /proc).
`measure_clients` does a whole session: raw loop, factprobe cold (empty cache), warm (same cache,
new run directory), warm over the first question alone (what a fully cached run costs whatever
its size: start-up, loading, the report's fixed part) and `--resume` of the finished cold run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.chat_server import ChatServer
from benchmarks.raw_client import MODEL

CONCURRENCY = 64


@dataclass
class ProcessCost:
    """What one client process cost, and when it first reached the server (None: never)."""

    wall_s: float
    cpu_s: float
    first_request_s: float | None
    requests: int
    status: int
    cpu_to_first_request_s: float | None = None   # the process's CPU seconds by then (Linux /proc)
    server_cpu_s: float | None = None   # the stand-in server's CPU seconds while it ran (Linux /proc)
    idle_cores: float | None = None     # the machine's idle cores over the run, on average (Linux /proc/stat)


def idle_seconds() -> float | None:
    """The machine's idle CPU seconds since boot, every core summed (Linux /proc/stat; None elsewhere)."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()
    except OSError:
        return None
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    return (int(fields[4]) + int(fields[5])) / ticks   # idle and iowait


class CpuSampler:
    """Samples a process's CPU time (user + system, from /proc/PID/stat) every few milliseconds in
    a thread, so the CPU it had spent by a given wall-clock moment can be read afterwards: unlike
    wall time, that does not grow when other processes share the cores."""

    INTERVAL_S = 0.005

    def __init__(self, pid: int) -> None:
        self.path = Path(f"/proc/{pid}/stat")
        self.samples: list[tuple[float, float]] = []
        self.ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._stop.is_set():
            try:
                fields = self.path.read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                return
            # utime and stime are the 14th and 15th fields; 12th and 13th after the command name
            self.samples.append((time.time(), (int(fields[11]) + int(fields[12])) / self.ticks))
            self._stop.wait(self.INTERVAL_S)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def cpu_at(self, moment: float) -> float | None:
        """CPU seconds at the last sample taken at or before `moment`; None without one."""
        before = [cpu for at, cpu in self.samples if at <= moment]
        return before[-1] if before else None


@dataclass
class ClientFigures:
    questions: int
    raw: ProcessCost
    cold: ProcessCost
    warm: ProcessCost
    warm_one: ProcessCost
    resume: ProcessCost

    @property
    def wall_ratio(self) -> float:
        return self.cold.wall_s / self.raw.wall_s

    @property
    def warm_speedup(self) -> float:
        return self.cold.wall_s / self.warm.wall_s

    @property
    def cpu_ratio(self) -> float:
        """factprobe's CPU per question over the raw loop's (process CPU, so other load on the
        machine does not count)."""
        return self.cold.cpu_s / self.raw.cpu_s

    @property
    def first_request_lag_s(self) -> float | None:
        """How much later than the raw loop factprobe sent its first request; None if either never did."""
        if self.cold.first_request_s is None or self.raw.first_request_s is None:
            return None
        return self.cold.first_request_s - self.raw.first_request_s

    @property
    def first_request_cpu_lag_s(self) -> float | None:
        """The same lag in the CPU each process had spent by its first request (robust to load)."""
        if self.cold.cpu_to_first_request_s is None or self.raw.cpu_to_first_request_s is None:
            return None
        return self.cold.cpu_to_first_request_s - self.raw.cpu_to_first_request_s

    @property
    def cached_ms_per_question(self) -> float:
        """CPU milliseconds a fully cached re-run spends per question beyond a fully cached run of
        one question (process start, loading and the report's fixed part)."""
        return 1000 * (self.warm.cpu_s - self.warm_one.cpu_s) / max(1, self.questions - 1)


def write_dataset(folder: Path, count: int) -> Path:
    """A native-schema JSONL dataset of `count` distinct single-hop questions."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "questions.jsonl"
    with path.open("w", encoding="utf-8") as handle:
        for number in range(count):
            record = {"id": f"q{number:06d}", "question": f"Which city is landmark number {number} in?",
                      "answer": "Paris", "category": ("geography", "history", "art")[number % 3]}
            handle.write(json.dumps(record) + "\n")
    return path


def write_conversations(dataset: Path, folder: Path) -> Path:
    """The vanilla strategy's messages for every question, for the raw loop to send."""
    from factprobe.agents.strategies.vanilla import vanilla_messages

    questions = [json.loads(line)["question"] for line in dataset.read_text(encoding="utf-8").splitlines()]
    path = folder / "conversations.json"
    path.write_text(json.dumps([vanilla_messages(question) for question in questions]), encoding="utf-8")
    return path


def run_process(command: list[str], server: ChatServer, env: dict[str, str], log: Path) -> ProcessCost:
    """Run `command` to its end; its own wall time, CPU time and time to the server's first request."""
    server.reset()
    server_before, idle_before = server.cpu_s(), idle_seconds()
    with log.open("w", encoding="utf-8") as errors:
        started = time.time()
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=errors)
        sampler = CpuSampler(process.pid)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.time() - started
        sampler.stop()
    server_after, idle_after = server.cpu_s(), idle_seconds()
    process.returncode = os.waitstatus_to_exitcode(status)
    stats = server.stats()
    first = None if stats["first_at"] is None else stats["first_at"] - started
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {process.returncode}: {log.read_text()[-2000:]}")
    first_cpu = None if stats["first_at"] is None else sampler.cpu_at(stats["first_at"])
    served = None if server_before is None or server_after is None else server_after - server_before
    idle = None if idle_before is None or idle_after is None else (idle_after - idle_before) / wall
    return ProcessCost(wall, usage.ru_utime + usage.ru_stime, first, stats["requests"], process.returncode, first_cpu,
                       served, idle)


def factprobe_command(server: ChatServer, dataset: Path, out: Path, resume: bool = False) -> list[str]:
    command = [sys.executable, "-m", "factprobe.eval.cli.main", "run", "--out", str(out)]
    if resume:
        return command + ["--resume"]
    return command + ["--dataset", f"jsonl:{dataset}", "--strategies", "vanilla", "--limit", "0",
                      "--model", f"openai:{MODEL}@{server.base_url}", "--no-hop-probes",
                      "--grader", "rules", "--concurrency", str(CONCURRENCY)]


def measure_clients(folder: Path, questions: int, delay_s: float = 0.02) -> ClientFigures:
    """One session of every client measurement over `questions` generated questions."""
    dataset = write_dataset(folder, questions)
    conversations = write_conversations(dataset, folder)
    first_only = write_dataset(folder / "one", 1)   # the first question of `dataset`: cached by the cold run
    env = {**os.environ, "FACTPROBE_CACHE": str(folder / "cache"), "COLUMNS": "160"}
    with ChatServer(delay_s) as server:
        raw = run_process([sys.executable, "-m", "benchmarks.raw_client", server.base_url, str(conversations),
                           str(CONCURRENCY)], server, env, folder / "raw.log")
        cold_out = folder / "cold"
        cold = run_process(factprobe_command(server, dataset, cold_out), server, env, folder / "cold.log")
        warm = run_process(factprobe_command(server, dataset, folder / "warm"), server, env, folder / "warm.log")
        warm_one = run_process(factprobe_command(server, first_only, folder / "warm-one"), server, env,
                               folder / "warm-one.log")
        resume = run_process(factprobe_command(server, dataset, cold_out, resume=True), server, env,
                             folder / "resume.log")
    return ClientFigures(questions, raw, cold, warm, warm_one, resume)
