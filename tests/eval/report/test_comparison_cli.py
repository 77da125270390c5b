"""`factprobe run` with the test-time-compute and refusal strategies end to end on a scripted model,
and `factprobe report` rebuilding gains, ttc, self_awareness and repeats from results.jsonl alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.eval.analysis.metrics import grade_metrics
from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.phrases import REFUSAL_PHRASE
from factprobe.eval.store.run_dir import RunDir
from tests.fakes import ScriptedModel, last_user, write_questions

QUESTIONS = [
    Question(id="fr", question="Which city is the capital of France?", answer="Paris"),
    Question(id="it", question="Which city is the capital of Italy?", answer="Rome"),
    Question(id="au", question="What is the chemical symbol for gold?", answer="Au"),
    Question(id="de", question="Which city is the capital of Germany?", answer="Berlin"),
    Question(id="future", question="Who will win the 2090 election?", answer=None, answerable=False),
]
STRATEGIES = "vanilla,best_of_n,self_refine,refusal"


def script(messages, params) -> str:
    text = last_user(messages)
    if "Candidate answers" in text:
        return "Best: 2"
    if "Proposed answer" in text:
        return "Verdict: KEEP" if "Paris" in text else "Verdict: REVISE"
    if "Previous answer" in text:
        if "gold" in text:  # a wrong symbol: the rules compare symbols with symbols, not with words
            return "Answer: Ag\nConfidence: 30"
        return "Answer: Rome\nConfidence: 60" if "Italy" in text else "Answer: Bonn\nConfidence: 30"
    refusal = REFUSAL_PHRASE in text
    if "France" in text:
        return "Answer: Paris\nConfidence: 90" if params.sample_index != 2 else "Answer: Lyon\nConfidence: 50"
    if "Italy" in text:
        return f"Answer: {'Rome' if params.sample_index % 2 else 'Milan'}\nConfidence: 70"
    if "gold" in text:
        return f"Answer: {REFUSAL_PHRASE}\nConfidence: 0" if refusal else "Answer: Au\nConfidence: 80"
    if "Germany" in text:
        return f"Answer: {REFUSAL_PHRASE}" if refusal else "Answer: Munich\nConfidence: 40"
    return f"Answer: {REFUSAL_PHRASE}" if refusal else "Answer: Alice\nConfidence: 20"


@pytest.fixture
def run_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, ScriptedModel]:
    data = tmp_path / "questions.jsonl"
    write_questions(data, QUESTIONS)
    model = ScriptedModel(script)
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: model)
    out = tmp_path / "run"
    code = cli.main(["run", "--dataset", f"jsonl:{data}", "--strategies", STRATEGIES, "--samples", "4",
                     "--selector", "model", "--repeats", "2", "--out", str(out), "--verbose"])
    assert code == 0
    return out, model


def test_rows_record_samples_rounds_and_forced_reasks(run_dir) -> None:
    out, _ = run_dir
    rows = RunDir(out).read_results()
    assert len(rows) == len(QUESTIONS) * 4 * 2
    assert not [row.error for row in rows if row.error]
    for row in rows:
        if row.strategy == "best_of_n":
            assert [s["sample_index"] for s in row.samples] == [1, 2, 3, 4]
            assert all(s["grade"] in {g.value for g in Grade} for s in row.samples)
            assert row.llm_calls == 5                       # 4 samples + 1 selection; prefix picks apart
            assert [p["n"] for p in row.prefix_picks] == [2]
        if row.strategy == "self_refine":
            assert [s["round"] for s in row.samples][0] == 0 and all("grade" in s for s in row.samples)
        if row.strategy == "refusal":
            assert row.llm_calls == 1
            refused_known = row.answerable and row.grade is Grade.NOT_ATTEMPTED
            assert (getattr(row, "forced_grade", None) is not None) == refused_known
    forced = {row.question_id: row.forced_grade for row in rows
              if row.strategy == "refusal" and getattr(row, "forced_grade", None)}
    assert forced == {"au": "CORRECT", "de": "INCORRECT"}


def test_summary_has_gains_ttc_self_awareness_and_repeats(run_dir) -> None:
    out, _ = run_dir
    summary = json.loads((out / "summary.json").read_text())
    assert summary["baseline"] == "vanilla"
    assert set(summary["gains"]) == {"best_of_n", "self_refine", "refusal"}
    for gain in summary["gains"].values():
        assert gain["n_pairs"] == 8 and gain["n_resamples"] >= 1000
        for key in ("f_score_delta", "accuracy_delta", "ci_low", "ci_high", "p_value", "latency_ratio",
                    "tokens_ratio"):
            assert key in gain
    assert summary["gains"]["best_of_n"]["tokens_ratio"] > 4
    assert set(summary["ttc"]) == {"best_of_n", "self_refine"}
    rows = [r for r in RunDir(out).read_results() if r.strategy == "best_of_n" and r.answerable]
    first = grade_metrics(Grade(r.samples[0]["grade"]) for r in rows)["accuracy"]
    curve = summary["ttc"]["best_of_n"]
    assert curve["n"] == [1, 2, 4] and curve["selector"] == "model"
    assert curve["accuracy"][0] == pytest.approx(first)
    assert curve["accuracy"][-1] == pytest.approx(summary["strategies"]["best_of_n"]["accuracy"])
    assert summary["ttc"]["self_refine"]["n"] == [0, 1, 2]
    refusal = summary["self_awareness"]["refusal"]
    # per repeat: fr known known, it answered wrong, au unknown known, de and future known unknowns
    assert (refusal["known_knowns"], refusal["known_unknowns"], refusal["unknown_knowns"]) == (2, 4, 2)
    assert refusal["score_sa"] == pytest.approx(6 / 10)
    assert summary["repeats"]["vanilla"]["n_repeats"] == 2
    assert (out / "ttc.png").stat().st_size > 0


def test_report_rebuilds_the_comparison_from_results_alone(run_dir) -> None:
    out, model = run_dir
    before = json.loads((out / "summary.json").read_text())
    (out / "summary.json").unlink()
    (out / "ttc.png").unlink()
    calls = len(model.calls)
    assert cli.main(["report", str(out)]) == 0
    after = json.loads((out / "summary.json").read_text())
    assert len(model.calls) == calls
    for key in ("gains", "ttc", "self_awareness", "repeats", "strategies"):
        assert after[key] == before[key], key
    assert (out / "ttc.png").is_file()


@pytest.mark.parametrize("option", [["--samples", "0"], ["--selector", "vibes"], ["--rounds", "-1"]])
def test_bad_strategy_options_are_clear_errors(tmp_path, monkeypatch, capsys, option) -> None:
    data = tmp_path / "q.jsonl"
    data.write_text(QUESTIONS[0].model_dump_json() + "\n")
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: ScriptedModel(script))
    code = cli.main(["run", "--dataset", f"jsonl:{data}", "--strategies", "best_of_n,self_refine",
                     "--out", str(tmp_path / "r"), *option])
    assert code == 2
    assert option[0] in capsys.readouterr().err


def test_the_main_table_shows_paired_gains_and_the_spread_over_repeats(capsys, run_dir) -> None:
    printed = capsys.readouterr().out
    assert "Strategies vs vanilla" in printed and "F±sd" in printed and "[95% CI]" in printed
    assert "Test-time compute" in printed and "Self-awareness" in printed
