"""A package whose `__init__` is deferred: its submodules import without it, and the first
attribute it would define runs it, in the same module object."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from factprobe.eval.core.deferred_init import DeferredInitFinder

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
from factprobe.eval.core.deferred_init import defer_inits
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
