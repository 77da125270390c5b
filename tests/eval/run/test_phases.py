"""A run in phases: plan, open services, answer, report, ending in a RunOutcome; the run's own
functions stay short, and the run checks its grading options once.

Runs answer on a scripted model (no model is loaded, nothing is reached over the network).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from rich.console import Console

import factprobe.eval.run.pipeline as pipeline
import factprobe.eval.run.plan as plan
from factprobe.eval.grading.cascade import GraderConfigError
from factprobe.eval.run.configs import new_config, resumed_config
from factprobe.eval.run.outcome import RunOutcome
from factprobe.eval.store.run_dir import RunDir
from tests.fakes import ScriptedModel

RUN_PACKAGE = Path(__file__).resolve().parents[3] / "eval" / "run"
MAX_FUNCTION_LINES = 60


def test_no_function_of_the_run_package_is_longer_than_the_limit() -> None:
    long = [f"{path.name}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)"
            for path in sorted(RUN_PACKAGE.glob("*.py"))
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and (node.end_lineno or node.lineno) - node.lineno + 1 > MAX_FUNCTION_LINES]
    assert RUN_PACKAGE.is_dir() and not long, f"over {MAX_FUNCTION_LINES} lines: {long}"


@pytest.fixture
def counted_checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every check of the grading options the run itself makes, by the grader choice it was given."""
    calls: list[str] = []
    real = plan.check_grader_options

    def counting(choice, *args, **kwargs):
        calls.append(str(choice))
        return real(choice, *args, **kwargs)

    monkeypatch.setattr(plan, "check_grader_options", counting)
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: ScriptedModel(lambda m, p: "Answer: Paris"))
    return calls


def test_a_run_returns_its_outcome_and_checks_the_grading_options_once(tmp_path, counted_checks) -> None:
    config = new_config({"dataset": "sample", "strategies": ["vanilla"], "limit": 3, "out": tmp_path / "run"})
    outcome = pipeline.execute_run(config, resume=False, console=Console(quiet=True))
    assert isinstance(outcome, RunOutcome) and outcome.run_dir == tmp_path / "run"
    assert (outcome.answered, outcome.regraded, outcome.nothing_to_run) == (3, 0, False)
    assert outcome.status in (0, 3) and (tmp_path / "run" / "report.html").is_file()
    assert counted_checks == ["None"]
    again = pipeline.execute_run(resumed_config(tmp_path / "run", {}), resume=True, console=Console(quiet=True))
    assert again.nothing_to_run and again.answered == 0 and again.status == outcome.status
    assert counted_checks == ["None", "None"]          # once per run
    free = RunDir(tmp_path / "run")
    free.lock()                                       # each run let go of its directory
    free.unlock()


def test_bad_grading_options_stop_the_plan_before_any_model_loads(tmp_path, monkeypatch) -> None:
    def no_model(spec, **kwargs):
        raise AssertionError("a model was loaded")

    monkeypatch.setattr(pipeline, "load_model", no_model)
    config = new_config({"dataset": "sample", "grader": "judge", "out": tmp_path / "run"})
    with pytest.raises(GraderConfigError, match="needs a judge model"):
        pipeline.execute_run(config, resume=False, console=Console(quiet=True))
    assert not (tmp_path / "run" / "results.jsonl").exists()
