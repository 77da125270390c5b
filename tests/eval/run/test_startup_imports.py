"""What `factprobe run` imports before its first request: the report's libraries wait for the end."""

from __future__ import annotations

import subprocess
import sys


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
             "context = StrategyContext(model=None, seed=0, temperature=0.0, max_tokens=8, options={}, resources={})\n"
             "for name in ('vanilla', 'best_of_n', 'self_refine', 'refusal'):\n"
             "    get_strategy(name).build(context)\n"
             "print(sorted(m for m in ('numpy', 'matplotlib', 'scipy', 'jinja2') if m in sys.modules))")
    imported = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert imported.stdout.strip() == "[]"
