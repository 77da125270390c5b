"""`--group-by` / `--where`: scores by any field of the rows or question records, the full
CO/IN/NA/CGA/F per group, counted here from the rows; `--only-ids` / `--exclude-ids`; the errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import Field

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.eval.analysis.groups import GroupError, grouped_scores, parse_where
from factprobe.eval.core.record import record_fields
from factprobe.eval.core.schema import Grade, Question, Result
from tests.fakes import ScriptedModel, last_user, write_questions

QUESTIONS = [
    Question(id="a1", question="Which city is the capital of France?", answer="Paris", category="geo", source="atlas"),
    Question(id="a2", question="Which city is the capital of Peru?", answer="Lima", category="geo", source="atlas"),
    Question(id="b1", question="What is the chemical symbol for gold?", answer="Au", category="chem", source="book"),
    Question(id="b2", question="What is the chemical symbol for lead?", answer="Pb", category="chem", source="book"),
    Question(id="b3", question="What is the chemical symbol for iron?", answer="Fe", category="chem", source="atlas"),
]
REPLIES = {"France": "Paris", "Peru": "I don't know", "gold": "Au", "lead": "Sn", "iron": "Fe"}


def script(messages, params) -> str:
    text = last_user(messages)
    return f"Answer: {next(reply for key, reply in REPLIES.items() if key in text)}\nConfidence: 50"


@pytest.fixture
def dataset(tmp_path, monkeypatch) -> Path:
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: ScriptedModel(script))
    return write_questions(tmp_path / "q.jsonl", QUESTIONS)


def run(dataset: Path, out: Path, *options: str) -> int:
    return cli.main(["run", "--dataset", f"jsonl:{dataset}", "--strategies", "vanilla", "--no-cache",
                     "--out", str(out), *options])


def test_group_by_a_record_field_and_filter(dataset, tmp_path) -> None:
    out = tmp_path / "run"
    assert run(dataset, out, "--group-by", "source,category", "--where", "category!=geo") == 0
    groups = json.loads((out / "summary.json").read_text())["groups"]
    assert groups["by"] == ["source", "category"] and groups["where"] == "category!=geo"
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert {row["question_id"]: row["fields"]["source"] for row in rows} == {q.id: q.source for q in QUESTIONS}
    scores = groups["strategies"]["vanilla"]
    assert set(scores) == {"atlas / chem", "book / chem"}        # geo filtered out
    book = scores["book / chem"]                                  # b1 right, b2 wrong
    assert (book["n"], book["correct"], book["incorrect"], book["not_attempted"]) == (2, 1, 1, 0)
    assert (book["accuracy"], book["incorrect_rate"], book["not_attempted_rate"], book["cga"]) == (0.5, 0.5, 0, 0.5)
    assert book["f_score"] == pytest.approx(0.5)
    # the same run regrouped afterwards, with no model call (an empty --where drops the run's filter)
    assert cli.main(["report", str(out), "--group-by", "source", "--where", ""]) == 0
    regrouped = json.loads((out / "summary.json").read_text())["groups"]["strategies"]["vanilla"]
    atlas = regrouped["atlas"]                                     # a1 right, a2 declined, b3 right
    assert (atlas["n"], atlas["correct"], atlas["not_attempted"]) == (3, 2, 1)
    assert atlas["f_score"] == pytest.approx(2 * 2 / (3 + 2))
    per_category = json.loads((out / "summary.json").read_text())["per_category"]["vanilla"]
    assert per_category["geo"]["not_attempted_rate"] == 0.5 and per_category["chem"]["incorrect_rate"] == 1 / 3


def test_unknown_field_and_bad_where_are_option_errors(dataset, tmp_path, capsys) -> None:
    assert run(dataset, tmp_path / "r1", "--group-by", "sorce") == 2
    err = capsys.readouterr().err
    assert "--group-by 'sorce'" in err and "(did you mean 'source'?)" in err
    assert not (tmp_path / "r1" / "results.jsonl").exists()
    assert run(dataset, tmp_path / "r2", "--where", "category") == 2
    assert "--where 'category'" in capsys.readouterr().err
    assert run(dataset, tmp_path / "r3", "--where", "hop_count>two") == 2
    assert "needs a number" in capsys.readouterr().err


def test_only_and_exclude_ids(dataset, tmp_path, capsys) -> None:
    ids = tmp_path / "ids.txt"
    ids.write_text("# kept\na1\nb2 hard\n\n")
    out = tmp_path / "only"
    assert run(dataset, out, "--only-ids", str(ids)) == 0
    assert {json.loads(line)["question_id"] for line in (out / "results.jsonl").read_text().splitlines()} == {"a1", "b2"}
    out = tmp_path / "exclude"
    assert run(dataset, out, "--exclude-ids", str(ids)) == 0
    assert {json.loads(line)["question_id"] for line in (out / "results.jsonl").read_text().splitlines()} == {"a2", "b1", "b3"}
    (tmp_path / "none.txt").write_text("zz\n")
    assert run(dataset, tmp_path / "bad", "--only-ids", str(tmp_path / "none.txt")) == 2
    assert "none of its 1 ids" in capsys.readouterr().err


def test_record_fields_read_a_schema_with_released_fields_and_lists_count_under_each_label() -> None:
    class Released(Question):
        fields: dict = Field(default_factory=dict)

    question = Released(id="x", question="q?", answer="a", source="s", fields={"language": "en", "type": ["a", "b"]})
    assert record_fields(question) == {"source": "s", "language": "en", "type": ["a", "b"]}
    row = Result(question_id="x", strategy="v", question="q?", gold="a", category="c", grade=Grade.CORRECT,
                 grader="rules", fields=record_fields(question))
    scores = grouped_scores([row], ["type", "language"])
    assert set(scores) == {"a / en", "b / en"} and scores["a / en"]["correct"] == 1
    assert grouped_scores([row], ["missing"])["(none)"]["n"] == 1
    with pytest.raises(GroupError):
        parse_where("type ~ a")
    [condition] = parse_where("type=b|z")
    assert condition.holds(row) and not parse_where("type!=a")[0].holds(row)
