"""The shards of a split run as local worker processes (`--workers N`, `--executor local`).

On Linux the workers are forked (multiprocessing's fork context) from one process of their own,
the starter, once it has imported what a shard runs: the strategies' graphs and the model's client
library. A worker then starts answering at once instead of paying a new interpreter and those
imports again (about 1.5 s of CPU each, measured on the stand-in server). The starter is forked
from this process as soon as the run is checked; while it imports, this process imports what the
merge and the report need (numpy, matplotlib, the summary sections; `meanwhile`), on the other
core, which is otherwise idle before the workers start. Measured on 2 cores with the stand-in
server: those 0.5 s of CPU no longer share the cores with the answering workers, and the workers
start no later than when this process forked them itself. This process never imports the shards'
libraries, nor the starter the report's.

Nothing is loaded before the fork: each worker opens its model (an embedded llama.cpp model and
its threads), cache and files itself, after it. The starter is forked before this process starts
any thread (the progress bar's comes after), the workers before the starter starts any, and
the inherited objects are frozen out of the workers' collections; the `factprobe` command's
collector, paused while it starts, stays paused through these imports and comes back on after
them, in this process and in each worker (both tricks of factprobe.eval.core.speedups). The
starter waits for its workers (a Ctrl-C reaches them all: the workers save their rows, the
starter, ignoring it once they run, keeps waiting for them) and passes their exit statuses
on; a bad input found while it imports (an unknown strategy) is raised here, as before any
worker started.

Where forking is not safe (not Linux, or this process already runs threads: a notebook, a server
calling `factprobe.run`, a native library's thread pool), each worker is a new interpreter, `python -m
factprobe.eval.run.shard_worker CONFIG_JSON`, as before. Either way a worker's output goes to the
log beside its shard directory, and its exit status reads as a shell's (128 + N: killed by signal N).

A forked worker (and the starter) inherits the run directory's lock (one open file, `flock`): OUT
stays locked while any of its workers still writes, even if this process is gone; and each ends
when the process that forked it does (the kernel's parent-death signal).
"""

from __future__ import annotations

import importlib
import json
import multiprocessing
import multiprocessing.connection
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any, Callable, Protocol

from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.core.speedups import end_start_up, freeze_before_fork
from factprobe.eval.run.shard_worker import end_with_parent, run_shard, shard_log

POLL_S = 0.2
# Libraries a shard imports on its way to its first answer, imported before the fork (measured:
# langgraph and the openai SDK with its aiohttp transport are 0.9 s of a worker's 1.3 s of imports).
# Every strategy is a LangGraph graph; each remote backend's SDK by the spec's kind. `local` is left
# out on purpose: llama.cpp (and its thread pool) must only ever be loaded in the worker that uses it.
GRAPH_MODULES = ("langgraph.graph",)
BACKEND_MODULES = {"openai": ("factprobe.agents.models.openai_backend", "openai", "openai.types.chat", "aiohttp"),
                   "anthropic": ("factprobe.agents.models.anthropic_backend", "anthropic")}


class Worker(Protocol):
    """A shard's worker as this process sees it."""

    def status(self) -> int | None: ...
    def sentinel(self) -> int | None: ...
    def join(self) -> int: ...


@dataclass
class LocalWorker:
    """One shard's process: forked from this one, or a new interpreter."""

    config: dict[str, Any]
    process: BaseProcess | subprocess.Popen[bytes]

    def status(self) -> int | None:
        """The exit status as a shell reports it (128 + N when killed by signal N); None while it runs."""
        if isinstance(self.process, BaseProcess):
            code = self.process.exitcode
        else:
            code = self.process.poll()
        return None if code is None else (code if code >= 0 else 128 - code)

    def sentinel(self) -> int | None:
        """A descriptor that becomes readable when a forked worker ends (None for an interpreter)."""
        return self.process.sentinel if isinstance(self.process, BaseProcess) else None

    def join(self) -> int:
        """Wait for the worker to end; its exit status (see `status`)."""
        if isinstance(self.process, BaseProcess):
            self.process.join()
        else:
            self.process.wait()
        status = self.status()
        assert status is not None, "a joined process has an exit status"
        return status


def can_fork() -> bool:
    """Whether workers may be forked from this process: Linux, and no thread besides this one,
    counted by the kernel (a native library's threads too, such as a BLAS pool, which a Python
    thread count would miss)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


def preload(config: RunConfig) -> None:
    """Import what every shard of `config` runs (its strategies and their graph library, the post
    steps, the model's and the judge's SDK), so the workers forked next inherit it. An unknown
    strategy raises here, once, as the shards would (a ValueError: bad input); a missing SDK is
    left for the shard to report, as it would without the fork."""
    from factprobe.agents.registry import get_strategy
    from factprobe.eval.run.steps import active_post_steps

    for name in config.strategies:
        get_strategy(name)
    active_post_steps(config)
    kinds = {(spec or "").partition(":")[0] for spec in (config.model, config.judge)}
    for module in (*GRAPH_MODULES, *(name for kind in sorted(kinds) for name in BACKEND_MODULES.get(kind, ()))):
        try:
            importlib.import_module(module)
        except ImportError:
            pass


def _forked_worker(config: dict[str, Any], parent: int) -> None:
    """A forked worker's body: its output to the shard's log, then the shard; exits with its status."""
    end_with_parent(parent)
    end_start_up()
    log = os.open(shard_log(Path(config["out"])), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)
    sys.exit(run_shard(config).status)


class Starter:
    """The starter process and what it reports: ("started", None) once every worker runs, or
    ("raised", exception) when the imports found bad input; then ("ended", statuses)."""

    def __init__(self, process: BaseProcess, messages: multiprocessing.connection.Connection, count: int) -> None:
        self.process = process
        self.messages = messages
        self.count = count
        self.statuses: list[int] | None = None

    def next_message(self) -> tuple[str, Any] | None:
        """The starter's next message, waiting for it; None when the starter ended without one."""
        multiprocessing.connection.wait([self.messages, self.process.sentinel])
        if self.messages.poll():
            try:
                kind, value = self.messages.recv()
                return kind, value
            except EOFError:
                return None
        return None

    def status(self, index: int) -> int | None:
        if self.process.exitcode is None:
            return None
        if self.statuses is None:
            message = self.next_message()
            if message is not None and message[0] == "ended":
                self.statuses = list(message[1])
            else:   # the starter was killed: its workers ended with it (their parent-death signal)
                code = self.process.exitcode
                self.statuses = [code if code >= 0 else 128 - code] * self.count
        return self.statuses[index]


@dataclass
class StartedWorker:
    """One shard's worker, forked by the starter: seen through it (its exit status comes from it)."""

    starter: Starter
    index: int

    def status(self) -> int | None:
        return self.starter.status(self.index)

    def sentinel(self) -> int | None:
        return self.starter.process.sentinel

    def join(self) -> int:
        self.starter.process.join()
        status = self.status()
        assert status is not None, "a joined process has an exit status"
        return status


def _send(messages: multiprocessing.connection.Connection, kind: str, value: Any) -> None:
    """Pass a message to the process that runs the split; an exception that would not arrive whole
    (it does not pickle, or not back) goes as a ConfigError with its message."""
    if kind == "raised":
        import pickle

        try:
            pickle.loads(pickle.dumps(value))
        except Exception:
            from factprobe.eval.run.configs import ConfigError

            value = ConfigError(str(value) or type(value).__name__)
    messages.send((kind, value))


def _start(configs: list[dict[str, Any]], config: RunConfig, parent: int,
           messages: multiprocessing.connection.Connection) -> None:
    """The starter's body: import what the shards run, fork their workers, wait for them and pass
    their exit statuses on (see the module's docstring)."""
    end_with_parent(parent)
    try:
        preload(config)   # the command's collector, paused while it starts, stays off until the fork
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as exc:    # bad input, raised again in the process that runs the split
        _send(messages, "raised", exc)
        return
    context = multiprocessing.get_context("fork")
    freeze_before_fork()
    workers = [LocalWorker(shard, context.Process(target=_forked_worker, args=(shard, os.getpid()),
                                                  name=f"factprobe shard {shard['shard']}"))
               for shard in configs]
    for worker in workers:
        assert isinstance(worker.process, BaseProcess)
        worker.process.start()
    # a Ctrl-C reaches the workers too (they save their rows and end): this waits for them whatever
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _send(messages, "started", None)
    _send(messages, "ended", [worker.join() for worker in workers])


def start_workers(configs: list[dict[str, Any]], config: RunConfig,
                  meanwhile: Callable[[], None] | None = None) -> list[Worker]:
    """Start one worker per shard config, all at once (see the module's docstring for how), calling
    `meanwhile` once while they start; ends this command's start-up."""
    for shard in configs:
        shard_log(Path(shard["out"])).parent.mkdir(parents=True, exist_ok=True)
    if not can_fork():
        end_start_up()
        interpreters: list[Worker] = [LocalWorker(shard, _interpreter(shard)) for shard in configs]
        if meanwhile is not None:
            meanwhile()
        return interpreters
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_start, args=(configs, config, os.getpid(), sender), name="factprobe shards")
    process.start()
    sender.close()
    starter = Starter(process, receiver, len(configs))
    try:
        if meanwhile is not None:
            meanwhile()
        message = starter.next_message()
    except KeyboardInterrupt:
        process.join()
        raise
    end_start_up()
    if message is not None and message[0] == "raised":
        process.join()
        raise message[1]
    return [StartedWorker(starter, index) for index in range(len(configs))]


def _interpreter(config: dict[str, Any]) -> subprocess.Popen[bytes]:
    """The shard in a new interpreter, its output to its log."""
    with shard_log(Path(config["out"])).open("a", encoding="utf-8") as handle:
        return subprocess.Popen([sys.executable, "-m", "factprobe.eval.run.shard_worker", json.dumps(config)],
                                stdin=subprocess.DEVNULL, stdout=handle, stderr=subprocess.STDOUT)


def wait_workers(workers: list[Worker], watch: Callable[[], None]) -> list[int]:
    """Wait for every worker, calling `watch` every POLL_S; their exit statuses in order. The end
    of forked workers wakes this at once (the starter's sentinel), so the merge starts when the
    last row is written, not at the next poll. Ctrl-C reaches the workers too: they save their
    rows, and this waits for them before raising KeyboardInterrupt."""
    try:
        while running := [worker.sentinel() for worker in workers if worker.status() is None]:
            watch()
            sentinels = list(dict.fromkeys(sentinel for sentinel in running if sentinel is not None))
            if None not in running:    # forked workers share their starter's sentinel, once each
                multiprocessing.connection.wait(sentinels, timeout=POLL_S)
            else:
                time.sleep(POLL_S)
    except KeyboardInterrupt:
        for worker in workers:
            worker.join()
        raise
    watch()
    return [worker.join() for worker in workers]
