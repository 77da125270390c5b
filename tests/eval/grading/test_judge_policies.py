"""`--judge-prompt simpleqa-verified`, `--judge-prompt-file FILE` and the judge reading the whole reply.

The judge runs as `openai:MODEL@URL` against a small OpenAI-compatible server started by the test on
127.0.0.1 (OpenAI itself is unreachable here); it records every prompt and grades by a rule of the
test's own.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.cascade import build_grader
from factprobe.eval.grading.judge import JudgeGrader
from tests.eval.conftest import audit_json
from tests.fakes import ChatServer, ScriptedModel, last_user, write_jsonl

SERVED = "judge-model"
CAPITAL = Question(id="c1", question="Which city is the capital of Portugal?", answer="Lisbon")


class JudgeServer(ChatServer):
    """The shared chat server as a judge: `grade(prompt)` gives the reply's text; `prompts` holds
    every prompt it was sent."""

    def __init__(self, grade: Callable[[str], str]) -> None:
        super().__init__(lambda body: (grade(body["messages"][-1]["content"]),
                                       {"prompt_tokens": 50, "completion_tokens": 5}), SERVED)

    @property
    def prompts(self) -> list[str]:
        return [chat["messages"][-1]["content"] for chat in self.chats()]


@pytest.fixture
def judge_server() -> Iterator[JudgeServer]:
    def grade(prompt: str) -> str:
        uncommitted = "without committing to one" in prompt and " or " in prompt.split("Answer to grade:")[-1]
        return "Candidates, none committed to.\nGrade: NOT_ATTEMPTED" if uncommitted else "Grade: CORRECT"

    server = JudgeServer(grade)
    server.thread.start()
    yield server
    server.httpd.shutdown()
    server.httpd.server_close()


def write_cases(path: Path, answers: list[str]) -> Path:
    lines = [{"question": CAPITAL.question, "gold": "Lisbon", "answer": answer, "label": "NOT_ATTEMPTED"}
             for answer in answers]
    return write_jsonl(path, lines)


def test_simpleqa_verified_judge_reads_its_own_rules(tmp_path, judge_server, capsys) -> None:
    cases = write_cases(tmp_path / "cases.jsonl", ["Porto or Lisbon"])
    code, result, _ = audit_json(capsys, str(cases), "--grader", "judge", "--judge", f"openai:{SERVED}@{judge_server.url}",
                                 "--judge-prompt", "simpleqa-verified")
    assert code == 0 and result is not None
    assert result["grader"]["prompt"] == "simpleqa-verified" and result["agreement"] == 1.0
    [prompt] = judge_server.prompts
    assert "acceptable range" in prompt and "without committing to one" in prompt


def test_the_rules_follow_the_policy_on_candidates() -> None:
    simpleqa = build_grader("rules", None, judge_prompt="simpleqa")
    verified = build_grader("rules", None, judge_prompt="simpleqa-verified")
    assert asyncio.run(simpleqa.grade(CAPITAL, "Porto or Lisbon")).grade is Grade.INCORRECT
    assert asyncio.run(verified.grade(CAPITAL, "Porto or Lisbon")).grade is Grade.NOT_ATTEMPTED
    assert asyncio.run(verified.grade(CAPITAL, "Porto or Madrid")).grade is Grade.INCORRECT


@pytest.mark.parametrize("answer, grade", [
    ("1,480", Grade.CORRECT), ("1,600", Grade.INCORRECT), ("Between 1,400 and 1,600", Grade.UNGRADED),
])
def test_a_gold_with_an_acceptable_range(answer: str, grade: Grade) -> None:
    question = Question(id="n1", question="How many people attended?",
                        answer="1,500 (acceptable range: 1,450 to 1,550)")
    assert asyncio.run(build_grader("rules", None).grade(question, answer)).grade is grade


def test_prompt_file_is_used_as_written_and_recorded_by_hash(tmp_path, judge_server, capsys) -> None:
    template = tmp_path / "paper_prompt.txt"
    template.write_text("Q: {question}\nReference: {gold}\nResponse: {answer}\nEnd with `Grade: LABEL`.\n",
                        encoding="utf-8")
    cases = write_cases(tmp_path / "cases.jsonl", ["Lisbon, of course"])
    code, result, _ = audit_json(capsys, str(cases), "--grader", "judge", "--judge", f"openai:{SERVED}@{judge_server.url}",
                                 "--judge-prompt-file", str(template))
    assert code == 0 and result is not None
    assert judge_server.prompts == [f"Q: {CAPITAL.question}\nReference: Lisbon\nResponse: Lisbon, of course\n"
                                    "End with `Grade: LABEL`.\n"]
    assert result["grader"]["prompt_sha256"] == hashlib.sha256(template.read_bytes()).hexdigest()
    assert result["grader"]["prompt"] == "file:paper_prompt.txt"


@pytest.mark.parametrize("text, problem", [
    ("Q: {question}\nA: {answer}\n", "missing: gold"),
    ("Q: {question} {gold} {answer} {rubric}\n", "unknown: rubric"),
])
def test_a_bad_prompt_file_exits_2_naming_the_file(tmp_path, capsys, text: str, problem: str) -> None:
    template = tmp_path / "bad.txt"
    template.write_text(text, encoding="utf-8")
    cases = write_cases(tmp_path / "cases.jsonl", ["Lisbon"])
    code, _, err = audit_json(capsys, str(cases), "--grader", "judge", "--judge", "openai:x@http://127.0.0.1:9/v1",
                              "--judge-prompt-file", str(template))
    assert code == 2 and str(template) in err and problem in err


def test_a_prompt_file_without_a_judge_exits_2(tmp_path, capsys) -> None:
    template = tmp_path / "t.txt"
    template.write_text("{question} {gold} {answer}", encoding="utf-8")
    code, _, err = audit_json(capsys, str(write_cases(tmp_path / "c.jsonl", ["Lisbon"])), "--judge-prompt-file",
                              str(template))
    assert code == 2 and "--judge-prompt-file" in err


def test_the_judge_reads_the_whole_reply() -> None:
    model = ScriptedModel(lambda messages, params: "Grade: CORRECT")
    judge = JudgeGrader(model)
    reply = "The river port at the Tagus mouth.\nAnswer: Lisbon"
    asyncio.run(judge.grade(CAPITAL, "Lisbon", reply))
    assert "The river port at the Tagus mouth." in last_user(model.calls[0][0])
    asyncio.run(judge.grade(CAPITAL, "Lisbon"))
    assert "Answer to grade: Lisbon" in last_user(model.calls[1][0])


def test_audit_grader_checks_the_judge_options_as_a_run_does(tmp_path, capsys) -> None:
    """audit-grader takes the run's own definitions of the judge's options: a near miss exits 2 naming
    the flag and the closest value, before any case is read."""
    code, _, err = audit_json(capsys, str(tmp_path / "absent.jsonl"), "--judge-prompt", "simpleqa-verifed")
    assert code == 2 and "--judge-prompt = 'simpleqa-verifed'" in err and "did you mean 'simpleqa-verified'" in err
