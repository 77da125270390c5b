"""factprobe beside its peers, whole processes against the same stand-in server, side by side.

The same generated questions go through: a raw AsyncOpenAI script (benchmarks/peers/raw_script.py:
a semaphore of 64, one request per question, the answers written to one JSONL at the end),
`factprobe run --strategies vanilla --no-cache` (rule grader, no hop probes, `--concurrency 64`,
its report included), and Inspect AI (`generate()` then `includes()`, `--max-connections 64`) when
it is installed: on PATH as `inspect`, or named by FACTPROBE_BENCH_INSPECT (its `inspect`
executable, e.g. in a venv of its own). Each server kind is measured in its own session: the
Python stand-in answering after 20 ms (benchmarks/chat_server.py) and, when nginx is installed,
nginx answering a canned reply at once (benchmarks/nginx_server.py). Within a session the peers
take turns in every round (raw, factprobe, Inspect, raw, ...), so all see the same machine load;
each ratio is the median over rounds of that round's wall time over the raw script's.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from rich.console import Console
from rich.table import Table

from benchmarks.chat_server import ChatServer
from benchmarks.client_harness import CONCURRENCY, factprobe_command, write_dataset
from benchmarks.nginx_server import NginxServer, nginx_binary

QUESTIONS = 2000
ROUNDS = 3
DELAY_S = 0.02
INSPECT_ENV = "FACTPROBE_BENCH_INSPECT"
PEERS_DIR = Path(__file__).parent / "peers"


@dataclass
class Peer:
    """One client: its name and the command that answers `dataset` against `base_url` into `out`."""

    name: str
    command: Callable[[str, Path, Path], list[str]]
    env: dict[str, str] = field(default_factory=dict)
    cwd: Path | None = None


@dataclass
class PeerRun:
    wall_s: float
    cpu_s: float
    requests: int


def inspect_binary() -> str | None:
    """Inspect AI's `inspect` command: FACTPROBE_BENCH_INSPECT, else on PATH; None when absent."""
    named = os.environ.get(INSPECT_ENV)
    if named:
        return named if Path(named).is_file() else None
    return shutil.which("inspect")


def conversations_file(dataset: Path) -> Path:
    """[id, vanilla messages] for every question: what the raw script sends (built before timing)."""
    from factprobe.agents.strategies.vanilla import vanilla_messages

    records = [json.loads(line) for line in dataset.read_text(encoding="utf-8").splitlines()]
    path = dataset.with_name("conversations.json")
    path.write_text(json.dumps([[r["id"], vanilla_messages(r["question"])] for r in records]), encoding="utf-8")
    return path


def default_peers(dataset: Path) -> tuple[list[Peer], list[str]]:
    """The raw script, factprobe and (when installed) Inspect AI; and why any peer is left out."""
    conversations = conversations_file(dataset)
    peers = [
        Peer("raw AsyncOpenAI script", lambda url, data, out: [
            sys.executable, "-m", "benchmarks.peers.raw_script", url, str(conversations), str(CONCURRENCY),
            str(out / "answers.jsonl")]),
        Peer("factprobe run --no-cache", lambda url, data, out: [
            *factprobe_command(_Url(url), data, out), "--no-cache"]),
    ]
    skipped = []
    inspect = inspect_binary()
    if inspect is None:
        skipped.append(f"Inspect AI: not installed (put `inspect` on PATH, or set {INSPECT_ENV} to it)")
    else:
        # Inspect reads a task path relative to its working folder; the stand-ins serve chat completions only
        peers.append(Peer("Inspect AI", lambda url, data, out: [
            inspect, "eval", "inspect_task.py", "--model", "openai/bench", "-M", "responses_api=false",
            "--max-connections", str(CONCURRENCY), "-T", f"dataset={data}", "--log-dir", str(out),
            "--display", "none"], cwd=PEERS_DIR))
    return peers, skipped


class _Url:
    """What factprobe_command reads of a server: its base URL."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url


def served(server: Any) -> int:
    """Chat completions the server answered since its last reset."""
    return server.requests() if isinstance(server, NginxServer) else int(server.stats()["requests"])


def run_peer(peer: Peer, server: Any, dataset: Path, out: Path) -> PeerRun:
    """One whole process of `peer`, launch to exit; raises when it fails or misses a question."""
    server.reset()
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "FACTPROBE_CACHE": str(out / "cache"), "COLUMNS": "160",
           "OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "not-needed", **peer.env}
    with (out / "stderr.log").open("w", encoding="utf-8") as errors:
        started = time.perf_counter()
        process = subprocess.Popen(peer.command(server.base_url, dataset, out), env=env, cwd=peer.cwd,
                                   stdout=subprocess.DEVNULL, stderr=errors)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise RuntimeError(f"{peer.name} exited {code}: {(out / 'stderr.log').read_text()[-1500:]}")
    return PeerRun(wall, usage.ru_utime + usage.ru_stime, served(server))


def measure_session(folder: Path, server: Any, peers: list[Peer], dataset: Path, questions: int,
                    rounds: int) -> dict[str, list[PeerRun]]:
    """`rounds` rounds, each running every peer once in turn; the runs of each peer."""
    runs: dict[str, list[PeerRun]] = {peer.name: [] for peer in peers}
    for number in range(rounds):
        for index, peer in enumerate(peers):
            run = run_peer(peer, server, dataset, folder / f"p{index}-r{number}")
            if run.requests != questions:
                raise RuntimeError(f"{peer.name} made {run.requests} requests for {questions} questions")
            runs[peer.name].append(run)
    return runs


def server_kinds(delay_s: float = DELAY_S) -> tuple[list[tuple[str, Callable[[], Any]]], list[str]]:
    kinds: list[tuple[str, Callable[[], Any]]] = [
        (f"Python stand-in answering after {1000 * delay_s:.0f} ms", lambda: ChatServer(delay_s))]
    if nginx_binary() is None:
        return kinds, ["nginx: not installed (Debian: apt-get install nginx-light)"]
    return kinds + [("nginx answering a canned reply at once", NginxServer)], []


def measure_peers(folder: Path, questions: int = QUESTIONS, rounds: int = ROUNDS, peers: list[Peer] | None = None,
                  delay_s: float = DELAY_S, kinds: list[tuple[str, Callable[[], Any]]] | None = None,
                  ) -> tuple[dict[str, dict[str, list[PeerRun]]], list[str]]:
    """Every server kind's session (`kinds`: name and a server factory; by default the Python
    stand-in and nginx when installed): {server: {peer: runs}}, and what was left out and why."""
    dataset = write_dataset(folder, questions)
    skipped: list[str] = []
    if peers is None:
        peers, skipped = default_peers(dataset)
    missing: list[str] = []
    if kinds is None:
        kinds, missing = server_kinds(delay_s)
    sessions = {}
    for number, (name, start) in enumerate(kinds):
        with start() as server:
            sessions[name] = measure_session(folder / f"s{number}", server, peers, dataset, questions, rounds)
    return sessions, skipped + missing


def ratios(runs: dict[str, list[PeerRun]]) -> dict[str, list[float]]:
    """Each peer's wall time over the first peer's (the raw script), round by round."""
    base = next(iter(runs.values()))
    return {name: [run.wall_s / raw.wall_s for run, raw in zip(done, base)] for name, done in runs.items()}


def peers_table(title: str, runs: dict[str, list[PeerRun]]) -> Table:
    table = Table(title=title)
    for column in ("client", "wall s (each round)", "median wall s", "÷ raw (median)", "÷ raw (range)",
                   "median CPU s"):
        table.add_column(column, justify="left" if column == "client" else "right")
    for name, ratio in ratios(runs).items():
        done = runs[name]
        table.add_row(name, " / ".join(f"{run.wall_s:.2f}" for run in done),
                      f"{statistics.median(run.wall_s for run in done):.2f}", f"{statistics.median(ratio):.2f}x",
                      f"{min(ratio):.2f}–{max(ratio):.2f}x", f"{statistics.median(run.cpu_s for run in done):.2f}")
    return table


def print_sessions(console: Console, sessions: dict[str, dict[str, list[PeerRun]]], skipped: list[str],
                   questions: int) -> None:
    for server, runs in sessions.items():
        rounds = len(next(iter(runs.values())))
        console.print(peers_table(f"{questions:,} questions at concurrency {CONCURRENCY}, {server}, "
                                  f"{rounds} interleaved rounds, {os.cpu_count()} cores", runs))
    for reason in skipped:
        console.print(f"left out: {reason}")


def run(console: Console) -> None:
    with tempfile.TemporaryDirectory(prefix="factprobe-bench-") as folder:
        sessions, skipped = measure_peers(Path(folder))
    print_sessions(console, sessions, skipped, QUESTIONS)
