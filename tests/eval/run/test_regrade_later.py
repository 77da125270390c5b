"""Grading later is one command: `factprobe run --resume --out DIR --judge SPEC` grades the rows a
run left UNGRADED from their stored answers, without asking (or even reaching) the model, and the
manifest records the judge; every other option must still match. The hints print that command.

Real judge services are unreachable here, so the path is tested against OpenAI-compatible servers
the test starts on 127.0.0.1 (tests.fakes): the answering model, which counts every request it gets
(chat and model list), and the judge."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.run.failures import EXIT_TOO_MANY_ERRORS
from factprobe.eval.store.run_dir import RunDir
from tests.fakes import SERVED_MODEL, ChatServer, FaultServer, write_questions

QUESTIONS = [
    # "Leaves" is part of the gold only: the rules leave it UNGRADED
    Question(id="leaves", question="What does the giraffe mostly eat?", answer="acacia leaves", category="nature"),
    # and conflict with this gold: INCORRECT, decided by the rules
    Question(id="tokyo", question="Which city is the capital of Japan?", answer="Tokyo", category="geography"),
]
REPLY = "Answer: Leaves\nConfidence: 30"


def judge_reply(body: dict) -> str:
    return "The answer names the gold's food.\nGrade: CORRECT"


@pytest.fixture
def model() -> FaultServer:
    with FaultServer(["ok"], reply=REPLY) as server:
        yield server


@pytest.fixture
def judge() -> ChatServer:
    with ChatServer(judge_reply, model="judge") as server:
        yield server


def first_run(tmp_path: Path, model: FaultServer, *extra: str) -> tuple[int, Path]:
    """A run graded by the rules alone, with no response cache (a model call would reach the server)."""
    data, out = write_questions(tmp_path / "q.jsonl", QUESTIONS), tmp_path / "run"
    status = cli.main(["run", "--dataset", f"jsonl:{data}", "--strategies", "vanilla", "--no-cache",
                       "--model", f"openai:{SERVED_MODEL}@{model.url}", "--out", str(out), *extra])
    return status, out


def requests(server: FaultServer) -> int:
    return server.requests + server.model_requests


def test_a_judge_given_with_resume_grades_the_ungraded_rows_without_the_model(
        tmp_path: Path, model: FaultServer, judge: ChatServer, capsys: pytest.CaptureFixture[str]) -> None:
    status, out = first_run(tmp_path, model)
    printed = capsys.readouterr().out
    assert status == 0
    first = RunDir(out).latest()
    assert first[("leaves", "vanilla", 0)].grade is Grade.UNGRADED
    assert first[("tokyo", "vanilla", 0)].grade is Grade.INCORRECT
    hint = f"factprobe run --resume --out {out} --judge MODEL"
    assert hint in " ".join(printed.split())                # the warning prints the command that works
    asked = requests(model)
    spec = f"openai:judge@{judge.url}"
    assert cli.main(hint.replace("MODEL", spec).split()[1:]) == 0
    assert requests(model) == asked                          # the model was neither asked nor reached
    assert len(judge.chats()) == 1                           # only the UNGRADED row went to the judge
    latest = RunDir(out).latest()
    regraded = latest[("leaves", "vanilla", 0)]
    assert regraded.grade is Grade.CORRECT and regraded.answer == "Leaves"
    assert regraded.grade_note.startswith("re-graded on resume (was UNGRADED: ")
    assert latest[("tokyo", "vanilla", 0)] == first[("tokyo", "vanilla", 0)]    # a decided grade stands
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["config"]["judge"] == spec and manifest["config"]["grader"] == "cascade"
    assert manifest["grader"]["grader"] == "cascade"
    [entry] = manifest["regraded_with"]
    assert entry["judge"] == spec and entry["previous_judge"] is None
    assert entry["previous_grader"]["grader"] == "rules"
    assert json.loads((out / "summary.json").read_text())["strategies"]["vanilla"]["ungraded"] == 0
    # the judge is now the run's: a plain --resume finds nothing to do and asks no one
    assert cli.main(["run", "--resume", "--out", str(out)]) == 0
    assert requests(model) == asked and len(judge.chats()) == 1


def test_a_new_judge_re_grades_what_the_runs_failing_judge_left(
        tmp_path: Path, model: FaultServer, judge: ChatServer) -> None:
    with FaultServer(["500"]) as failing:
        status, out = first_run(tmp_path, model, "--judge", f"openai:{SERVED_MODEL}@{failing.url}",
                                "--max-retries", "0", "--max-undecided-rate", "1")
    assert status == 0
    assert {row.grade for row in RunDir(out).latest().values()} == {Grade.UNGRADED}
    asked = requests(model)
    assert cli.main(["run", "--resume", "--out", str(out), "--judge", f"openai:judge@{judge.url}"]) == 0
    assert requests(model) == asked and len(judge.chats()) == 2
    assert {row.grade for row in RunDir(out).latest().values()} == {Grade.CORRECT}
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["config"]["grader"] is None               # the run's own choice: judge with --judge
    assert manifest["regraded_with"][0]["previous_judge"].endswith(failing.url)


def test_other_options_must_still_match_and_exit_3_prints_the_command(
        tmp_path: Path, model: FaultServer, judge: ChatServer, capsys: pytest.CaptureFixture[str]) -> None:
    status, out = first_run(tmp_path, model, "--max-undecided-rate", "0.2")
    err = " ".join(capsys.readouterr().err.split())
    assert status == EXIT_TOO_MANY_ERRORS
    assert f"`factprobe run --resume --out {out} --judge MODEL`" in err
    assert cli.main(["run", "--resume", "--out", str(out), "--judge", f"openai:judge@{judge.url}",
                     "--seed", "5"]) == 2
    err = capsys.readouterr().err
    assert "differ from its manifest: seed. Start a new run" in err
    assert judge.chats() == [] and "regraded_with" not in json.loads((out / "manifest.json").read_text())
