"""Every speed trick of factprobe in one place, each with its measured benefit, and one switch that
turns them all off: `FACTPROBE_NO_SPEEDUPS=1` (README "Development").

None of them changes what is written; tests/eval/run/test_speedups_off.py runs a pipeline both
ways and compares. The switch, read only by `on`: unset, empty or `0` leaves every trick on; a
comma-separated list of names from TRICKS turns those off (to measure one trick against the
others: benchmarks/bench_speedups.py); any other value turns all of them off.

The measured benefit beside each trick comes from `python -m benchmarks speedups` (its `in_process`
for the two collector tricks of reading and reporting), on a 2-core machine shared with other jobs
(load average 10 to 15): medians of process CPU seconds over interleaved rounds, as the ratio of
the CPU with the trick off to the CPU with every trick on. All of them off: a vanilla run of 300
questions took 1.41x the CPU (6.11 vs 4.34 s), `--workers 2` on 600 questions 1.15x, a report of
30,000 rows 1.11x.
"""

from __future__ import annotations

import gc
import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from importlib.abc import Loader, MetaPathFinder
from importlib.machinery import ModuleSpec, PathFinder
from types import ModuleType
from typing import Any, Sequence

SWITCH = "FACTPROBE_NO_SPEEDUPS"
TRICKS = ("deferred_inits", "start_up_collector", "exit_freeze", "report_freeze", "read_pause", "fork_freeze")


def on(trick: str) -> bool:
    """Whether `trick` (one of TRICKS) is on: the one place the switch is read."""
    value = os.environ.get(SWITCH, "").strip()
    if value in ("", "0"):
        return True
    names = {name.strip() for name in value.split(",")}
    return names <= set(TRICKS) and trick not in names


# --- deferred_inits: package `__init__`s the command's start-up does not need, run on first use --------
# LangGraph's import pulls in two whole packages to use one submodule of each: `langsmith.types`
# (generated pydantic models) for a `Literal` in `langsmith.types.run_select_field`, and
# `langgraph_sdk` (the LangGraph server's client: httpx, websockets) for
# `langgraph_sdk.auth.types.BaseUser`. With the hook installed, importing such a package creates it
# with its `__path__` (its submodules import as usual) and runs its `__init__` the first time an
# attribute it would define is asked for: the same module, later. `importlib.util.LazyLoader` cannot
# do this: it loads the module on any attribute access, `__path__` included, which is the first
# thing a submodule's import reads. Only the `factprobe` command's own process installs it.
# Measured: off, the imports a vanilla run makes before its first request (LangGraph's included)
# took 1.24x the CPU (median of 9 rounds, 0.89 vs 0.72 s).
DEFERRED = ("langsmith.types", "langgraph_sdk")


class DeferredInitLoader(Loader):
    """Wraps a package's loader: the module is created and registered at import, its code runs at
    the first attribute the module lacks (through a module `__getattr__`, PEP 562)."""

    def __init__(self, loader: Loader) -> None:
        self.loader = loader

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        return self.loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        lock = threading.Lock()

        def __getattr__(name: str) -> Any:
            with lock:
                if module.__dict__.get("__getattr__") is __getattr__:
                    del module.__dict__["__getattr__"]   # the real `__init__` may define its own
                    self.loader.exec_module(module)
            return getattr(module, name)

        module.__dict__["__getattr__"] = __getattr__

    def __getattr__(self, name: str) -> Any:   # get_filename, get_resource_reader, …: the real loader's
        return getattr(self.loader, name)


class DeferredInitFinder(MetaPathFinder):
    """Finds the packages named in `names` as the path finder does, with their `__init__` deferred."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = frozenset(names)

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
                  ) -> ModuleSpec | None:
        if fullname not in self.names:
            return None
        spec = PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None or spec.submodule_search_locations is None:
            return None   # not an ordinary package here: imported the usual way
        spec.loader = DeferredInitLoader(spec.loader)
        return spec


def defer_inits(names: Sequence[str] = DEFERRED) -> None:
    """Defer the `__init__` of the packages `names` not imported yet (once per process; the trick
    `deferred_inits`)."""
    if on("deferred_inits") and not any(isinstance(finder, DeferredInitFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, DeferredInitFinder([name for name in names if name not in sys.modules]))


# --- start_up_collector: the cyclic collector paused while the command starts ---------------------------
# Start-up builds hundreds of thousands of objects that live as long as the process (modules,
# classes, the pydantic models of openai and langgraph) and little cyclic garbage, and the
# collector's passes walk them again and again. So the command pauses the collector while it
# starts; when the run is about to answer, everything alive is moved to the permanent generation
# (`gc.freeze`: later passes, during the answers too, no longer walk it) and the collector comes
# back on. Only the command's own process pauses it (the CLI entry point); `end_start_up` does
# nothing otherwise, so the Python API and tests leave the caller's collector alone.
# Measured: off, the imports a vanilla run makes before its first request took 1.28x
# the CPU (median of 9 rounds, 0.91 vs 0.72 s); a whole vanilla run of 300 questions 1.11x (median
# of 5 rounds, 4.83 vs 4.34 s), `--workers 2` on 600 questions 1.11x.
_paused = False


def pause_collection() -> None:
    """Turn the cyclic collector off until `end_start_up` or `resume_collection`; nothing when it is
    already off (someone else's choice, left as it is) or the trick is off."""
    global _paused
    if on("start_up_collector") and gc.isenabled():
        gc.disable()
        _paused = True


def end_start_up() -> None:
    """Start-up is over: freeze what is alive and turn the collector back on, if it was paused."""
    global _paused
    if _paused:
        gc.freeze()
        gc.enable()
        _paused = False


def resume_collection() -> None:
    """Turn the collector back on without freezing (a command that answers nothing), if paused."""
    global _paused
    if _paused:
        gc.enable()
        _paused = False


def collection_paused() -> bool:
    """Whether start-up paused the collector and has not ended yet."""
    return _paused


# --- exit_freeze: no last collection at the interpreter's exit -----------------------------------------
# When the command has finished, the interpreter's exit runs a last full collection over every object
# alive (langgraph, openai, numpy, matplotlib and the report's rows after a run). Freezing them first
# leaves that collection nothing to walk; every module and file is still released by its reference
# count (open files flushed and closed); only cyclic garbage alive then is left to the process's end,
# whose finalizers Python never promised to run at exit anyway.
# Measured: off, a vanilla run of 100 questions took 1.14x the CPU (median of 7
# rounds, 4.38 vs 3.86 s; round by round 1.02x to 1.25x, never below 1).


def end_of_process() -> None:
    """The command's own process (or a shard's) is about to exit, its work done and its files
    closed: spare the exit its last collection over everything alive."""
    if on("exit_freeze"):
        gc.freeze()


# --- report_freeze: the report's rows out of the collector's passes -------------------------------------
# The rows a report reads live until it is written, and each full collection would otherwise walk
# all of them again.
# Measured: off, the summary of 100,000 rows took 1.08x the CPU (in one process,
# median of 5 alternating rounds, 4.25 vs 3.89 s); over a 30,000-row report 1.04x.


@contextmanager
def report_rows_frozen() -> Iterator[None]:
    """Leave every object alive now out of the collector's passes until the block ends (`gc.freeze`)."""
    if not on("report_freeze"):
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


# --- read_pause: the collector paused while a run's rows are read ---------------------------------------
# Reading 100,000 rows allocates millions of containers, none of them cyclic, and each collection
# would walk every row read so far.
# Measured: off, reading 100,000 rows took 1.65x the CPU (in one process, median
# of 5 alternating rounds, 4.14 vs 2.49 s); over a 30,000-row report 1.03x, within the noise.


@contextmanager
def reading_rows() -> Iterator[None]:
    """Pause the cyclic collector while the block reads rows (left off if it was off)."""
    enabled = gc.isenabled()
    if on("read_pause"):
        gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


# --- fork_freeze: what a forked worker inherits, out of its collections ---------------------------------
# The starter of `--workers N` (factprobe.eval.run.local_workers) freezes what it imported before it
# forks the workers: their collections then never walk (nor write to, copying the page) the inherited
# objects.
# Measured: with the start-up collector trick off too (as when the Python API runs
# `workers=2`), a `--workers 2` run of 600 questions took 1.10x the CPU without this freeze (median
# of 7 rounds, 7.85 vs 7.12 s). With it on, each worker freezes what it inherited as it ends its
# start-up anyway, and this one adds nothing measurable (1.00x).


def freeze_before_fork() -> None:
    """Move every object alive to the permanent generation, before forking workers."""
    if on("fork_freeze"):
        gc.freeze()
