"""Damaged or hand-edited run directories are never taken at their word: a garbage summary.json is
redrawn instead of being reported up to date, and ERROR rows of unanswerable questions are counted
in the summary. Scripted model, no network."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.agents.models.base import ModelError
from factprobe.eval.core.schema import Question
from tests.fakes import ScriptedModel, last_user, write_questions

QUESTIONS = [
    Question(id="oslo", question="Which city is the capital of Norway?", answer="Oslo", category="geo"),
    Question(id="future", question="Who will win the chess olympiad in 2090?", answer=None, answerable=False,
             category="unknowable"),
]


def script(messages, params) -> str:
    if "2090" in last_user(messages):
        raise ModelError("server closed the connection")
    return "Answer: Oslo\nConfidence: 90"


@pytest.fixture
def finished(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    model = ScriptedModel(script)
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: model)
    data, out = write_questions(tmp_path / "q.jsonl", QUESTIONS), tmp_path / "run"
    assert cli.main(["run", "--dataset", f"jsonl:{data}", "--strategies", "vanilla", "--out", str(out),
                     "--max-error-rate", "1"]) == 0
    return out


def test_error_rows_of_unanswerable_questions_are_counted(finished: Path) -> None:
    scores = json.loads((finished / "summary.json").read_text())["strategies"]["vanilla"]
    assert scores["errors"] == 0 and scores["n_unanswerable"] == 1
    assert scores["errors_unanswerable"] == 1 and scores["errors_all"] == 1


@pytest.mark.parametrize("garbage", ["not json at all", '{"strategies": NaN}', "[]", '{"baseline": "vanilla"}'])
def test_a_garbage_summary_is_redrawn_not_reported_up_to_date(finished: Path, garbage: str, capsys) -> None:
    summary = finished / "summary.json"
    summary.write_text(garbage)
    newest = max(path.stat().st_mtime_ns for path in finished.iterdir()) + 10**9
    os.utime(summary, ns=(newest, newest))            # newer than everything: only its content is wrong
    capsys.readouterr()
    assert cli.main(["run", "--resume", "--out", str(finished), "--max-error-rate", "1"]) == 0
    assert "up to date" not in capsys.readouterr().out
    assert json.loads(summary.read_text())["strategies"]["vanilla"]["n"] == 1
