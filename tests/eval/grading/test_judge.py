"""The judge's prompts and reply parser, the grader choice, and the cascade (rules, then the judge)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.grading.cascade as cascade_module
import factprobe.eval.grading.judge_loader as judge_loader
import factprobe.eval.run.pipeline as pipeline
from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.base import GradeOutcome, HedgingPolicy
from factprobe.eval.grading.cascade import CascadeGrader, GraderConfigError, build_grader
from factprobe.eval.grading.judge import JudgeGrader, read_judge_reply
from factprobe.eval.grading.judge_prompts import JUDGE_POLICIES, JudgePolicyError
from factprobe.eval.grading.rules import RuleGrader
from factprobe.eval.store.run_dir import RunDir
from tests.fakes import ScriptedModel, failing, last_user, write_questions

PARIS = Question(id="q1", question="Which city is the capital of France?", answer="Paris")
NO_ANSWER = Question(id="u1", question="What was Caesar's first pet called?", answer=None, answerable=False)
JUDGE_OPENING = "You grade one answer"


def is_judge_prompt(messages) -> bool:
    return last_user(messages).startswith(JUDGE_OPENING)


# --- the parser: exactly one anchored label line ---------------------------------------------------

@pytest.mark.parametrize("reply, grade", [
    ("It names the capital.\nGrade: CORRECT", Grade.CORRECT),
    ("It names Lyon.\nGrade: INCORRECT.", Grade.INCORRECT),
    ("Nothing is claimed.\ngrade: not attempted", Grade.NOT_ATTEMPTED),
    ("**Grade:** NOT_ATTEMPTED", Grade.NOT_ATTEMPTED),
    ("I would not call this a correct answer.\nGrade: INCORRECT", Grade.INCORRECT),
])
def test_one_label_line_is_read(reply: str, grade: Grade) -> None:
    reading = read_judge_reply(reply)
    assert reading.grade is grade and reading.reason is None


@pytest.mark.parametrize("reply, reason", [
    ("CORRECT", "no `Grade: LABEL` line"),
    ("The grade is CORRECT.", "no `Grade: LABEL` line"),
    ("", "no `Grade: LABEL` line"),
    ("Grade: C", "no valid label"),
    ("Grade: CORRECT, since it names Paris", "no valid label"),
    ("Grade: INCORRECT\nOn reflection:\nGrade: CORRECT", "different grades"),
    ("Grade:\nCORRECT", "the line after `Grade:`"),
    ("It names Paris.\n**Grade:**\n\nNOT_ATTEMPTED", "the line after `Grade:`"),
])
def test_malformed_replies_are_ungraded_with_the_reason(reply: str, reason: str) -> None:
    reading = read_judge_reply(reply)
    assert reading.grade is Grade.UNGRADED
    assert reason in (reading.reason or "")


def test_a_reply_echoing_the_prompt_is_ungraded() -> None:
    judge = JudgeGrader(ScriptedModel(lambda messages, params: last_user(messages) + "\nGrade: CORRECT"))
    outcome = asyncio.run(judge.grade(PARIS, "Paris"))
    assert outcome.grade is Grade.UNGRADED
    assert "echoes the prompt" in (outcome.note or "")


def test_empty_answer_is_not_sent_to_the_judge() -> None:
    judge = JudgeGrader(ScriptedModel(lambda messages, params: "Grade: CORRECT"))
    outcome = asyncio.run(judge.grade(PARIS, "  "))
    assert outcome.grade is Grade.NOT_ATTEMPTED and judge.calls == 0


def test_a_failed_judge_call_is_ungraded() -> None:
    judge = JudgeGrader(ScriptedModel(failing("server down")))
    outcome = asyncio.run(judge.grade(PARIS, "Paris"))
    assert outcome.grade is Grade.UNGRADED and "server down" in (outcome.note or "")


# --- the prompts: each carries its policy, none contains a label line -------------------------------

SIMPLEQA_POLICY = ["last significant figure", "either Lyon or Marseille", "spelling", "Utrecht"]


@pytest.mark.parametrize("name, policy_text, absent", [
    ("simpleqa", SIMPLEQA_POLICY, "Granularity"),
    ("videosimpleqa", [*SIMPLEQA_POLICY, "INCORRECT even if it mentions the gold answer"], "Granularity"),
    ("worldvqa", ["Granularity decides", "a suspension bridge", "look it up elsewhere"], "significant figure"),
])
def test_each_prompt_renders_its_policy(name: str, policy_text: list[str], absent: str) -> None:
    seen: list[str] = []

    def script(messages, params) -> str:
        seen.append(last_user(messages))
        return "The answer names the gold city.\nGrade: CORRECT"

    judge = JudgeGrader(ScriptedModel(script), HedgingPolicy.PENALIZE, prompt=name)
    assert asyncio.run(judge.grade(PARIS, "Paris")).grade is Grade.CORRECT
    prompt = seen[0]
    assert "Gold answer: Paris" in prompt and "Answer to grade: Paris" in prompt
    for text in policy_text:
        assert text in prompt
    assert absent not in prompt
    # the prompt holds no label line of its own, so an echo can never parse as a grade
    assert read_judge_reply(prompt).grade is Grade.UNGRADED
    assert judge.describe()["prompt"] == name
    assert judge.describe()["prompt_version"] == JUDGE_POLICIES[name].version


def test_hedging_setting_reaches_the_default_prompt() -> None:
    silent = ScriptedModel(lambda messages, params: "")
    accept = JudgeGrader(silent, HedgingPolicy.ACCEPT).prompt(PARIS, "Maybe Paris")
    penalize = JudgeGrader(silent, HedgingPolicy.PENALIZE).prompt(PARIS, "Maybe Paris")
    assert "nothing wrong is CORRECT" in accept and "INCORRECT even if it mentions" not in accept
    assert "INCORRECT even if it mentions" in penalize


def test_unanswerable_rule_only_for_unanswerable_questions() -> None:
    judge = JudgeGrader(ScriptedModel(lambda m, p: ""))
    prompt = judge.prompt(NO_ANSWER, "Rex")
    assert "Gold answer: none" in prompt and "No answer exists" in prompt
    assert "No answer exists" not in judge.prompt(PARIS, "Paris")


def test_videosimpleqa_requires_the_penalizing_hedging_policy() -> None:
    with pytest.raises(JudgePolicyError, match="--hedging penalize"):
        JudgeGrader(ScriptedModel(lambda m, p: ""), HedgingPolicy.ACCEPT, prompt="videosimpleqa")


# --- grader choice and the cascade ---------------------------------------------------------------

class UndecidedOn:
    """A stand-in rule grader: UNGRADED for the listed answers, CORRECT otherwise."""

    name = "rules"

    def __init__(self, undecided: set[str]) -> None:
        self.undecided = undecided

    async def grade(self, question: Question, answer: str | None, reply: str | None = None) -> GradeOutcome:
        if answer in self.undecided:
            return GradeOutcome(Grade.UNGRADED, self.name, "free paraphrase")
        return GradeOutcome(Grade.CORRECT, self.name, "matches gold")

    def describe(self) -> dict:
        return {"grader": self.name}


def test_cascade_asks_the_judge_only_where_rules_are_undecided() -> None:
    model = ScriptedModel(lambda messages, params: "A different city.\nGrade: INCORRECT")
    grader = CascadeGrader(UndecidedOn({"the city of light", "on the Seine"}), JudgeGrader(model))
    answers = ["Paris", "the city of light", "Paris, France", "on the Seine", "Paris!"]
    outcomes = [asyncio.run(grader.grade(PARIS, answer)) for answer in answers]
    assert len(model.calls) == 2 and grader.judge_calls == 2
    assert [o.grader for o in outcomes] == ["rules", "judge:scripted", "rules", "judge:scripted", "rules"]
    assert [o.grade for o in outcomes] == [Grade.CORRECT, Grade.INCORRECT, Grade.CORRECT, Grade.INCORRECT,
                                           Grade.CORRECT]
    assert "rules undecided (free paraphrase)" in (outcomes[1].note or "")


def test_cascade_with_the_real_rule_grader_asks_exactly_for_its_undecided() -> None:
    model = ScriptedModel(lambda messages, params: "Grade: CORRECT")
    rules = RuleGrader()
    grader = CascadeGrader(rules, JudgeGrader(model))
    answers = ["Paris", "I don't know", "Lyon", "the French capital on the Seine", "It's Paris, of course."]
    undecided = sum(asyncio.run(rules.grade(PARIS, a)).grade is Grade.UNGRADED for a in answers)
    for answer in answers:
        asyncio.run(grader.grade(PARIS, answer))
    assert len(model.calls) == undecided


@pytest.mark.parametrize("choice, judge, kind", [
    (None, False, RuleGrader), (None, True, JudgeGrader), ("rules", True, RuleGrader),
    ("judge", True, JudgeGrader), ("cascade", True, CascadeGrader),
])
def test_build_grader_defaults_keep_todays_behaviour(choice, judge, kind) -> None:
    model = ScriptedModel(lambda m, p: "") if judge else None
    assert isinstance(build_grader(choice, model), kind)


@pytest.mark.parametrize("prompt, asked", [("simpleqa", False), ("worldvqa", True)])
def test_a_coarser_date_goes_to_the_judge_only_under_a_granularity_policy(prompt: str, asked: bool) -> None:
    """WorldVQA grades a coarser answer INCORRECT, SimpleQA NOT_ATTEMPTED: the rules decide only the latter."""
    model = ScriptedModel(lambda m, p: "Coarser than the gold.\nGrade: INCORRECT")
    grader = build_grader("cascade", model, judge_prompt=prompt)
    question = Question(id="d", question="On what date did the bridge open?", answer="3 May 1932")
    outcome = asyncio.run(grader.grade(question, "1932"))
    assert (len(model.calls) == 1) is asked
    assert outcome.grade is (Grade.INCORRECT if asked else Grade.NOT_ATTEMPTED)


@pytest.mark.parametrize("choice", ["cascade", "judge"])
def test_a_judge_grader_without_a_judge_is_a_config_error(choice: str) -> None:
    with pytest.raises(GraderConfigError, match="needs a judge model"):
        build_grader(choice, None)


def test_judge_prompt_without_a_judge_is_a_config_error() -> None:
    with pytest.raises(GraderConfigError, match="--judge-prompt worldvqa"):
        build_grader(None, None, judge_prompt="worldvqa")


# --- the CLI ------------------------------------------------------------------------------------

def test_cli_cascade_without_judge_exits_2(tmp_path: Path, monkeypatch, capsys) -> None:
    loaded: list[str] = []
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: loaded.append(spec))
    monkeypatch.setattr(judge_loader, "load_model", lambda spec, **kwargs: loaded.append(spec))
    assert cli.main(["run", "--grader", "cascade", "--out", str(tmp_path / "run")]) == 2
    assert "--grader cascade needs a judge model" in capsys.readouterr().err
    assert loaded == [] and not (tmp_path / "run" / "results.jsonl").exists()


def test_cli_videosimpleqa_prompt_with_accepting_hedging_exits_2(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: ScriptedModel(lambda m, p: ""))
    monkeypatch.setattr(judge_loader, "load_model", lambda spec, **kwargs: ScriptedModel(lambda m, p: ""))
    code = cli.main(["run", "--judge", "local", "--judge-prompt", "videosimpleqa",
                     "--out", str(tmp_path / "r")])
    assert code == 2 and "--hedging penalize" in capsys.readouterr().err


def test_cli_cascade_run_records_who_decided(tmp_path: Path, monkeypatch) -> None:
    questions = [Question(id="paris", question="Which city is the capital of France?", answer="Paris"),
                 Question(id="rome", question="Which city is the capital of Italy?", answer="Rome")]
    dataset = tmp_path / "questions.jsonl"
    write_questions(dataset, questions)

    def script(messages, params) -> str:
        if is_judge_prompt(messages):
            return "The answer names the gold city.\nGrade: CORRECT"
        return "Answer: The Eternal City\nConfidence: 60" if "Italy" in last_user(messages) \
            else "Answer: Paris\nConfidence: 90"

    model = ScriptedModel(script)
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: model)
    monkeypatch.setattr(judge_loader, "load_model", lambda spec, **kwargs: model)
    monkeypatch.setattr(cascade_module, "RuleGrader",
                        lambda hedging, candidates=None, coarser=None: UndecidedOn({"The Eternal City"}))
    out = tmp_path / "run"
    assert cli.main(["run", "--dataset", f"jsonl:{dataset}", "--strategies", "vanilla", "--judge", "local",
                     "--grader", "cascade", "--out", str(out)]) == 0
    rows = {row.question_id: row for row in RunDir(out).read_results()}
    assert rows["paris"].grader == "rules" and rows["rome"].grader == "judge:scripted"
    assert rows["rome"].grade == "CORRECT"
    assert sum(is_judge_prompt(messages) for messages, _ in model.calls) == 1
    summary = json.loads((out / "summary.json").read_text())
    judge_calls = [messages for messages, _ in model.calls if is_judge_prompt(messages)]
    judge_tokens = sum(len(m["content"].split()) for m in judge_calls[0])
    assert summary["grading"]["vanilla"] == {"rules_decided": 1, "judge_decided": 1, "undecided": 0,
                                             "judge_calls": 1, "judge_prompt_tokens": judge_tokens,
                                             "judge_completion_tokens": 8, "judge_latency_s": 0.01}
    # the judge's cost is recorded apart: the strategy's own tokens are those of its answer call only
    rome, paris = rows["rome"].model_dump(), rows["paris"].model_dump()
    assert (rome["judge_prompt_tokens"], rome["judge_completion_tokens"]) == (judge_tokens, 8)
    assert paris["judge_prompt_tokens"] is None and paris["judge_latency_s"] is None
    answer_call = next(m for m, _ in model.calls if not is_judge_prompt(m) and "Italy" in last_user(m))
    assert rows["rome"].prompt_tokens == sum(len(m["content"].split()) for m in answer_call)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["config"]["grader"] == "cascade" and manifest["config"]["judge_prompt"] == "simpleqa"
    assert manifest["grader"]["grader"] == "cascade"
    assert manifest["grader"]["judge"]["prompt"] == "simpleqa"
