"""One grading service, one error policy: the answer, hop probes, test-time-compute samples and a
multiple-choice row are all graded through the run's GradingService; a grader that raises leaves
an UNGRADED grade with the (redacted) reason, never an invented grade, counted as undecided; on
--resume a row keeps the grading policy it was graded under."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.grading.judge_loader as judge_loader
import factprobe.eval.run.pipeline as pipeline
from factprobe.agents.models.base import ModelError
from factprobe.eval.core.schema import Grade, Hop, Question
from factprobe.eval.grading.base import GradeOutcome
from factprobe.eval.grading.service import GradingService
from factprobe.eval.store.run_dir import RunDir
from tests.fakes import ScriptedModel, last_user, write_questions

SECRET = "sk-" + "q7" * 12
TOWER = Question(id="tower", question="In which city stands the tower built by the company of Gustave Eiffel?",
                 answer="Paris",
                 hops=[Hop(question="Which company built the tower?", answer="Eiffel"),
                       Hop(question="In which city stands the tower built by #1?", answer="Paris")])
METAL = Question(id="metal", question="Which metal is liquid at room temperature?", answer="Mercury",
                 choices=["Iron", "Mercury", "Lead"])


class PickyGrader:
    """Raises on any answer naming Lyon (with a key in the message); exact match otherwise."""

    name = "picky"

    def __init__(self) -> None:
        self.calls = 0

    async def grade(self, question: Question, answer: str | None) -> GradeOutcome:
        self.calls += 1
        if answer and "Lyon" in answer:
            raise RuntimeError(f"cannot grade this one (token {SECRET})")
        golds = [g.casefold() for g in question.gold_answers]
        return GradeOutcome(Grade.CORRECT if (answer or "").casefold() in golds else Grade.INCORRECT, self.name)

    def describe(self) -> dict:
        return {"grader": self.name}


def mapper_reply(text: str, broken: dict[str, bool]) -> str:
    """The run's judge mapping an answer to a letter (the model under test is never asked)."""
    if broken["on"]:
        raise ModelError(f"mapper down (key {SECRET})")
    return next(letter for letter, option in re.findall(r"^([A-Z])\. (.+)$", text, re.MULTILINE)
                if option == "Mercury")


def answer_script(broken: dict[str, bool]):
    def script(messages, params) -> str:
        text = last_user(messages)
        assert not text.startswith("A reply to a multiple-choice question")
        if "Which company" in text:
            return "Answer: Eiffel\nConfidence: 90"
        if "metal" in text:
            return "Answer: I think quicksilver\nConfidence: 60"
        return "Answer: Lyon\nConfidence: 40"
    return script


def judge_script(broken: dict[str, bool]):
    def script(messages, params) -> str:
        text = last_user(messages)
        if text.startswith("A reply to a multiple-choice question"):
            return mapper_reply(text, broken)
        answer = text.split("Answer to grade: ", 1)[1].split("\n", 1)[0]
        gold = text.split("Gold answer: ", 1)[1].split("\n", 1)[0]
        if "Lyon" in answer and broken["on"]:
            raise RuntimeError(f"judge crashed (key {SECRET})")
        return f"Reasoned.\nGrade: {'CORRECT' if answer.casefold() in gold.casefold() else 'INCORRECT'}"
    return script


@pytest.fixture
def spied(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str, str]]:
    """Every GradingService.grade call: (service id, question id, grader asked)."""
    calls: list[tuple[int, str, str]] = []
    original = GradingService.grade

    async def grade(self, question, answer, reply=None, by=None):
        calls.append((id(self), question.id, (by or self.grader).name))
        return await original(self, question, answer, reply, by)

    monkeypatch.setattr(GradingService, "grade", grade)
    return calls


def assert_failed_note(note: str, kind: str) -> None:
    assert note.startswith(f"grader failed: {kind}") and SECRET not in note and "[redacted]" in note


@pytest.mark.parametrize("grader_kind", ["raising", "judge"])
def test_probes_samples_and_choices_share_the_answers_grader_and_policy(tmp_path: Path, monkeypatch, spied,
                                                                        grader_kind: str) -> None:
    broken = {"on": True}
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: ScriptedModel(answer_script(broken)))
    options: list[str] = []
    picky = PickyGrader()
    if grader_kind == "raising":
        monkeypatch.setattr(pipeline, "build_grader", lambda *args, **kwargs: picky)
        name = "picky"
    else:
        judge = ScriptedModel(judge_script(broken), name="judge")
        monkeypatch.setattr(judge_loader, "load_model", lambda spec, **kwargs: judge)
        options, name = ["--judge", "judge"], "judge:judge"
    data = write_questions(tmp_path / "q.jsonl", [TOWER, METAL])
    out = tmp_path / "run"
    assert cli.main(["run", "--dataset", f"jsonl:{data}", "--strategies", "vanilla,best_of_n", "--samples", "2",
                     "--selector", "majority", "--out", str(out), "--max-error-rate", "1", "--max-undecided-rate", "1",
                     *options]) == 0
    rows = {(r.question_id, r.strategy): r for r in RunDir(out).read_results()}

    answer = rows[("tower", "vanilla")]
    assert answer.grade is Grade.UNGRADED and answer.grader == name
    assert_failed_note(answer.grade_note, "RuntimeError")
    probes = answer.hop_probes
    assert [(p["answer"], p["grade"], p["grader"]) for p in probes] == [
        ("Eiffel", "CORRECT", name), ("Lyon", "UNGRADED", name)]
    assert probes[1]["error"] is None                    # the model answered; only the grade is undecided
    assert_failed_note(probes[1]["grade_note"], "RuntimeError")
    samples = rows[("tower", "best_of_n")].samples
    assert samples and all(s["grade"] == "UNGRADED" and s["grader"] == name for s in samples)
    assert_failed_note(samples[0]["grade_note"], "RuntimeError")

    choice = rows[("metal", "vanilla")]
    assert choice.grader == "multiple_choice"
    if grader_kind == "judge":                                    # the judge maps; its call failed
        assert choice.grade is Grade.UNGRADED
        assert_failed_note(choice.grade_note, "ChoiceMappingError")
        assert "multiple_choice" in choice.post_step_errors
    else:                                                         # no judge to map: counted wrong, as the benchmarks do
        assert choice.grade is Grade.INCORRECT and "counted wrong" in choice.grade_note

    assert len({service for service, _, _ in spied}) == 1          # one service for the whole run
    asked = [grader for _, _, grader in spied]
    assert set(asked) == {name, "multiple_choice"}
    if grader_kind == "raising":                                  # no grading call bypassed the service
        assert picky.calls == asked.count("picky")
    summary = json.loads((out / "summary.json").read_text())["strategies"]
    if grader_kind == "judge":
        assert summary["vanilla"]["ungraded"] == 2 and summary["vanilla"]["incorrect"] == 0
        assert summary["vanilla"]["accuracy"] is None             # nothing decided: no invented score
    else:                                                         # the unmapped choice is the one decided row
        assert summary["vanilla"]["ungraded"] == 1 and summary["vanilla"]["incorrect"] == 1

    if grader_kind != "judge":
        return
    broken["on"] = False
    assert cli.main(["run", "--resume", "--out", str(out)]) == 0
    latest = RunDir(out).latest()
    regraded = latest[("tower", "vanilla", 0)]
    assert regraded.grade is Grade.INCORRECT and regraded.grader == name
    assert regraded.grade_note.startswith("re-graded on resume")
    mc = latest[("metal", "vanilla", 0)]
    assert mc.grader == "multiple_choice" and mc.grade is Grade.CORRECT      # still graded by its letter


def test_the_policy_redacts_and_never_invents_a_grade() -> None:
    class Leaky:
        name = "leaky"

        async def grade(self, question, answer):
            if answer == "boom":
                raise ValueError(f"bad reply from server, Authorization: Bearer {SECRET}")
            return GradeOutcome(Grade.CORRECT, self.name, f"matched; echoed key {SECRET}")

        def describe(self) -> dict:
            return {"grader": self.name}

    service = GradingService(GradingService(Leaky()))             # wrapping twice is one service
    assert service.grader.name == "leaky"
    failed = asyncio.run(service.grade(TOWER, "boom"))
    assert failed.grade is Grade.UNGRADED and failed.grader == "leaky" and failed.error
    assert_failed_note(failed.note, "ValueError")
    decided = asyncio.run(service.grade(TOWER, "Paris"))
    assert decided.grade is Grade.CORRECT and SECRET not in decided.note


def test_resume_regrades_only_rows_its_own_grader_left_undecided() -> None:
    """A row another grader (the multiple-choice letter) left UNGRADED is not the run grader's to decide."""
    from factprobe.agents.models.base import ChatModel
    from factprobe.eval.core.schema import Result
    from factprobe.eval.grading.cascade import build_grader

    judge: ChatModel = ScriptedModel(lambda m, p: "Grade: CORRECT", name="judge")
    service = GradingService(build_grader("cascade", judge))
    row = {"question_id": "q", "strategy": "vanilla", "question": "Q?", "gold": "a", "category": "c",
           "grade": "UNGRADED"}
    assert service.regrades(Result.model_validate({**row, "grader": "rules"}))
    assert service.regrades(Result.model_validate({**row, "grader": "judge:judge"}))
    assert not service.regrades(Result.model_validate({**row, "grader": "multiple_choice"}))
    assert not service.regrades(Result.model_validate({**row, "grade": "INCORRECT", "grader": "rules"}))


def test_the_decomposition_record_uses_the_runs_grader_not_the_rules() -> None:
    """A paraphrase only the run's grader accepts counts as a match; a grade it cannot give is
    undecided (None), never a miss."""
    from factprobe.decomposition.hop_steps import chain_hops
    from factprobe.eval.core.schema import HopResult
    from factprobe.eval.run.steps import PostStepInput

    class Lenient(PickyGrader):
        name = "lenient"

        async def grade(self, question, answer):
            if answer == "Gustave's engineering firm" and question.answer == "Eiffel":
                return GradeOutcome(Grade.CORRECT, self.name)
            return await super().grade(question, answer)

    hops = [HopResult(question="Which company built the tower?", gold=None, answer="Gustave's engineering firm"),
            HopResult(question="In which city stands it?", gold=None, answer="Lyon")]
    state = {"hops": hops, "extra": {"decomposition": {"decomposer": "model"}}}
    data = PostStepInput(TOWER, state, "decompose", 0, None, GradingService(Lenient()), None)  # type: ignore[arg-type]
    out = asyncio.run(chain_hops(data))
    assert [hop.grade for hop in out["hops"]] == [Grade.CORRECT, Grade.UNGRADED]
    record = out["decomposition"]
    assert record["hop_answer_matches"] == [True, None]
    assert record["gold_answers_recovered"] == 1 and record["gold_answers_undecided"] == 1
