"""`factprobe taxonomy`: judge replies parsed strictly, recorded as they come, resumable, summarised."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.grading.judge_loader as judge_loader
import factprobe.eval.run.pipeline as pipeline
from factprobe.agents.models.base import ModelError
from factprobe.eval.core.schema import Question
from factprobe.eval.taxonomy.classify import parse_taxonomy_reply
from factprobe.eval.taxonomy.kinds import UNCLASSIFIED
from factprobe.eval.taxonomy.record import TAXONOMY_FILE
from tests.fakes import ScriptedModel, last_user, write_questions

QUESTIONS = [
    Question(id="ore", question="Which metal is extracted from bauxite?", answer="Aluminium"),
    Question(id="peak", question="Which mountain is the highest in Africa?", answer="Kilimanjaro"),
    Question(id="lake", question="Which lake is the deepest in the world?", answer="Baikal"),
    Question(id="tea", question="Which country grows the most tea?", answer="China"),
]
ANSWERS = {"bauxite": "Iron", "Africa": "Mount Kenya", "deepest": "Superior", "tea": "China"}


@pytest.mark.parametrize("reply, kind", [
    ("Kind: knowledge\nReason: it named the wrong metal.", "knowledge"),
    ("**Kind:** Reasoning.\nReason: a wrong step.", "reasoning"),
    ("Kind: knowledge or reasoning\nReason: unsure", UNCLASSIFIED),   # two kinds: never picked
    ("Kind: knowledge\nKind: format", UNCLASSIFIED),                  # two lines: ambiguous
    ("Kind: laziness", UNCLASSIFIED),                                  # not a kind
    ("The model lacked knowledge.", UNCLASSIFIED),                     # no anchored line
])
def test_replies_are_parsed_from_one_anchored_kind_line(reply, kind) -> None:
    assert parse_taxonomy_reply(reply).kind == kind


def test_parsing_keeps_the_reason() -> None:
    assert parse_taxonomy_reply("Kind: refusal\nReason: it declined.").reason == "it declined."


def answer_script(messages, params) -> str:
    text = last_user(messages)
    answer = next(value for key, value in ANSWERS.items() if key in text)
    return f"Answer: {answer}\nConfidence: 50"


def test_taxonomy_records_resumes_and_summarises(tmp_path: Path, monkeypatch) -> None:
    dataset = tmp_path / "q.jsonl"
    write_questions(dataset, QUESTIONS)
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: ScriptedModel(answer_script))
    out = tmp_path / "run"
    assert cli.main(["run", "--dataset", f"jsonl:{dataset}", "--strategies", "vanilla", "--out", str(out)]) == 0

    failing = {"on": True}

    def judge_script(messages, params) -> str:
        text = last_user(messages)
        if "bauxite" in text:
            return "Kind: knowledge\nReason: iron is not made from bauxite."
        if "Africa" in text or "could not be read" in text:
            return "I cannot tell."                      # unreadable, and again when asked more strictly
        if failing["on"]:
            raise ModelError("judge unavailable")
        return "Kind: reasoning\nReason: it compared the wrong lakes."

    judge = ScriptedModel(judge_script)
    monkeypatch.setattr(judge_loader, "load_model", lambda spec, **kwargs: judge)
    assert cli.main(["taxonomy", str(out), "--judge", "scripted"]) == 1     # one call failed
    entries = [json.loads(line) for line in (out / TAXONOMY_FILE).read_text().splitlines()]
    assert sorted(e["question_id"] for e in entries) == ["ore", "peak"]      # tea is CORRECT: not asked
    assert {e["question_id"]: e["kind"] for e in entries} == {"ore": "knowledge", "peak": UNCLASSIFIED}
    summary = json.loads((out / "summary.json").read_text())
    counts = summary["taxonomy"]["vanilla"]
    assert counts["n_incorrect"] == 3 and counts["pending"] == 1 and counts[UNCLASSIFIED] == 1
    retried = next(e for e in entries if e["question_id"] == "peak")
    assert retried["attempts"] == 2 and retried["first_reply"] == retried["reply"] == "I cannot tell."

    failing["on"] = False
    asked_before = len(judge.calls)
    assert cli.main(["taxonomy", str(out), "--judge", "scripted"]) == 0
    assert len(judge.calls) == asked_before + 1                             # only the pending row
    counts = json.loads((out / "summary.json").read_text())["taxonomy"]["vanilla"]
    assert (counts["knowledge"], counts["reasoning"], counts[UNCLASSIFIED], counts["pending"]) == (1, 1, 1, 0)
    assert counts["judges"] == ["scripted"]
    assert (out / "taxonomy.png").is_file()
    assert cli.main(["report", str(out)]) == 0                               # report keeps the counts
    assert json.loads((out / "summary.json").read_text())["taxonomy"]["vanilla"]["reasoning"] == 1


@pytest.mark.parametrize("concurrency", ["0", "-2"])
def test_judge_calls_at_a_time_below_one_exit_2_naming_the_option(tmp_path: Path, capsys, concurrency: str) -> None:
    assert cli.main(["taxonomy", str(tmp_path), "--judge", "scripted", "--concurrency", concurrency]) == 2
    assert f"--concurrency {concurrency}: judge calls at a time must be at least 1" in capsys.readouterr().err
