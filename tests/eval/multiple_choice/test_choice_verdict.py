"""MMWorld's two evaluation modes: the judge's True/False on the free answer (`--choice-grading
judge`), and the free answer aligned to a letter, where replies no rule maps go to the run's judge
and, without a judge, are counted wrong (never mapped by the model under test)."""

from __future__ import annotations

import json

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.core.schema import Grade
from factprobe.eval.multiple_choice.verdict import read_verdict
from tests.fakes import ScriptedModel, last_user

RECORDS = [
    {"id": "tide", "question": "What pulls the invented tide?", "choices": ["Wind", "Moon", "Fish"], "answer": "Moon"},
    {"id": "lamp", "question": "What lights the invented lamp?", "choices": ["Oil", "Gas", "Sun"], "answer": "Oil"},
    {"id": "gate", "question": "Who opens the invented gate?", "choices": ["Keeper", "Guard"], "answer": "Guard"},
]
FREE = {"tide": "Surely it is the moon pulling it", "lamp": "Gas, I believe", "gate": "I don't know"}


def answer(messages, params) -> str:
    text = last_user(messages)
    return "Answer: " + next(reply for key, reply in FREE.items() if key in text.lower())


def is_verdict(messages) -> bool:
    return last_user(messages).startswith("A model answered a multiple-choice question")


def verdict(messages, params) -> str:
    text = last_user(messages)
    if "moon" in text.split("Model's answer:")[1].lower():
        return "True"
    return "False"


@pytest.mark.parametrize("reply, grade", [("True", Grade.CORRECT), ("yes.", Grade.CORRECT), ("**False**", Grade.INCORRECT),
                                          ("no", Grade.INCORRECT), ("Truly not", Grade.UNGRADED), ("", Grade.UNGRADED)])
def test_verdicts_are_read_from_an_anchored_first_line(reply, grade) -> None:
    assert read_verdict(reply + "\nbecause …") is grade


def run(tmp_path, monkeypatch, judge_script, *extra: str) -> list[dict]:
    data = tmp_path / "mc.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in RECORDS), encoding="utf-8")
    model, judge = ScriptedModel(answer), ScriptedModel(judge_script, name="judge-model")
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: model)
    monkeypatch.setattr(pipeline, "load_judge", lambda spec, **kwargs: judge)
    out = tmp_path / "run"
    status = cli.main(["run", "--dataset", f"mcq:{data}", "--strategies", "vanilla", "--out", str(out),
                       "--max-undecided-rate", "1", *extra])
    assert status == 0
    assert not any(is_verdict(m) or last_user(m).startswith("A reply to a multiple-choice") for m, _ in model.calls)
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


def test_judge_mode_grades_the_free_answer_by_the_judges_true_or_false(tmp_path, monkeypatch) -> None:
    rows = {r["question_id"]: r for r in run(tmp_path, monkeypatch, verdict, "--judge", "openai:judge-model",
                                             "--grader", "rules", "--choice-grading", "judge")}
    assert rows["tide"]["grade"] == "CORRECT" and rows["lamp"]["grade"] == "INCORRECT"
    assert rows["gate"]["grade"] == "NOT_ATTEMPTED"             # a refusal: the judge is not asked
    assert rows["tide"]["multiple_choice"]["grading"] == "judge"
    assert rows["tide"]["multiple_choice"]["mapper"]["model"] == "judge-model"
    assert rows["tide"]["judge_prompt_tokens"] is not None and "judge-model" in rows["tide"]["grade_note"]
    assert "mapper" not in rows["gate"]["multiple_choice"]


def test_an_unreadable_verdict_is_ungraded(tmp_path, monkeypatch) -> None:
    rows = run(tmp_path, monkeypatch, lambda m, p: "It depends", "--judge", "openai:judge-model", "--grader", "rules",
               "--choice-grading", "judge")
    grades = {r["question_id"]: r["grade"] for r in rows}
    assert grades == {"tide": "UNGRADED", "lamp": "UNGRADED", "gate": "NOT_ATTEMPTED"}


def test_letter_mode_without_a_judge_counts_unmapped_answers_wrong(tmp_path, monkeypatch) -> None:
    rows = {r["question_id"]: r for r in run(tmp_path, monkeypatch, verdict)}
    assert rows["tide"]["grade"] == "INCORRECT" and "no --judge" in rows["tide"]["grade_note"]
    assert rows["tide"]["multiple_choice"]["mapped_by"] is None
    assert rows["gate"]["grade"] == "NOT_ATTEMPTED"
    assert rows["tide"]["multiple_choice"]["mapper_model"] is None


def test_judge_mode_needs_a_judge_and_the_mmworld_preset_asks_for_it_with_one(tmp_path, capsys) -> None:
    assert cli.main(["run", "--choice-grading", "judge", "--out", str(tmp_path / "x")]) == 2
    assert "--choice-grading" in capsys.readouterr().err
    assert RunConfig(preset="mmworld", judge="openai:j").choice_grading == "judge"
    assert RunConfig(preset="mmworld").choice_grading == "letter"
    assert RunConfig(preset="mmworld", judge="openai:j", choice_grading="letter").choice_grading == "letter"
