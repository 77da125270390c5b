"""A run whose grades were not measured does not succeed: a judge that passes the start-up check
and then fails every call leaves the rows UNGRADED, and beyond --max-undecided-rate the run exits 3
naming the cause, with results and summary written and resumable. Scripted models, no network."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.grading.judge_loader as judge_loader
import factprobe.eval.run.pipeline as pipeline
from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.run.failures import EXIT_TOO_MANY_ERRORS
from factprobe.eval.store.run_dir import RunDir
from tests.fakes import ScriptedModel, failing, write_questions

QUESTIONS = [Question(id=f"n{n}", question=f"What is {n} plus one?", answer=str(n + 1), category="sums")
             for n in range(4)]


@pytest.fixture
def models(monkeypatch: pytest.MonkeyPatch) -> dict[str, ScriptedModel]:
    table = {"local": ScriptedModel(lambda messages, params: "Answer: 5\nConfidence: 50"),
             "judge": ScriptedModel(failing("judge quota exhausted"), "judge")}
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: table[spec])
    monkeypatch.setattr(judge_loader, "load_model", lambda spec, **kwargs: table[spec])
    return table


def test_a_judge_failing_every_call_fails_the_run_and_stays_resumable(tmp_path: Path, models, capsys) -> None:
    data, out = write_questions(tmp_path / "q.jsonl", QUESTIONS), tmp_path / "run"
    code = cli.main(["run", "--dataset", f"jsonl:{data}", "--strategies", "vanilla", "--judge", "judge",
                     "--grader", "judge", "--out", str(out)])
    err = capsys.readouterr().err
    assert code == EXIT_TOO_MANY_ERRORS
    assert "4 of 4 rows are UNGRADED (100.0%), above --max-undecided-rate 50.0%" in err
    assert "Traceback" not in err
    summary = json.loads((out / "summary.json").read_text())
    assert summary["strategies"]["vanilla"]["ungraded"] == 4
    models["judge"].script = lambda messages, params: "Grade: INCORRECT"
    assert cli.main(["run", "--resume", "--out", str(out)]) == 0
    assert {row.grade for row in RunDir(out).latest().values()} == {Grade.INCORRECT}


def test_the_undecided_limit_is_an_option_with_a_range(tmp_path: Path, models, capsys) -> None:
    data, out = write_questions(tmp_path / "q.jsonl", QUESTIONS), tmp_path / "run"
    assert cli.main(["run", "--dataset", f"jsonl:{data}", "--strategies", "vanilla", "--judge", "judge",
                     "--grader", "judge", "--out", str(out), "--max-undecided-rate", "1"]) == 0
    assert "4 rows are UNGRADED" in capsys.readouterr().out          # still said, as a warning
    assert cli.main(["run", "--dataset", f"jsonl:{data}", "--out", str(tmp_path / "r2"),
                     "--max-undecided-rate", "-0.1"]) == 2
    assert "--max-undecided-rate = -0.1" in capsys.readouterr().err
