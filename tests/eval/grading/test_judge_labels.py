"""A judge prompt of your own read in the labels it asks for, and `--judge-labels` for other words.

Every template here is written for this test in one of the reply styles published graders use
(letters the template assigns, a `Label:` line with Correct / Incorrect / Unattempted, a lone
label, words of the template's own). The judge is an OpenAI-compatible server the test starts on
127.0.0.1 (tests/fakes.py ChatServer; OpenAI itself is unreachable here): it reads the answer in
the prompt and replies in the template's style.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.base import HedgingPolicy
from factprobe.eval.grading.judge import read_judge_reply
from factprobe.eval.grading.judge_labels import declared_letters, template_scheme
from factprobe.eval.grading.judge_prompts import judge_policy
from tests.eval.conftest import audit_json
from tests.fakes import ChatServer, write_jsonl, write_questions

SERVED = "labels-judge"
QUESTION = "Which river flows through the invented town of Marrow Bay?"
# answer -> the label a careful judge would give (the cases' labels)
ANSWERS = {"The Quill": Grade.CORRECT, "The Ember": Grade.INCORRECT, "No idea, sorry.": Grade.NOT_ATTEMPTED}

LETTERS = """Decide whether a reply matches a reference answer.
Question: {question}
Reference: {gold}
Reply: {answer}

Choose one:
A: CORRECT
B: INCORRECT
C: NOT_ATTEMPTED
Answer with the single letter only."""

LABEL_LINE = """You check an answer against a reference.
Question: {question}
Reference answer: {gold}
Candidate answer: {answer}

Output two numbered lines:
1. **Evaluation**: one sentence
2. **Label**: "Correct", "Incorrect" or "Unattempted"
"""

LONE_WORD = """Compare the reply with the reference for the question below.
Q: {question} / reference: {gold} / reply: {answer}
Say only one of: Correct, Incorrect, Not attempted."""

OWN_WORDS = """Does the reply give the reference answer?
Question: {question}
Reference: {gold}
Reply: {answer}
Finish with one line: `Grade: RIGHT`, `Grade: WRONG` or `Grade: PASS`."""

STYLES: dict[str, tuple[str, dict[Grade, str], list[str]]] = {
    # template, the judge's reply per grade, extra flags
    "letters": (LETTERS, {Grade.CORRECT: "A", Grade.INCORRECT: "B", Grade.NOT_ATTEMPTED: "C"}, []),
    "label line": (LABEL_LINE, {Grade.CORRECT: "1. **Evaluation**: it names the river.\n2. **Label**: Correct",
                                Grade.INCORRECT: "1. **Evaluation**: another river.\n2. **Label**: Incorrect",
                                Grade.NOT_ATTEMPTED: "1. **Evaluation**: no guess.\n2. **Label**: Unattempted"}, []),
    "lone word": (LONE_WORD, {Grade.CORRECT: "Correct.", Grade.INCORRECT: "**Incorrect**",
                              Grade.NOT_ATTEMPTED: "Not attempted"}, []),
    "own words": (OWN_WORDS, {Grade.CORRECT: "Grade: RIGHT", Grade.INCORRECT: "Grade: WRONG",
                              Grade.NOT_ATTEMPTED: "Grade: PASS"},
                  ["--judge-labels", "right=CORRECT,wrong=INCORRECT,pass=NOT_ATTEMPTED"]),
}


def answer_in(prompt: str) -> str:
    """The answer the prompt asks about (the gold, also in every prompt, is tried last)."""
    return next(answer for answer in reversed(ANSWERS) if answer in prompt)


def judge_server(replies: Callable[[str], str]) -> ChatServer:
    return ChatServer(lambda body: replies(body["messages"][-1]["content"]), SERVED)


def write_cases(path: Path) -> Path:
    lines = [{"question": QUESTION, "gold": "The Quill", "answer": answer, "label": label.value}
             for answer, label in ANSWERS.items()]
    return write_jsonl(path, lines)


@pytest.mark.parametrize("style", list(STYLES))
def test_each_reply_style_is_read_as_its_template_asks(style: str, tmp_path: Path, capsys) -> None:
    template_text, replies, flags = STYLES[style]
    template = tmp_path / "judge.txt"
    template.write_text(template_text, encoding="utf-8")
    with judge_server(lambda prompt: replies[ANSWERS[answer_in(prompt)]]) as server:
        code, result, err = audit_json(capsys, str(write_cases(tmp_path / "cases.jsonl")), "--grader", "judge",
                                       "--judge", f"openai:{SERVED}@{server.url}", "--judge-prompt-file",
                                       str(template), *flags)
    assert code == 0, err
    assert result is not None and result["agreement"] == 1.0 and result["undecided"] == 0
    assert result["judge_calls"] == 3
    expected_source = "--judge-labels" if flags else "template"
    assert result["grader"]["reply_labels"]["source"] == expected_source


def test_a_reply_in_none_of_the_labels_is_ungraded_with_the_reason(tmp_path: Path, capsys) -> None:
    template = tmp_path / "judge.txt"
    template.write_text(LETTERS, encoding="utf-8")
    cases = tmp_path / "cases.jsonl"
    with judge_server(lambda prompt: "D") as server:
        code, _, err = audit_json(capsys, str(write_cases(cases)), "--grader", "judge", "--judge",
                                  f"openai:{SERVED}@{server.url}", "--judge-prompt-file", str(template),
                                  "--per-case", str(tmp_path / "rows.jsonl"))
    assert code == 1 and "decided none" in err     # all UNGRADED: not an agreement of 0 %
    rows = [json.loads(line) for line in (tmp_path / "rows.jsonl").read_text().splitlines()]
    assert {row["grade"] for row in rows} == {"UNGRADED"}
    assert all("no verdict line" in row["grade_note"] and "A, B, C" in row["grade_note"] for row in rows)


@pytest.mark.parametrize("reply, grade, reason", [
    ("B", Grade.INCORRECT, None),
    ("A: CORRECT", Grade.CORRECT, None),
    ("(C)", Grade.NOT_ATTEMPTED, None),
    ("It is close.\nLabel: Not_Attempted", Grade.NOT_ATTEMPTED, None),
    ("A: INCORRECT", Grade.UNGRADED, "no verdict line"),            # letter and word disagree
    ("CORRECT", Grade.CORRECT, None),                                # the words are read beside the letters
    ("The answer is correct.", Grade.UNGRADED, "no verdict line"),   # prose is no verdict
    ("A\nB", Grade.UNGRADED, "different grades (CORRECT, then INCORRECT)"),
    ("Label: A\nGrade: A", Grade.CORRECT, None),                   # one grade, given twice (issue 32)
    ("Label: B\nA", Grade.UNGRADED, "different grades (INCORRECT, then CORRECT)"),
    ("Label:\nB", Grade.UNGRADED, "the line after `Label:`"),
    ("Label: maybe B", Grade.UNGRADED, "no valid label"),
])
def test_template_replies_need_exactly_one_anchored_verdict(reply: str, grade: Grade, reason: str | None) -> None:
    scheme = template_scheme(LETTERS, "judge.txt")
    reading = read_judge_reply(reply, scheme=scheme)
    assert reading.grade is grade
    assert (reading.reason is None) if reason is None else reason in (reading.reason or "")


def test_the_built_in_prompts_still_read_only_a_grade_line() -> None:
    policy = judge_policy("worldvqa", HedgingPolicy.ACCEPT)
    assert read_judge_reply("Correct", scheme=policy.labels).grade is Grade.UNGRADED
    assert read_judge_reply("Label: Correct", scheme=policy.labels).grade is Grade.UNGRADED
    assert read_judge_reply("Grade: CORRECT", scheme=policy.labels).grade is Grade.CORRECT


def test_a_template_that_gives_one_letter_two_meanings_is_refused() -> None:
    with pytest.raises(ValueError, match=r"judge.txt, line 3: the letter A"):
        declared_letters("A: CORRECT\nB: INCORRECT\nA) NOT_ATTEMPTED", "judge.txt")


@pytest.mark.parametrize("labels, problem", [
    ("right=CORRECT,wrong", "is not WORD=GRADE"),
    ("right=CORRECT,wrong=FALSE", "is not WORD=GRADE"),
    ("right=CORRECT,Right=INCORRECT", "more than once"),
    ("right=CORRECT,pass=NOT_ATTEMPTED", "no label means INCORRECT"),
])
def test_a_bad_label_mapping_exits_2_naming_the_option(labels: str, problem: str, tmp_path: Path, capsys) -> None:
    template = tmp_path / "judge.txt"
    template.write_text(OWN_WORDS, encoding="utf-8")
    code, _, err = audit_json(capsys, str(write_cases(tmp_path / "cases.jsonl")), "--grader", "judge", "--judge",
                              "openai:x@http://127.0.0.1:9/v1", "--judge-prompt-file", str(template),
                              "--judge-labels", labels)
    assert code == 2 and "--judge-labels" in err and problem in err


def test_labels_without_a_template_are_refused(tmp_path: Path, capsys) -> None:
    code, _, err = audit_json(capsys, str(write_cases(tmp_path / "cases.jsonl")), "--grader", "judge", "--judge",
                              "openai:x@http://127.0.0.1:9/v1", "--judge-labels", "right=CORRECT,wrong=INCORRECT")
    assert code == 2 and "--judge-prompt-file" in err
    with pytest.raises(ValueError, match="--judge-prompt-file"):
        RunConfig(judge="openai:x@http://127.0.0.1:9/v1", judge_labels=["right=CORRECT", "wrong=INCORRECT"])


def test_a_run_grades_with_the_mapped_labels_and_records_them(tmp_path: Path) -> None:
    """`factprobe run` with the template and the mapping: one server answers as the model under test
    and as the judge (the judge's prompts are the template's)."""
    template = tmp_path / "judge.txt"
    template.write_text(OWN_WORDS, encoding="utf-8")
    dataset = write_questions(tmp_path / "q.jsonl", [
        Question(id="right", question=QUESTION, answer="The Quill"),
        Question(id="wrong", question=QUESTION.replace("Marrow Bay", "Silt End"), answer="The Quill")])

    def reply(prompt: str) -> str:
        if prompt.startswith("Does the reply give"):
            return "Grade: RIGHT" if "The Quill" in prompt.split("Reply:")[-1] else "Grade: WRONG"
        return "Answer: The Quill" if "Marrow Bay" in prompt else "Answer: The Ember"

    out = tmp_path / "run"
    with judge_server(reply) as server:
        spec = f"openai:{SERVED}@{server.url}"
        code = cli.main(["run", "--dataset", f"jsonl:{dataset}", "--strategies", "vanilla", "--model", spec,
                         "--judge", spec, "--judge-prompt-file", str(template), "--judge-labels",
                         "right=CORRECT,wrong=INCORRECT,pass=NOT_ATTEMPTED", "--out", str(out), "--no-cache"])
    assert code == 0
    rows = {row["question_id"]: row for row in map(json.loads, (out / "results.jsonl").read_text().splitlines())}
    assert (rows["right"]["grade"], rows["wrong"]["grade"]) == ("CORRECT", "INCORRECT")
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["config"]["judge_labels"] == ["right=CORRECT", "wrong=INCORRECT", "pass=NOT_ATTEMPTED"]
    assert manifest["grader"]["reply_labels"]["labels"] == {"PASS": "NOT_ATTEMPTED", "RIGHT": "CORRECT",
                                                            "WRONG": "INCORRECT"}


def test_the_worldvqa_preset_judges_a_hedge_by_what_it_commits_to() -> None:
    config = RunConfig(preset="worldvqa", judge="openai:x@http://127.0.0.1:9/v1")
    assert config.hedging is HedgingPolicy.ACCEPT and config.judge_prompt == "worldvqa"
    assert RunConfig(preset="worldvqa", hedging="penalize").hedging is HedgingPolicy.PENALIZE  # still yours to set
