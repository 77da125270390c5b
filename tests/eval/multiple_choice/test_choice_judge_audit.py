"""`factprobe audit-grader CASES --grader choice-judge`: the multiple-choice True/False judge audited
from labelled cases, with the same figures as the free-text audit.

The cases are invented for this test. The judge is an OpenAI-compatible server the test starts on
127.0.0.1 (tests/fakes.py ChatServer): it answers True when the gold option's text appears in the
model's answer, so it errs on purpose on two cases (a bare letter, a list holding the gold) and
replies "Maybe" to one, which gives known agreement, κ, over- and under-credit.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.eval.conftest import audit_json
from tests.fakes import ChatServer, write_jsonl

METALS = ("Which invented metal is the lightest?", ["Brell", "Tovium", "Carnex", "Dalite"])
BIRDS = ("Which invented bird sings at night?", ["Orrin", "Pell", "Quast"])
# (question, options, gold, answer, label)
CASES = [
    (*METALS, "B", "Tovium is the lightest.", "CORRECT"),
    (*METALS, "Tovium", "Carnex, I believe.", "INCORRECT"),
    (*BIRDS, "C", "The third one, C.", "CORRECT"),                 # the fake judge misses it: under-credit
    (*METALS, "B", "Either Brell or Tovium.", "INCORRECT"),          # the fake judge credits it: over-credit
    (*BIRDS, "C", "I don't know.", "NOT_ATTEMPTED"),                # a refusal: the judge is not asked
    (*BIRDS, "Quast", "Quast, the night singer.", "CORRECT"),        # the judge's reply is unreadable
]


def verdict(body: dict) -> str:
    prompt = body["messages"][-1]["content"]
    gold = re.search(r"^Correct option: [A-Z]\. (.+)$", prompt, re.MULTILINE).group(1)
    answer = re.search(r"^Model's answer: (.+)$", prompt, re.MULTILINE).group(1)
    if "night singer" in answer:
        return "Maybe"
    return "True" if gold in answer else "False"


def write_cases(path: Path, cases=CASES, **extra) -> Path:
    lines = [{"question": q, "options": options, "gold": gold, "answer": answer, "label": label, **extra}
             for q, options, gold, answer, label in cases]
    return write_jsonl(path, lines)


def test_the_true_false_judge_is_audited_like_the_free_text_judge(tmp_path: Path, capsys) -> None:
    with ChatServer(verdict, "mc-judge") as server:
        code, result, err = audit_json(capsys, str(write_cases(tmp_path / "mc.jsonl")), "--grader", "choice-judge",
                                       "--judge", f"openai:mc-judge@{server.url}", "--per-case", str(tmp_path / "rows.jsonl"))
        prompts = [chat["messages"][-1]["content"] for chat in server.chats()]
    assert code == 0, err
    assert result is not None
    assert result["n"] == 6 and result["agreement"] == pytest.approx(3 / 6)
    assert result["over_credit"] == pytest.approx(1 / 3) and result["over_credit_n"] == 1
    assert result["under_credit"] == pytest.approx(1 / 3) and result["under_credit_n"] == 1
    assert result["undecided"] == 1 and result["judge_calls"] == 5
    # κ by hand: observed 3/6; chance (3·2 + 2·2 + 1·1 + 0·1) / 36 = 11/36; κ = (18 − 11) / 25
    assert result["kappa"] == pytest.approx(7 / 25)
    assert result["confusion"]["CORRECT"] == {"CORRECT": 1, "INCORRECT": 1, "NOT_ATTEMPTED": 0, "UNGRADED": 1}
    assert result["grading"] == {"rules_decided": 1, "judge_decided": 4, "undecided": 1}
    assert result["grader"]["grader"] == "choice-judge" and result["grader"]["prompt_version"]
    # the options in the case's order, the gold by its letter, as a run shows them
    assert any("A. Brell\nB. Tovium\nC. Carnex\nD. Dalite" in p and "Correct option: B. Tovium" in p for p in prompts)
    rows = [json.loads(line) for line in (tmp_path / "rows.jsonl").read_text().splitlines()]
    assert rows[4]["grader"] == "rules" and rows[4]["grade"] == "NOT_ATTEMPTED"
    assert "unreadable verdict" in rows[5]["grade_note"]


def test_the_letter_mapping_is_audited_by_rules_without_a_judge(tmp_path: Path, capsys) -> None:
    cases = [(*METALS, "B", "B", "CORRECT"), (*METALS, "B", "Option D.", "INCORRECT"),
             (*BIRDS, "Orrin", "(A)", "CORRECT")]
    code, result, err = audit_json(capsys, str(write_cases(tmp_path / "mc.jsonl", cases)), "--grader", "choice-letter")
    assert code == 0, err
    assert result is not None and result["agreement"] == 1.0 and result["judge_calls"] == 0
    assert result["grading"]["rules_decided"] == 3


@pytest.mark.parametrize("change, field, problem", [
    ({"options": None}, "options", "missing"),
    ({"gold": "E"}, "gold", "must be one of the options"),
    ({"options": ["Brell", "Brell"]}, "options", "different"),
])
def test_a_bad_choice_case_exits_2_naming_line_and_field(change: dict, field: str, problem: str,
                                                         tmp_path: Path, capsys) -> None:
    path = write_cases(tmp_path / "mc.jsonl", CASES[:1])
    line = {**json.loads(path.read_text()), **change}
    path.write_text(json.dumps({key: value for key, value in line.items() if value is not None}) + "\n")
    code, _, err = audit_json(capsys, str(path), "--grader", "choice-letter")
    assert code == 2 and f"{path}, line 1, field `{field}`" in err and problem in err


def test_choice_judge_needs_a_judge_and_refuses_free_text_prompt_options(tmp_path: Path, capsys) -> None:
    cases = str(write_cases(tmp_path / "mc.jsonl"))
    code, _, err = audit_json(capsys, cases, "--grader", "choice-judge")
    assert code == 2 and "--judge MODEL" in err
    code, _, err = audit_json(capsys, cases, "--grader", "choice-judge", "--judge", "openai:x@http://127.0.0.1:9/v1",
                              "--judge-prompt", "worldvqa")
    assert code == 2 and "--judge-prompt" in err
