"""Strategy behaviour follows the registry's flags, not the strategy's name: a variant name such as
`best_of_n@text` (from `--modality`) keeps its test-time-compute curves and prefix picks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.eval.core.schema import Question
from factprobe.eval.store.run_dir import RunDir
from tests.fakes import ScriptedModel, last_user, write_questions

QUESTIONS = [
    Question(id="q1", question="Which river flows through Vienna?", answer="Danube"),
    Question(id="q2", question="Which planet is closest to the Sun?", answer="Mercury"),
]


def script(messages, params) -> str:
    text = last_user(messages)
    if "Candidate answers" in text:
        return "Best: 1"
    if "Proposed answer" in text:
        return "Verdict: REVISE"
    if "Previous answer" in text:
        return "Answer: Danube\nConfidence: 70" if "Vienna" in text else "Answer: Mercury\nConfidence: 70"
    if "Vienna" in text:
        return "Answer: Danube\nConfidence: 80" if params.sample_index % 2 else "Answer: Rhine\nConfidence: 40"
    return "Answer: Venus\nConfidence: 30"


def test_variants_under_modality_keep_curves_and_prefix_picks(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    data = write_questions(tmp_path / "questions.jsonl", QUESTIONS)
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: ScriptedModel(script))
    out = tmp_path / "run"
    code = cli.main(["run", "--dataset", f"jsonl:{data}", "--strategies", "vanilla,best_of_n,self_refine",
                     "--modality", "text", "--samples", "4", "--selector", "model", "--rounds", "2",
                     "--out", str(out)])
    assert code == 0
    rows = RunDir(out).read_results()
    picked = [row for row in rows if row.strategy == "best_of_n@text"]
    assert len(picked) == len(QUESTIONS)
    assert all([p["n"] for p in row.prefix_picks] == [2] for row in picked)
    summary = json.loads((out / "summary.json").read_text())
    assert set(summary["ttc"]) == {"best_of_n@text", "self_refine@text"}
    assert summary["ttc"]["best_of_n@text"]["n"] == [1, 2, 4]
    assert summary["ttc"]["self_refine@text"]["unit"] == "rounds"
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["strategy_flags"]["best_of_n@text"]["selects"] is True
    assert manifest["strategy_flags"]["self_refine@text"]["refines"] is True
