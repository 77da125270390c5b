"""The outside contract (../shared/docs/contract.md): result and summary keys of a run.

Runs every strategy of a default run on a scripted model over a small multi-hop and unanswerable
set, then checks the keys users and scripts rely on (the strategies run only when named are for
multiple-choice questions; their own tests cover them).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.agents.registry import default_strategies
from factprobe.eval.core.schema import Hop, Passage, Question
from tests.fakes import ScriptedModel, last_user, write_questions

RESULT_KEYS = {"question_id", "strategy", "repeat", "question", "gold", "category", "answer",
               "confidence", "grade", "grader", "latency_s", "prompt_tokens", "completion_tokens",
               "llm_calls", "error", "trace", "hops"}
STRATEGY_KEYS = {"n", "correct", "incorrect", "not_attempted", "ungraded", "errors", "accuracy", "cga",
                 "f_score", "latency_s_mean", "latency_s_p95", "prompt_tokens_mean",
                 "completion_tokens_mean", "llm_calls_mean", "confidence_coverage", "ece", "mce",
                 "brier", "slope", "auroc", "f_score_range", "undecided_share"}
GAIN_KEYS = {"f_score_delta", "accuracy_delta", "ci_low", "ci_high", "p_value", "latency_ratio",
             "tokens_ratio", "undecided_share", "baseline_undecided_share", "undecided_share_gap",
             "grader_bias_warning"}
SUMMARY_KEYS = {"strategies", "baseline", "gains", "per_category", "per_hop", "reliability"}

CORPUS = [Passage(id="p1", title="France", text="Paris is the capital of France."),
          Passage(id="p2", title="Nineteen Eighty-Four", text="George Orwell wrote Nineteen Eighty-Four."),
          Passage(id="p3", title="George Orwell", text="George Orwell was born in Motihari, India.")]

QUESTIONS = [
    Question(id="s1", question="Which city is the capital of France?", answer="Paris", category="geography",
             passage_ids=["p1"], corpus=CORPUS),
    Question(id="s2", question="Which planet is the largest?", answer="Jupiter", category="science",
             corpus=CORPUS),
    Question(id="h1", question="In which country was the author of Nineteen Eighty-Four born?",
             answer="India", category="people", passage_ids=["p2", "p3"], corpus=CORPUS,
             hops=[Hop(question="Who wrote Nineteen Eighty-Four?", answer="George Orwell"),
                   Hop(question="In which country was #1 born?", answer="India")]),
    Question(id="u1", question="Which country will win the 2090 World Cup?", answer=None,
             answerable=False, unanswerable_reason="future", category="sport", corpus=CORPUS),
]


def script(messages, params) -> str:
    text = last_user(messages)
    if "France" in text:
        return "Answer: Paris\nConfidence: 90"
    if "Nineteen Eighty-Four" in text:
        return "Answer: George Orwell\nConfidence: 80"
    if "Orwell" in text:
        return "Answer: India\nConfidence: 60"
    return "Answer: I don't know\nConfidence: 20"


def test_result_and_summary_keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: ScriptedModel(script))
    data = tmp_path / "q.jsonl"
    write_questions(data, QUESTIONS)
    out = tmp_path / "run"
    names = [*default_strategies(), "recorded"]
    answers = tmp_path / "answers.jsonl"     # what the recorded strategy grades
    answers.write_text("".join(json.dumps({"id": q.id, "answer": "Paris", "confidence": 50}) + "\n"
                               for q in QUESTIONS), encoding="utf-8")
    assert cli.main(["run", "--dataset", f"jsonl:{data}", "--strategies", ",".join(names),
                     "--answers", str(answers), "--out", str(out)]) == 0
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert len(rows) == len(QUESTIONS) * len(names)
    for row in rows:
        assert RESULT_KEYS <= set(row), f"{row['strategy']}: missing {RESULT_KEYS - set(row)}"
        assert row["grade"] != "ERROR", f"{row['strategy']} failed: {row['error']}"
    summary = json.loads((out / "summary.json").read_text())
    assert SUMMARY_KEYS <= set(summary), f"missing {SUMMARY_KEYS - set(summary)}"
    for name in names:
        assert STRATEGY_KEYS <= set(summary["strategies"][name]), \
            f"{name}: missing {STRATEGY_KEYS - set(summary['strategies'][name])}"
        assert len(summary["reliability"][name]) == 10
    assert summary["baseline"] == "vanilla"
    for name in names:
        if name != "vanilla":
            assert GAIN_KEYS <= set(summary["gains"][name])
    manifest = json.loads((out / "manifest.json").read_text())
    assert {"factprobe_version", "started_utc", "command", "config", "python", "packages"} <= set(manifest)
    assert manifest["grader"]["hedging"] == "accept"
