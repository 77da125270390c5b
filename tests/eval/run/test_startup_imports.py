"""What `factprobe run` imports before its first request: the report's libraries wait for the end,
and so does every module the first request does not need."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def test_the_run_path_does_not_import_the_report_or_numpy_up_front() -> None:
    probe = ("import sys, factprobe.eval.cli.main, factprobe.eval.run.pipeline, factprobe.eval.run.runner\n"
             "print(sorted(m for m in ('numpy', 'matplotlib', 'jinja2', 'factprobe.eval.report.build') "
             "if m in sys.modules))")
    imported = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert imported.stdout.strip() == "[]"


def test_loading_every_post_step_and_building_a_strategy_import_no_numpy() -> None:
    """Every post-step module is imported before the first question (the registry asks each whether
    it is enabled), and the strategies' graphs are built then too: none of them may pull in numpy."""
    probe = ("import sys\n"
             "from factprobe.eval.run.steps import POST_STEPS\n"
             "from factprobe.agents.context import StrategyContext\n"
             "from factprobe.agents.registry import get_strategy\n"
             "POST_STEPS.load()\n"
             "context = StrategyContext(model=None, seed=0, temperature=0.0, max_tokens=8)\n"
             "for name in ('vanilla', 'best_of_n', 'self_refine', 'refusal'):\n"
             "    get_strategy(name).build(context)\n"
             "print(sorted(m for m in ('numpy', 'matplotlib', 'scipy', 'jinja2') if m in sys.modules))")
    imported = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert imported.stdout.strip() == "[]"


# Runs `factprobe run` as the installed command does (main() owning the process) and stops it at
# its first chat request, printing what was imported by then and the collector's state.
FIRST_REQUEST_PROBE = """
import gc, json, os, sys
from factprobe.agents.models import openai_backend

async def first_request(self, messages, params):
    state = {"modules": sorted(sys.modules), "collecting": gc.isenabled(), "frozen": gc.get_freeze_count()}
    print("AT-FIRST-REQUEST " + json.dumps(state), flush=True)
    os._exit(0)

openai_backend.OpenAIModel.generate = first_request
sys.argv = ["factprobe", *sys.argv[1:]]
from factprobe.eval.cli.main import main
sys.exit(main())
"""

# what the first request of a vanilla run with the rule grader does not need: the other commands,
# sweeps, the report and its libraries, other backends, retrieval libraries, and the package
# __init__s LangGraph's import would run for nothing (langsmith.types' models, langgraph_sdk's client)
NOT_BEFORE_THE_FIRST_REQUEST = (
    "factprobe.eval.cli.audit", "factprobe.eval.cli.describe", "factprobe.eval.cli.compare",
    "factprobe.eval.cli.difficulty", "factprobe.eval.cli.merge", "factprobe.eval.taxonomy.command",
    "factprobe.eval.run.sweep", "factprobe.eval.grading.audit", "factprobe.eval.report.build",
    "numpy", "scipy", "matplotlib", "jinja2", "pandas", "anthropic", "llama_index.core", "llama_cpp",
    "langsmith.types.run", "langgraph_sdk.client", "websockets",
)


def first_request_state(tmp_path: Path, switch: str | None) -> dict:
    """`factprobe run` against an OpenAI-compatible server started by the test on 127.0.0.1, stopped
    at its first chat request: what was imported by then and the collector's state. `switch`: the
    value of FACTPROBE_NO_SPEEDUPS (None: unset)."""
    from tests.fakes import SERVED_MODEL, FaultServer

    root = Path(__file__).resolve().parents[3]
    env = {**os.environ, "PYTHONPATH": str(root), "FACTPROBE_CACHE": str(tmp_path / "cache")}
    env.pop("OPENAI_API_KEY", None)
    env.pop("FACTPROBE_NO_SPEEDUPS", None)
    if switch is not None:
        env["FACTPROBE_NO_SPEEDUPS"] = switch
    with FaultServer(["ok"]) as server:
        done = subprocess.run([sys.executable, "-c", FIRST_REQUEST_PROBE, "run", "--dataset", "sample",
                               "--limit", "2", "--strategies", "vanilla", "--grader", "rules", "--no-hop-probes",
                               "--model", f"openai:{SERVED_MODEL}@{server.url}", "--out", str(tmp_path / "run")],
                              capture_output=True, text=True, env=env, timeout=120)
    lines = [line for line in done.stdout.splitlines() if line.startswith("AT-FIRST-REQUEST ")]
    assert done.returncode == 0 and lines, done.stderr[-2000:]
    return json.loads(lines[0].removeprefix("AT-FIRST-REQUEST "))


def test_the_first_request_of_a_run_comes_before_what_it_does_not_need(tmp_path) -> None:
    """None of NOT_BEFORE_THE_FIRST_REQUEST is imported by the first request, the collector paused
    for start-up is on again and start-up's objects are frozen."""
    state = first_request_state(tmp_path, None)
    modules = set(state["modules"])
    assert {"openai", "langgraph.graph", "langsmith.types.run_select_field"} <= modules   # the path was taken
    assert sorted(modules & set(NOT_BEFORE_THE_FIRST_REQUEST)) == []
    assert state["collecting"] and state["frozen"] > 0


def test_with_the_speedups_off_nothing_is_deferred_paused_or_frozen(tmp_path) -> None:
    """FACTPROBE_NO_SPEEDUPS=1 reaches the command: LangGraph's unused package `__init__`s run on
    import and the collector was never paused, so start-up's objects are not frozen."""
    state = first_request_state(tmp_path, "1")
    assert {"langsmith.types.run", "langgraph_sdk.client"} <= set(state["modules"])
    assert state["collecting"] and state["frozen"] == 0
