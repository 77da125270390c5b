"""Every key a run writes to results.jsonl is a declared field of `factprobe.Result`; rows of the
first layout (no `schema_version`, the added fields as loose keys) still load; a multiple-choice
row keeps the free-text grade beside its choice grade.

The full run answers on scripted fakes (no model is loaded); the media run answers on the
vision fake of tests/eval/media, an OpenAI-compatible server the test starts on 127.0.0.1.
"""

from __future__ import annotations

import json
import math

import pytest
from PIL import Image

import factprobe
import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.agents.models.base import Completion
from factprobe.eval.core.schema import ROW_SCHEMA_VERSION, Grade, Question, Result, TokenLogprob
from factprobe.eval.store.run_dir import RunDir
from tests.eval.media.conftest import run_with_media
from tests.fakes import ScriptedModel, last_user, write_questions
from tests.test_contract import CORPUS, QUESTIONS

STRATEGIES = ["vanilla", "best_of_n", "decompose", "rag", "refusal", "self_refine", "recorded"]
CHOICE = Question(id="planet", question="Which planet has the shortest year?", choices=["Venus", "Mercury", "Mars"],
                  answer="Mercury", media_id="clip", corpus=CORPUS)
UNKNOWN = Question(id="chess", question="Who won the 1903 chess open?", answer="Someone", corpus=CORPUS)


class LogprobModel(ScriptedModel):
    """A scripted model that also returns token log-probabilities (for token_prob and p_true)."""

    supports_logprobs = True

    async def generate(self, messages, params) -> Completion:
        completion = await super().generate(messages, params)
        if params.logprobs:
            top = {"True": math.log(0.6), "False": math.log(0.3)}
            completion.logprobs = [TokenLogprob(token=piece, logprob=math.log(0.6), top=top)
                                   for piece in completion.text.split()]
        return completion


def script(messages, params) -> str:
    text = last_user(messages)
    if "Proposed answer" in text:
        return "True"
    if text.startswith("A reply to a multiple-choice question"):
        return "B"
    if "France" in text:
        return "Answer: Paris\nConfidence: 90"
    if "Nineteen Eighty-Four" in text:
        return "Answer: George Orwell\nConfidence: 80"
    if "Orwell" in text:
        return "Answer: India\nConfidence: 60"
    if "shortest year" in text:
        return "Answer: I reckon it is Mercury\nConfidence: 70"    # no rule maps it: the judge does
    return "Answer: I don't know\nConfidence: 20"


@pytest.fixture(scope="module")
def full_run(tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    """Every strategy of a default run and `recorded`, every confidence method, every post step,
    a multiple-choice question and a judge; the rows as written."""
    root = tmp_path_factory.mktemp("full-run")
    questions = [*QUESTIONS, CHOICE, UNKNOWN]
    data = write_questions(root / "q.jsonl", questions)
    answers = root / "answers.jsonl"
    answers.write_text("".join(json.dumps({"id": q.id, "answer": "Paris", "confidence": 50}) + "\n"
                               for q in questions), encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FACTPROBE_CACHE", str(root / "cache"))
        patch.setattr(pipeline, "load_model", lambda spec, **kwargs: LogprobModel(script))
        patch.setattr(pipeline, "load_judge", lambda spec, **kwargs: LogprobModel(script, name="judge"))
        status = cli.main(["run", "--dataset", f"jsonl:{data}", "--strategies", ",".join(STRATEGIES),
                           "--answers", str(answers), "--judge", "openai:judge", "--grader", "rules",
                           "--confidence", "verbal,token_prob,consistency,p_true", "--samples", "3",
                           "--out", str(root / "run")])
    assert status == 0
    return [json.loads(line) for line in (root / "run" / "results.jsonl").read_text().splitlines()]


def test_every_key_a_full_run_writes_is_declared(full_run) -> None:
    written = set().union(*map(set, full_run))
    assert written <= set(Result.model_fields), f"undeclared: {sorted(written - set(Result.model_fields))}"
    # the run reached every part that adds keys: the test would pass vacuously otherwise
    assert {"multiple_choice", "forced_answer", "confidence_trace", "hop_probes", "decomposition",
            "prefix_picks", "media_id", "judge_latency_s", "wall_s", "fields", "grades"} <= written
    assert {row["schema_version"] for row in full_run} == {ROW_SCHEMA_VERSION}
    assert all(row["grade"] != "ERROR" for row in full_run), [row["error"] for row in full_run if row["error"]]


def test_a_choice_row_keeps_its_free_text_grade(full_run) -> None:
    recorded = next(row for row in full_run if row["question_id"] == "planet" and row["strategy"] == "recorded")
    # "Paris" is wrong as free text; the judge maps it to B, the gold letter of every order shown
    assert recorded["grader"] == "multiple_choice" and recorded["grade"] == recorded["grades"]["multiple_choice"]
    assert recorded["grades"]["rules"] == "INCORRECT"
    assert all(set(row["grades"]) == {row["grader"]} for row in full_run if row["question_id"] != "planet")


def test_a_media_run_declares_its_keys(tmp_path, monkeypatch) -> None:
    media = tmp_path / "media"
    media.mkdir()
    Image.new("RGB", (64, 48), (200, 30, 30)).save(media / "red.png")
    data = tmp_path / "q.jsonl"
    data.write_text(json.dumps({"id": "img", "question": "Which city is this?", "answer": "Paris",
                                "media": ["red.png"]}) + "\n", encoding="utf-8")
    monkeypatch.setenv("FACTPROBE_CACHE", str(tmp_path / "cache"))
    status, _ = run_with_media(data, media, tmp_path / "run")
    assert status == 0
    rows = [json.loads(line) for line in (tmp_path / "run" / "results.jsonl").read_text().splitlines()]
    written = set().union(*map(set, rows))
    assert {"modality", "images", "images_sent"} <= written <= set(Result.model_fields)


OLD_ROW = {"question_id": "q1", "strategy": "vanilla", "repeat": 0, "question": "Capital of France?",
           "gold": "Paris", "category": "geo", "answerable": True, "hop_count": 1, "answer": "Paris", "raw": "Paris",
           "confidence": 90.0, "confidences": {"verbal": 90.0}, "grade": "CORRECT", "grader": "multiple_choice",
           "grade_note": None, "latency_s": 0.1, "retrieval_latency_s": 0.0, "llm_latency_s": 0.1,
           "prompt_tokens": 5, "completion_tokens": 2, "llm_calls": 1, "error": None, "trace": [], "hops": None,
           "samples": None, "retrieved_ids": None, "gold_passage_ids": None,
           "judge_prompt_tokens": None, "judge_completion_tokens": None, "judge_latency_s": None,
           "multiple_choice": {"letter": "A", "mapped_by": "rule"}, "confidence_calls": 2, "wall_s": 0.2,
           "forced_grade": "INCORRECT", "my_plugin_score": 7}


def test_a_row_of_the_first_layout_still_loads(tmp_path) -> None:
    """A run directory written before rows had a schema version: its rows load, their loose keys
    read as the declared fields, a plugin's own key stays an extra, and they dump as written."""
    out = tmp_path / "old"
    out.mkdir()
    (out / "manifest.json").write_text("{}", encoding="utf-8")
    (out / "results.jsonl").write_text(json.dumps(OLD_ROW) + "\n", encoding="utf-8")
    row = factprobe.load_run(out).results[0]
    assert row.schema_version == 1 and row.grades is None and row.grade is Grade.CORRECT
    assert row.multiple_choice == {"letter": "A", "mapped_by": "rule"} and row.forced_grade is Grade.INCORRECT
    assert row.extra_field("confidence_calls") == 2 and row.extra_field("my_plugin_score") == 7
    assert row.model_extra == {"my_plugin_score": 7}
    assert json.loads(row.model_dump_json()) == OLD_ROW
    assert [slim.extra_field("multiple_choice") for slim in RunDir(out).latest_slim()] == [OLD_ROW["multiple_choice"]]

