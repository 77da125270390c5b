"""The speed tricks and their one switch (factprobe.eval.core.speedups): a package whose `__init__` is
deferred (its submodules import without it, the first attribute it would define runs it, in the
same module object); the collector paused for the command's start-up (back on, with start-up's
objects frozen, when the run is about to answer; left alone when the caller had turned it off);
and with FACTPROBE_NO_SPEEDUPS set, every trick leaves the interpreter as it found it."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

import pytest

from factprobe.eval.core import speedups
from factprobe.eval.core.speedups import DeferredInitFinder

PACKAGE_INIT = "import os\nos.environ['DEFERRED_TEST_INIT_RUNS'] = os.environ.get('DEFERRED_TEST_INIT_RUNS', '') + 'x'\n" \
               "from .leaf import VALUE\nDOUBLE = VALUE * 2\n"


@pytest.fixture
def package(tmp_path, monkeypatch) -> str:
    """A package `deferred_pkg` (with a submodule `leaf`) and a plain module `plain_mod` on sys.path,
    imported through a DeferredInitFinder for both names; removed from sys.modules afterwards."""
    folder = tmp_path / "deferred_pkg"
    folder.mkdir()
    (folder / "__init__.py").write_text(PACKAGE_INIT)
    (folder / "leaf.py").write_text("VALUE = 21\n")
    (tmp_path / "plain_mod.py").write_text("NAME = 'plain'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv("DEFERRED_TEST_INIT_RUNS", raising=False)
    monkeypatch.setattr(sys, "meta_path", [DeferredInitFinder(["deferred_pkg", "plain_mod"]), *sys.meta_path])
    yield "deferred_pkg"
    for name in ("deferred_pkg", "deferred_pkg.leaf", "plain_mod"):
        sys.modules.pop(name, None)


def test_a_submodule_imports_without_running_the_package_init(package, monkeypatch) -> None:
    import os

    from deferred_pkg.leaf import VALUE  # type: ignore[import-not-found]

    assert VALUE == 21 and "DEFERRED_TEST_INIT_RUNS" not in os.environ
    import deferred_pkg  # type: ignore[import-not-found]

    assert deferred_pkg.DOUBLE == 42                 # asked for: the __init__ runs, once
    assert deferred_pkg.leaf.VALUE == 21 and os.environ["DEFERRED_TEST_INIT_RUNS"] == "x"
    with pytest.raises(AttributeError):
        _ = deferred_pkg.missing
    assert os.environ["DEFERRED_TEST_INIT_RUNS"] == "x"
    assert sys.modules["deferred_pkg"] is deferred_pkg


def test_from_import_of_a_name_runs_the_init(package) -> None:
    from deferred_pkg import DOUBLE  # type: ignore[import-not-found]

    assert DOUBLE == 42


def test_a_plain_module_is_imported_the_usual_way(package) -> None:
    import plain_mod  # type: ignore[import-not-found]

    assert plain_mod.NAME == "plain" and "__getattr__" not in vars(plain_mod)


LANGGRAPH_PROBE = """
import json, sys
from typing import TypedDict
from factprobe.eval.core.speedups import defer_inits
defer_inits()
from langgraph.graph import END, START, StateGraph

class State(TypedDict):
    n: int

graph = StateGraph(State)
graph.add_node("add", lambda state: {"n": state["n"] + 1})
graph.add_edge(START, "add")
graph.add_edge("add", END)
result = graph.compile().invoke({"n": 1})
before = {name: name in sys.modules for name in ("langsmith.types.run", "langgraph_sdk.client", "websockets")}
from langsmith.types import Run
import langgraph_sdk
print(json.dumps({"result": result, "before": before, "run": Run.__name__,
                  "client": callable(langgraph_sdk.get_client)}))
"""


def test_langgraph_runs_a_graph_with_its_unused_package_inits_deferred() -> None:
    """In a fresh process: a graph compiles and runs without langsmith.types' models or
    langgraph_sdk's client loaded, and both are there when asked for."""
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run([sys.executable, "-c", LANGGRAPH_PROBE], capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(root), "PATH": ""})
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout.splitlines()[-1])
    assert found == {"result": {"n": 2}, "before": {"langsmith.types.run": False, "langgraph_sdk.client": False,
                                                    "websockets": False}, "run": "Run", "client": True}


@pytest.fixture
def collector(monkeypatch):
    """The collector as the test found it, restored afterwards (frozen objects thawed); the switch unset."""
    monkeypatch.delenv(speedups.SWITCH, raising=False)
    was_on = gc.isenabled()
    yield
    gc.unfreeze()
    speedups.resume_collection()
    (gc.enable if was_on else gc.disable)()


def test_a_paused_start_up_ends_with_the_collector_on_and_start_up_frozen(collector) -> None:
    gc.enable()
    speedups.pause_collection()
    assert not gc.isenabled() and speedups.collection_paused()
    speedups.end_start_up()
    assert gc.isenabled() and gc.get_freeze_count() > 0 and not speedups.collection_paused()


def test_a_command_that_answers_nothing_turns_it_back_on_without_freezing(collector) -> None:
    gc.enable()
    gc.unfreeze()
    speedups.pause_collection()
    speedups.resume_collection()
    speedups.end_start_up()            # nothing left to end
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_a_collector_the_caller_turned_off_stays_off_and_nothing_is_frozen(collector) -> None:
    gc.disable()
    gc.unfreeze()
    speedups.pause_collection()
    speedups.end_start_up()
    assert not gc.isenabled() and gc.get_freeze_count() == 0 and not speedups.collection_paused()
    with speedups.reading_rows():
        pass
    assert not gc.isenabled()


def test_the_end_of_the_process_leaves_nothing_for_the_last_collection_to_walk(collector) -> None:
    gc.enable()
    gc.unfreeze()
    alive = [[] for _ in range(100)]
    speedups.end_of_process()
    assert gc.get_freeze_count() >= len(alive) and gc.isenabled()


def test_reading_rows_pauses_the_collector_and_the_report_freezes_what_exists(collector) -> None:
    gc.enable()
    gc.unfreeze()
    with speedups.reading_rows():
        assert not gc.isenabled()
    assert gc.isenabled()
    with speedups.report_rows_frozen():
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0


@pytest.mark.parametrize("value, off", [
    ("", set()), ("0", set()), ("1", set(speedups.TRICKS)), ("yes", set(speedups.TRICKS)),
    ("report_freeze", {"report_freeze"}), ("read_pause, fork_freeze", {"read_pause", "fork_freeze"}),
    ("report_freeze,no_such_trick", set(speedups.TRICKS)),
])
def test_the_switch_turns_off_all_tricks_or_the_ones_it_names(monkeypatch, value: str, off: set[str]) -> None:
    monkeypatch.setenv(speedups.SWITCH, value)
    assert {trick for trick in speedups.TRICKS if not speedups.on(trick)} == off


def test_with_the_switch_set_every_trick_leaves_the_interpreter_as_it_was(collector, monkeypatch) -> None:
    monkeypatch.setenv(speedups.SWITCH, "1")
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    gc.enable()
    gc.unfreeze()
    finders = list(sys.meta_path)
    speedups.defer_inits()
    speedups.pause_collection()
    assert gc.isenabled() and not speedups.collection_paused()
    speedups.end_start_up()
    with speedups.reading_rows():
        assert gc.isenabled()
    with speedups.report_rows_frozen():
        assert gc.get_freeze_count() == 0
    speedups.freeze_before_fork()
    speedups.end_of_process()
    assert sys.meta_path == finders and gc.isenabled() and gc.get_freeze_count() == 0
