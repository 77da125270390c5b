"""A finished run resumed changes nothing: `run`, then `--resume` twice, leaves results.jsonl
byte-identical, even when the rule grader left a row (and a hop probe) undecided. Scripted model,
no judge, no network."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.eval.core.schema import Grade, Hop, Question
from tests.fakes import ScriptedModel, last_user, write_questions

TWO_HOP = Question(
    id="giraffe-food", question="What does the tallest land animal mostly eat?", answer="acacia leaves",
    category="nature",
    hops=[Hop(question="Which is the tallest land animal?", answer="giraffe"),
          Hop(question="What does the #1 mostly eat?", answer="acacia leaves")])
ONE_HOP = Question(id="tokyo", question="Which city is the capital of Japan?", answer="Tokyo", category="geography")


def script(messages, params) -> str:
    text = last_user(messages)
    if "capital of Japan" in text:
        return "Answer: Tokyo\nConfidence: 90"
    if "tallest land animal?" in text and "eat" not in text:
        return "Answer: giraffe\nConfidence: 80"
    return "Answer: Leaves\nConfidence: 30"     # part of the gold only: undecided


@pytest.fixture
def model(monkeypatch: pytest.MonkeyPatch) -> ScriptedModel:
    scripted = ScriptedModel(script)
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: scripted)
    return scripted


def test_resuming_a_finished_run_twice_changes_no_byte(tmp_path: Path, model: ScriptedModel) -> None:
    data = write_questions(tmp_path / "q.jsonl", [TWO_HOP, ONE_HOP])
    out = tmp_path / "run"
    assert cli.main(["run", "--dataset", f"jsonl:{data}", "--strategies", "vanilla", "--out", str(out)]) == 0
    results = (out / "results.jsonl").read_bytes()
    rows = [json.loads(line) for line in results.splitlines()]
    undecided = next(row for row in rows if row["question_id"] == "giraffe-food")
    assert undecided["grade"] == Grade.UNGRADED.value
    assert [probe["grade"] for probe in undecided["hop_probes"]] == ["CORRECT", "UNGRADED"]
    calls = len(model.calls)
    for _ in range(2):
        assert cli.main(["run", "--resume", "--out", str(out)]) == 0
        assert (out / "results.jsonl").read_bytes() == results
    assert len(model.calls) == calls                 # nothing asked again
