"""Calibration: metrics cross-checked against scikit-learn, the confidence methods on scripted
models, the exclusions, and the summary, table and plots of a run."""

from __future__ import annotations

import asyncio
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest
from sklearn.calibration import calibration_curve
from sklearn.metrics import brier_score_loss, roc_auc_score

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.agents.context import StrategyContext
from factprobe.agents.models.base import Completion, ModelError
from factprobe.calibration.answer_span import answer_span, answer_tokens
from factprobe.calibration.intervals import (
    Cells,
    auroc_ci,
    batched_auroc,
    batched_ece,
    batched_ece_debiased_squared,
    bootstrap_ci,
    calibration_metrics,
    ece_debiased_ci,
    reliability_table,
)
from factprobe.calibration.metrics import (
    _squared_errors,
    accuracy_at_coverage,
    aurc,
    auroc,
    average_ranks,
    bin_index,
    brier,
    ece,
    ece_debiased,
    equal_mass_edges,
    mce,
    reliability_bins,
    risk_coverage,
    weighted_slope,
)
from factprobe.calibration.post_step import confidence_step
from factprobe.calibration.rows import calibration_set
from factprobe.eval.analysis.summary import build_summary
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.core.schema import CallRecord, Grade, Question, Result, TokenLogprob
from factprobe.eval.run.steps import PostStepInput
from factprobe.eval.store.run_dir import RunDir
from tests.fakes import ScriptedModel, last_user, write_questions

TOL = 1e-9


def random_set(seed: int, n: int = 500) -> tuple[np.ndarray, np.ndarray]:
    """Confidences off the bin edges (x.5), outcomes drawn at a miscalibrated rate."""
    rng = np.random.default_rng(seed)
    conf = rng.integers(0, 100, size=n) + 0.5
    correct = rng.random(n) < (conf / 100.0) ** 2
    return conf, correct


# --- metrics against scikit-learn ---------------------------------------------------------------

@pytest.mark.parametrize("seed", [0, 1, 2])
def test_bins_behind_ece_match_sklearn_calibration_curve(seed) -> None:
    conf, correct = random_set(seed)
    bins = reliability_bins(conf, correct)
    prob_true, prob_pred = calibration_curve(correct, conf / 100.0, n_bins=10, strategy="uniform")
    np.testing.assert_allclose(bins.accuracy[bins.filled], prob_true, rtol=0, atol=TOL)
    np.testing.assert_allclose(bins.confidence[bins.filled], prob_pred, rtol=0, atol=TOL)
    manual = sum(n / len(conf) * abs(a - c) for n, a, c in
                 zip(bins.n[bins.filled], prob_true, prob_pred))
    assert ece(bins) == pytest.approx(manual, abs=TOL)


def test_equal_mass_bins_match_sklearn_quantile_strategy() -> None:
    rng = np.random.default_rng(5)
    conf = rng.uniform(0, 100, size=200)
    correct = rng.random(200) < conf / 100.0
    bins = reliability_bins(conf, correct, equal_mass_edges(conf))
    prob_true, prob_pred = calibration_curve(correct, conf / 100.0, n_bins=10, strategy="quantile")
    np.testing.assert_allclose(bins.accuracy[bins.filled], prob_true, rtol=0, atol=TOL)
    np.testing.assert_allclose(bins.confidence[bins.filled], prob_pred, rtol=0, atol=TOL)
    assert set(bins.n) == {20}


def test_bin_edges_are_right_closed() -> None:
    # a stated 90 is in the 80–90 bin; 0 joins the first bin; 100 the last
    assert list(bin_index([0, 10, 10.5, 80.01, 90, 90.01, 100], np.linspace(0, 100, 11))) == [0, 0, 1, 8, 8, 9, 9]
    table = reliability_table([90.0], [True])
    assert [(b["bin_low"], b["bin_high"]) for b in table if b["n"]] == [(0.8, 0.9)]
    assert len(table) == 10 and table[0]["confidence_mean"] is None


@pytest.mark.parametrize("seed", [0, 3])
def test_brier_matches_sklearn(seed) -> None:
    conf, correct = random_set(seed)
    assert brier(conf, correct) == pytest.approx(brier_score_loss(correct, conf / 100.0), abs=TOL)


@pytest.mark.parametrize("seed", [0, 4])
def test_auroc_matches_sklearn_with_ties(seed) -> None:
    rng = np.random.default_rng(seed)
    conf = rng.choice([50.0, 80.0, 90.0, 95.0, 100.0], size=300)      # stated confidences tie a lot
    correct = rng.random(300) < conf / 120.0
    assert auroc(conf, correct) == pytest.approx(roc_auc_score(correct, conf), abs=TOL)


@pytest.mark.parametrize("seed", range(5))
def test_average_ranks_match_scipy_rankdata(seed) -> None:
    from scipy.stats import rankdata

    rng = np.random.default_rng(seed)
    values = rng.choice([0.0, 30.0, 50.0, 85.0, 90.0, 100.0], size=(40, 57))   # many ties
    assert np.array_equal(average_ranks(values), rankdata(values, axis=1))
    assert np.array_equal(average_ranks(values[0]), rankdata(values[0]))
    distinct = rng.permutation(200).astype(float)
    assert np.array_equal(average_ranks(distinct), distinct + 1)
    assert np.array_equal(average_ranks([5.0, 5.0, 5.0, 1.0]), [3.0, 3.0, 3.0, 1.0])


@pytest.mark.parametrize("seed", range(4))
def test_cell_resamples_give_the_row_resamples_statistics(seed) -> None:
    # a resample drawn as per-cell counts scores exactly as the same rows resampled one by one
    rng = np.random.default_rng(seed)
    conf = rng.choice([0.0, 12.5, 50.0, 87.5, 90.0, 100.0], size=300)
    correct = rng.random(300) < conf / 120
    cells = Cells.of(conf, correct)
    assert cells.rows.sum() == 300
    (weights,) = cells.weights(seed, 25, 25)
    drawn = [np.repeat(np.arange(len(cells.rows)), count.astype(int)) for count in weights]
    rows_conf, rows_right = np.array([cells.confidence[i] for i in drawn]), np.array([cells.correct[i] for i in drawn])
    assert np.allclose(cells.auroc(weights), batched_auroc(rows_conf, rows_right), equal_nan=True)
    _, hits, sums = cells.bin_sums(weights)
    assert np.allclose(np.abs(hits - sums).sum(axis=1) / 300, batched_ece(rows_conf, rows_right))
    assert np.allclose(_squared_errors(*cells.bin_sums(weights))[0],
                       batched_ece_debiased_squared(rows_conf, rows_right))
    low, high = auroc_ci(conf, correct, seed=seed, resamples=250)
    reference = bootstrap_ci(batched_auroc, conf, correct, seed=seed, resamples=250)
    assert low == pytest.approx(reference[0], abs=0.03) and high == pytest.approx(reference[1], abs=0.03)
    assert auroc_ci([90, 80], [True, True]) is None


def test_auroc_with_one_class_is_none() -> None:
    assert auroc([90, 80], [True, True]) is None
    assert bootstrap_ci(batched_auroc, [90, 80], [True, True]) is None


def test_perfect_calibration_gives_zero_ece_and_slope_one() -> None:
    conf, correct = [], []
    for stated in range(15, 100, 10):                 # 15, 25, …, 95; twenty rows each
        right = round(stated / 100 * 20)
        conf += [float(stated)] * 20
        correct += [True] * right + [False] * (20 - right)
    bins = reliability_bins(conf, correct)
    assert ece(bins) == pytest.approx(0.0, abs=TOL)
    assert mce(bins) == pytest.approx(0.0, abs=TOL)
    assert weighted_slope(bins) == pytest.approx(1.0, abs=TOL)


def test_constant_95_at_half_accuracy() -> None:
    conf, correct = [95.0] * 40, [True, False] * 20
    metrics = calibration_metrics(conf, correct)
    assert metrics["ece"] == pytest.approx(0.45, abs=TOL)
    assert metrics["mce"] == pytest.approx(0.45, abs=TOL)
    assert metrics["slope"] == pytest.approx(0.50 / 0.95, abs=TOL)
    assert round(metrics["slope"], 3) == 0.526
    assert metrics["overconfidence"] == pytest.approx(0.45, abs=TOL)
    assert metrics["brier"] == pytest.approx(0.5 * 0.05 ** 2 + 0.5 * 0.95 ** 2, abs=TOL)
    assert metrics["auroc"] == pytest.approx(0.5, abs=TOL)        # all tied


def test_slope_skips_zero_confidence_bins() -> None:
    bins = reliability_bins([0, 0, 50, 50], [False, False, True, False])
    assert weighted_slope(bins) == pytest.approx(1.0)
    assert weighted_slope(reliability_bins([0, 0], [True, False])) is None


def test_risk_coverage_averages_ties() -> None:
    conf, correct = [90, 80, 80, 10], [True, False, True, False]
    coverage, risk = risk_coverage(conf, correct)
    np.testing.assert_allclose(coverage, [0.25, 0.5, 0.75, 1.0])
    np.testing.assert_allclose(risk, [0.0, 0.25, 1 / 3, 0.5])
    assert aurc(conf, correct) == pytest.approx((0 + 0.25 + 1 / 3 + 0.5) / 4)
    assert accuracy_at_coverage(conf, correct, 0.5) == pytest.approx(0.75)
    assert accuracy_at_coverage(conf, correct, 0.8) == pytest.approx(0.5)
    # the curve does not depend on the order of tied rows
    assert aurc([90, 80, 80, 10], [True, True, False, False]) == pytest.approx(aurc(conf, correct))


def test_batched_statistics_equal_the_single_ones() -> None:
    conf, correct = random_set(8, n=60)
    rng = np.random.default_rng(0)
    index = rng.integers(0, 60, size=(25, 60))
    index[0] = np.flatnonzero(correct)[0]                  # one resample with a single class
    eces, aurocs = batched_ece(conf[index], correct[index]), batched_auroc(conf[index], correct[index])
    for row_index, ece_value, auroc_value in zip(index, eces, aurocs):
        assert ece_value == pytest.approx(ece(reliability_bins(conf[row_index], correct[row_index])), abs=TOL)
        single = auroc(conf[row_index], correct[row_index])
        assert np.isnan(auroc_value) if single is None else auroc_value == pytest.approx(single, abs=TOL)


def test_bootstrap_is_seeded_and_brackets_the_estimate() -> None:
    conf, correct = random_set(7, n=200)
    first = bootstrap_ci(batched_ece, conf, correct, seed=3)
    assert first == bootstrap_ci(batched_ece, conf, correct, seed=3)
    assert first != bootstrap_ci(batched_ece, conf, correct, seed=4)
    assert first[0] < ece(reliability_bins(conf, correct)) < first[1]
    low, high = bootstrap_ci(batched_auroc, conf, correct, seed=3)
    assert low < auroc(conf, correct) < high


# --- debiased ECE (Kumar et al. 2019) --------------------------------------------------------------

def test_debiased_ece_by_hand() -> None:
    # bin 90–100: 40 rows at 95, half right; bin 0–10: one row (too few to debias: adds 0)
    conf, correct = [95.0] * 40 + [5.0], [True, False] * 20 + [False]
    squared = 40 / 41 * ((0.5 - 0.95) ** 2 - 0.5 * 0.5 / 39)
    assert ece_debiased(reliability_bins(conf, correct)) == pytest.approx(math.sqrt(squared), abs=TOL)
    # a perfectly matched bin is debiased below 0 and reported as a negative signed root
    matched = reliability_bins([55.0] * 20, [True] * 11 + [False] * 9)
    assert ece_debiased(matched) == pytest.approx(-math.sqrt(0.55 * 0.45 / 19), abs=TOL)
    assert ece_debiased(reliability_bins([], [])) is None


def test_batched_debiased_ece_equals_the_single_one() -> None:
    conf, correct = random_set(9, n=80)
    index = np.random.default_rng(1).integers(0, 80, size=(20, 80))
    for row_index, value in zip(index, batched_ece_debiased_squared(conf[index], correct[index])):
        single = ece_debiased(reliability_bins(conf[row_index], correct[row_index]))
        assert np.sign(value) * math.sqrt(abs(value)) == pytest.approx(single, abs=TOL)


def simulated_sets(gap: float, sets: int = 200, n: int = 200, seed: int = 0):
    """Stated confidences 20–100 (integers); each answer is right with probability c/100 − gap."""
    rng = np.random.default_rng(seed)
    for _ in range(sets):
        conf = rng.integers(20, 101, n).astype(float)
        yield conf, rng.random(n) < conf / 100.0 - gap


def test_debiased_ece_of_a_perfectly_calibrated_model_is_about_zero_and_its_ci_contains_zero() -> None:
    plug_in, debiased, plug_in_has_zero, debiased_has_zero = [], [], [], []
    for index, (conf, correct) in enumerate(simulated_sets(0.0)):
        bins = reliability_bins(conf, correct)
        plug_in.append(ece(bins))
        debiased.append(np.sign(d := ece_debiased(bins)) * d ** 2)            # back to the squared scale
        low, high = bootstrap_ci(batched_ece, conf, correct, seed=index)
        plug_in_has_zero.append(low <= 0 <= high)
        low, high = ece_debiased_ci(conf, correct, seed=index)
        debiased_has_zero.append(low <= 0 <= high)
    print(f"calibrated model, n = 200: plug-in ECE mean {np.mean(plug_in):.4f}, CI contains 0 in "
          f"{np.mean(plug_in_has_zero):.3f}; debiased squared mean {np.mean(debiased):+.5f}, "
          f"CI contains 0 in {np.mean(debiased_has_zero):.3f}")
    assert np.mean(plug_in) > 0.05 and not any(plug_in_has_zero)      # biased up, interval never at 0
    standard_error = np.std(debiased) / np.sqrt(len(debiased))
    assert abs(np.mean(debiased)) < 3 * standard_error and abs(np.mean(debiased)) < 0.001
    assert np.mean(debiased_has_zero) >= 0.93


def test_debiased_ece_ci_covers_a_known_miscalibration() -> None:
    # every answer is right 10 points less often than stated: the ℓ2 calibration error is exactly 0.10
    covered = [low <= 0.10 <= high for index, (conf, correct) in enumerate(simulated_sets(0.10, seed=1))
               for low, high in [ece_debiased_ci(conf, correct, seed=index)]]
    print(f"miscalibrated by 0.10, n = 200: debiased ECE CI covers the truth in {np.mean(covered):.3f}")
    assert 0.92 <= np.mean(covered) <= 0.985


def test_empty_set_gives_none_not_zero() -> None:
    metrics = calibration_metrics([], [])
    assert all(metrics[key] is None for key in ("ece", "ece_debiased", "mce", "brier", "slope", "auroc", "aurc",
                                                "accuracy_at_50", "ece_ci", "ece_debiased_ci", "auroc_ci"))
    assert metrics["n"] == 0


def test_out_of_range_confidence_is_refused() -> None:
    with pytest.raises(ValueError, match="0–100"):
        reliability_bins([120.0], [True])


# --- which rows count ---------------------------------------------------------------------------

def row(qid: str, grade: Grade, confidence: float | None, answerable: bool = True, **extra) -> Result:
    return Result(question_id=qid, strategy="vanilla", question="q", gold="g" if answerable else None,
                  category="c", answerable=answerable, grade=grade, grader="rules",
                  confidence=confidence, confidences={} if confidence is None else {"verbal": confidence},
                  **extra)


ROWS = [
    row("a", Grade.CORRECT, 90), row("b", Grade.INCORRECT, 80), row("c", Grade.NOT_ATTEMPTED, 50),
    row("d", Grade.NOT_ATTEMPTED, None), row("e", Grade.UNGRADED, 70), row("f", Grade.ERROR, None),
    row("g", Grade.CORRECT, 60, answerable=False), row("h", Grade.CORRECT, None),
]


def test_not_attempted_and_other_rows_are_excluded_and_counted() -> None:
    data = calibration_set(ROWS, "verbal")
    assert list(data.confidence) == [90, 80] and list(data.correct) == [True, False]
    counts = data.counts
    assert (counts["excluded_not_attempted"], counts["excluded_ungraded"], counts["excluded_errors"],
            counts["excluded_unanswerable"]) == (2, 1, 1, 1)
    assert (counts["eligible"], counts["used"], counts["missing_confidence"]) == (3, 2, 1)
    assert counts["coverage"] == pytest.approx(2 / 3)


def test_summary_has_contract_keys_per_method_detail_and_reliability() -> None:
    rows = ROWS + [row("i", Grade.INCORRECT, 95)]
    rows[-1].confidences["p_true"] = 20.0
    summary = build_summary(rows)
    vanilla = summary["strategies"]["vanilla"]
    for key in ("confidence_coverage", "ece", "mce", "brier", "slope", "auroc"):
        assert key in vanilla
    assert vanilla["confidence_coverage"] == pytest.approx(3 / 4)
    assert vanilla["auroc"] == pytest.approx(roc_auc_score([1, 0, 0], [90, 80, 95]))
    detail = summary["calibration"]["vanilla"]
    assert list(detail) == ["verbal", "p_true"]
    assert detail["verbal"]["counts"]["excluded_not_attempted"] == 2
    assert detail["p_true"]["counts"]["used"] == 1 and detail["p_true"]["auroc"] is None
    assert len(summary["reliability"]["vanilla"]) == 10
    assert sum(b["n"] for b in summary["reliability"]["vanilla"]) == 3


# --- answer tokens ------------------------------------------------------------------------------

def tokens(*pieces: tuple[str, float]) -> list[TokenLogprob]:
    return [TokenLogprob(token=text, logprob=math.log(p)) for text, p in pieces]


REPLY = tokens(("Answer", 0.9), (":", 0.99), (" New", 0.6), (" York", 0.5), (" City", 0.8),
               ("\n", 0.9), ("Confidence", 0.9), (":", 0.9), (" 90", 0.3))


def test_answer_span_is_the_tokens_after_the_label_up_to_the_newline() -> None:
    span = answer_span(REPLY, "New York City")
    assert [t.token for t in span] == [" New", " York", " City"]
    assert [t.token for t in answer_span(REPLY, "new york")] == [" New", " York"]   # case-insensitive
    assert answer_span(REPLY, "Boston") is None
    # the answer's words also appear before the label: the span is the one after it
    echoed = tokens(("City", 0.1), ("\n", 0.5), ("Answer", 0.9), (":", 0.9), (" City", 0.7))
    assert [t.logprob for t in answer_span(echoed, "City")] == [math.log(0.7)]


def test_answer_tokens_come_from_the_call_that_produced_the_answer() -> None:
    first = CallRecord(model="m", purpose="draft", logprobs=tokens(("Answer", 1.0), (": Lyon", 0.2)))
    second = CallRecord(model="m", purpose="refine", logprobs=REPLY)
    span, source = answer_tokens([first, second], "New York City")
    assert len(span) == 3 and "refine" in source
    span, source = answer_tokens([first, second], "Lyon")
    assert [t.token for t in span] == [": Lyon"] and "draft" in source
    assert answer_tokens([CallRecord(model="m")], "Lyon") == (None, "no call returned logprobs")


# --- methods through the post step --------------------------------------------------------------

PARIS = Question(id="paris", question="Which city is the capital of France?", answer="Paris")


def post_input(model, state: dict, **config) -> PostStepInput:
    run = RunConfig(strategies=["vanilla"], **config)
    context = StrategyContext(model=model, seed=0, temperature=0.0, max_tokens=32)
    return PostStepInput(PARIS, {"question": PARIS, "answer": "Paris", "confidence": 90.0, "calls": [],
                                 **state}, "vanilla", 0, context, None, run)


def sampling_script(messages, params) -> str:
    text = last_user(messages)
    if "Proposed answer" in text:
        return "True."
    return {101: "Answer: Paris\nConfidence: 80", 102: "Answer: paris.\nConfidence: 70",
            103: "Answer: Lyon\nConfidence: 60"}.get(params.sample_index, "Answer: Paris")


def test_consistency_samples_k_times_at_temperature_one_with_distinct_indices() -> None:
    model = ScriptedModel(sampling_script)
    out = asyncio.run(confidence_step(post_input(model, {}, confidence=["consistency"])))
    assert out["confidences"]["consistency"] == pytest.approx(200 / 3)
    indices = sorted(params.sample_index for _, params in model.calls)
    assert indices == [101, 102, 103]
    assert all(params.temperature == 1.0 for _, params in model.calls)
    assert out["confidence_calls"] == 3 and out["confidences"]["verbal"] == 90.0
    step = next(s for s in out["confidence_trace"] if s["step"] == "confidence:samples")
    assert step["answers"] == ["Paris", "paris", "Lyon"] and step["source"] == "sampled"


def test_consistency_reuses_the_strategys_samples() -> None:
    model = ScriptedModel(sampling_script)
    samples = [{"sample_index": k, "answer": a} for k, a in enumerate(["Paris", "Lyon", None, "PARIS"], 1)]
    out = asyncio.run(confidence_step(post_input(model, {"samples": samples}, confidence=["consistency"])))
    assert out["confidences"]["consistency"] == pytest.approx(50.0)
    assert model.calls == [] and out["confidence_calls"] == 0


def test_consistency_does_not_take_refinement_rounds_for_samples() -> None:
    model = ScriptedModel(sampling_script)
    rounds = [{"round": 0, "answer": "Paris"}, {"round": 1, "answer": "Paris"}]
    out = asyncio.run(confidence_step(post_input(model, {"samples": rounds}, confidence=["consistency"])))
    assert len(model.calls) == 3 and out["confidences"]["consistency"] == pytest.approx(200 / 3)


@pytest.mark.parametrize("reply, expected", [("True.", 100.0), ("No, that is false.", 0.0),
                                             ("I cannot say.", None)])
def test_p_true_reads_the_verbal_verdict_without_logprobs(reply, expected) -> None:
    model = ScriptedModel(lambda messages, params: reply)
    out = asyncio.run(confidence_step(post_input(model, {}, confidence=["p_true"])))
    assert out["confidences"]["p_true"] == expected
    probe = next(s for s in out["confidence_trace"] if s["step"] == "confidence:p_true")
    assert probe["reading"] == ("verbal" if expected is not None else "none")
    messages, params = model.calls[0]
    assert "Proposed answer: Paris" in last_user(messages) and params.temperature == 0.0


def test_token_prob_mean_and_min_from_the_answer_tokens() -> None:
    call = CallRecord(model="m", purpose="generate", logprobs=REPLY)
    state = {"answer": "New York City", "calls": [call]}
    out = asyncio.run(confidence_step(post_input(ScriptedModel(sampling_script), state,
                                                 confidence=["token_prob"])))
    assert out["confidences"]["token_prob"] == pytest.approx(100 * (0.6 + 0.5 + 0.8) / 3)
    assert out["confidences"]["token_prob_min"] == pytest.approx(50.0)
    assert out["confidence_calls"] == 0


def test_token_prob_is_none_without_logprobs() -> None:
    out = asyncio.run(confidence_step(post_input(ScriptedModel(sampling_script), {},
                                                 confidence=["token_prob"])))
    assert out["confidences"]["token_prob"] is None and out["confidences"]["token_prob_min"] is None


def test_a_failed_measurement_call_is_recorded_not_zeroed() -> None:
    def script(messages, params):
        raise ModelError("probe failed")

    out = asyncio.run(confidence_step(post_input(ScriptedModel(script), {}, confidence=["verbal", "p_true"])))
    assert out["confidences"] == {"verbal": 90.0, "p_true": None}
    assert "probe failed" in out["confidence_errors"]["p_true"]


# --- a whole run on a scripted model with logprobs ----------------------------------------------

def split_tokens(text: str) -> list[str]:
    return re.findall(r"\s*\S+|\s+", text)


class LogprobModel(ScriptedModel):
    """ScriptedModel that also returns token logprobs: 0.8 for 'Paris', a True/False split for the
    probe's first token, 0.5 for everything else."""

    supports_logprobs = True

    async def generate(self, messages, params) -> Completion:
        completion = await super().generate(messages, params)
        if params.logprobs:
            completion.logprobs = []
            for piece in split_tokens(completion.text):
                logprob, top = math.log(0.8 if piece.strip() == "Paris" else 0.5), {}
                if piece.strip() in ("True", "False"):
                    top = {"True": math.log(0.6), "False": math.log(0.3), "Maybe": math.log(0.1)}
                    logprob = top[piece.strip()]
                completion.logprobs.append(TokenLogprob(token=piece, logprob=logprob, top=top))
        return completion


def run_script(messages, params) -> str:
    text = last_user(messages)
    if "Proposed answer" in text:
        return "True"
    if "France" in text:
        return "Answer: Paris\nConfidence: 90" if params.sample_index != 102 else "Answer: Lyon\nConfidence: 40"
    if "Italy" in text:
        return "Answer: Milan\nConfidence: 80"
    return "Answer: I don't know\nConfidence: 10"


@pytest.fixture
def logprob_run(tmp_path, monkeypatch) -> tuple[Path, LogprobModel]:
    questions = [PARIS, Question(id="rome", question="Which city is the capital of Italy?", answer="Rome"),
                 Question(id="gold", question="What is the chemical symbol for gold?", answer="Au")]
    dataset = tmp_path / "questions.jsonl"
    write_questions(dataset, questions)
    model = LogprobModel(run_script)
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: model)
    out = tmp_path / "run"
    code = cli.main(["run", "--dataset", f"jsonl:{dataset}", "--strategies", "vanilla", "--out", str(out),
                     "--confidence", "verbal,token_prob,consistency,p_true", "--consistency-samples", "3"])
    assert code == 0
    return out, model


def test_run_stores_every_method_and_keeps_measurement_out_of_costs(logprob_run) -> None:
    out, _ = logprob_run
    rows = {r.question_id: r for r in RunDir(out).read_results()}
    paris = rows["paris"]
    assert paris.confidences["verbal"] == 90
    assert paris.confidences["token_prob"] == pytest.approx(80.0)
    assert paris.confidences["token_prob_min"] == pytest.approx(80.0)
    assert paris.confidences["consistency"] == pytest.approx(200 / 3)     # sample 102 says Lyon
    assert paris.confidences["p_true"] == pytest.approx(100 * 0.6 / 0.9)
    assert paris.llm_calls == 1                                          # the strategy's own call
    assert paris.confidence_calls == 4 and paris.confidence_latency_s > 0
    assert paris.latency_s == pytest.approx(0.01)


def test_run_writes_calibration_summary_table_and_plots(logprob_run, capsys) -> None:
    out, model = logprob_run
    summary = json.loads((out / "summary.json").read_text())
    assert set(summary["calibration"]["vanilla"]) == {"verbal", "token_prob", "token_prob_min",
                                                      "consistency", "p_true"}
    verbal = summary["calibration"]["vanilla"]["verbal"]
    assert verbal["counts"]["excluded_not_attempted"] == 1 and verbal["n"] == 2
    assert summary["strategies"]["vanilla"]["confidence_coverage"] == 1.0
    assert summary["strategies"]["vanilla"]["confidence_cost_ratio"] == pytest.approx(4.0)
    for name in ("reliability_vanilla.png", "confidence_histogram.png", "risk_coverage.png"):
        assert (out / name).stat().st_size > 1000
    calls, first = len(model.calls), (out / "summary.json").read_text()
    (out / "risk_coverage.png").unlink()
    capsys.readouterr()
    assert cli.main(["report", str(out)]) == 0
    assert len(model.calls) == calls
    assert (out / "summary.json").read_text() == first
    assert (out / "risk_coverage.png").exists()
    printed = capsys.readouterr().out
    assert "Calibration" in printed and "dECE [CI]" in printed
    assert summary["strategies"]["vanilla"]["ece_debiased"] == verbal["ece_debiased"]
    assert verbal["ece_debiased_ci"] is not None and len(verbal["ece_debiased_ci"]) == 2


def test_calibration_table_names_the_debiased_ece_and_its_interval() -> None:
    from rich.console import Console

    from factprobe.calibration.table import calibration_table

    conf, correct = random_set(3, n=300)
    rows = [row(f"q{i}", Grade.CORRECT if right else Grade.INCORRECT, c) for i, (c, right) in
            enumerate(zip(conf, correct))]
    summary = build_summary(rows, {"config": {"seed": 2}})
    verbal = summary["calibration"]["vanilla"]["verbal"]
    console = Console(record=True, width=200)
    calibration_table(summary, console)
    printed = " ".join(console.export_text().split())
    low, high = verbal["ece_debiased_ci"]
    assert f"{100 * verbal['ece_debiased']:.1f} [{100 * low:.0f}, {100 * high:.0f}]" in printed
    assert "debiased calibration error (Kumar et al. 2019" in printed


def test_unknown_confidence_method_is_a_clear_error(tmp_path, capsys) -> None:
    code = cli.main(["run", "--dataset", "sample", "--confidence", "verbal,magic", "--out", str(tmp_path / "r")])
    assert code == 2
    assert "unknown confidence method 'magic'" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()
