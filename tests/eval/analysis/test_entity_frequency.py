"""WorldVQA Fig. 4: `factprobe difficulty RUN… --entity-counts FILE` joins each item's entity (its gold
answer, or a field) to its count in a MetaCLIP-style entry → count file, gives each tier's fitted
normal (mean and sd of the frequency rank percentiles) and the accuracy per frequency bin, checked
against a hand computation. The runs use a scripted model (no model is loaded); the entities,
counts and questions are invented."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.eval.analysis.entity_frequency import FrequencyIndex
from factprobe.eval.core.schema import Question
from tests.fakes import ScriptedModel, last_user, refused, write_questions

ENTITIES = ["Vell Spire", "Orrin Falls", "Glimmer Wren", "Quellite", "Marsh Lark", "Dune Owl"]
QUESTIONS = [Question(id=f"e{i}", question=f"Which invented thing number {i} is shown?", answer=name,
                      fields={"difficulty": "easy" if i < 3 else "hard"}) for i, name in enumerate(ENTITIES)]
# counts: the file holds ten entries; "dune owl" is matched case-folded, "Marsh Lark" is missing
COUNTS = {"Vell Spire": 900, "Orrin Falls": 500, "Glimmer Wren": 500, "Quellite": 10, "dune  OWL": 1,
          "a": 0, "b": 3, "c": 50, "d": 700, "e": 2000}


def make_run(tmp_path: Path, monkeypatch, name: str, right: set[str]) -> Path:
    by_text = {q.question: q for q in QUESTIONS}

    def script(messages, params) -> str:
        question = next(q for text, q in by_text.items() if text in last_user(messages))
        return f"Answer: {question.answer if question.id in right else 'Nothing at all'}\nConfidence: 50"

    data = tmp_path / f"{name}.jsonl"
    write_questions(data, QUESTIONS)
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: ScriptedModel(script, name))
    out = tmp_path / name
    assert cli.main(["run", "--dataset", f"jsonl:{data}", "--strategies", "vanilla", "--no-cache", "--out", str(out)]) == 0
    return out


def test_mid_rank_percentiles() -> None:
    index = FrequencyIndex(COUNTS)
    # sorted counts: 0, 1, 3, 10, 50, 500, 500, 700, 900, 2000
    assert index.percentile(500) == pytest.approx(100 * (5 + 1) / 10)       # 5 below, 2 equal
    assert index.percentile(0) == pytest.approx(5.0) and index.percentile(2000) == pytest.approx(95.0)
    assert index.count("Dune Owl") == 1 and index.count("Marsh Lark") is None


def test_difficulty_joins_entities_to_their_frequency(tmp_path, monkeypatch, capsys) -> None:
    runs = [make_run(tmp_path, monkeypatch, "m1", {"e0", "e1", "e2", "e3"}),
            make_run(tmp_path, monkeypatch, "m2", {"e0", "e1"})]
    counts = tmp_path / "entry_counts.json"
    counts.write_text(json.dumps(COUNTS), encoding="utf-8")
    capsys.readouterr()
    status = cli.main(["difficulty", *map(str, runs), "--out", str(tmp_path / "tiers.tsv"), "--easy-above", "1",
                       "--entity-counts", str(counts), "--plot", str(tmp_path / "figs"), "--json"])
    assert status == 0
    data = json.loads(capsys.readouterr().out)
    frequency = data["entity_frequency"]
    assert (frequency["matched"], frequency["unmatched"], frequency["unmatched_examples"]) == (5, 1, ["Marsh Lark"])
    items = {item["id"]: item for item in data["items"]}
    assert items["e0"]["frequency_percentile"] == pytest.approx(85.0) and items["e0"]["tier"] == "solved"
    assert items["e5"]["entity_count"] == 1 and items["e5"]["frequency_percentile"] == pytest.approx(15.0)
    # tiers: solved e0, e1 (85, 60); medium e2, e3 (60, 35); hard e5 (15)
    assert frequency["per_tier"]["solved"] == {"n": 2, "mean": 72.5, "sd": pytest.approx(17.68, abs=0.01)}
    assert frequency["per_tier"]["hard"] == {"n": 1, "mean": 15.0, "sd": None}
    assert frequency["per_difficulty"]["easy"]["n"] == 3 and frequency["per_difficulty"]["hard"]["n"] == 2
    # bins of 20 points: e5 (15) in 0–20 with 0 right; e3 (35) 20–40 half right; e1, e2 (60) 60–80
    # (1 and 0.5); e0 (85) 80–100 right in both runs
    assert [(b["items"], b["accuracy"]) for b in frequency["bins"]] == [
        (1, 0.0), (1, 0.5), (0, None), (2, 0.75), (1, 1.0)]
    assert (tmp_path / "figs" / "entity_frequency.png").stat().st_size > 0
    assert cli.main(["difficulty", *map(str, runs), "--out", str(tmp_path / "t.tsv"), "--entity-counts", str(counts)]) == 0
    printed = capsys.readouterr().out
    assert "Accuracy by entity" in printed and "80–100" in printed and "75.0" in printed


@pytest.mark.parametrize(("content", "expected"), [
    ("[1, 2]", "expected one non-empty JSON object"),
    ('{"Vell Spire": -3}', "entry 'Vell Spire': the count must be a whole number"),
    ('{"Vell Spire": 3,\n', "line 2: not JSON"),
])
def test_a_bad_counts_file_exits_2_naming_it(tmp_path, monkeypatch, capsys, content, expected) -> None:
    runs = [make_run(tmp_path, monkeypatch, "m1", {"e0"}), make_run(tmp_path, monkeypatch, "m2", set())]
    counts = tmp_path / "counts.json"
    counts.write_text(content, encoding="utf-8")
    capsys.readouterr()
    refused(capsys, ["difficulty", *map(str, runs), "--out", str(tmp_path / "t.tsv"), "--entity-counts", str(counts)],
            str(counts), expected)
