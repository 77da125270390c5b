"""ttc, gains, self_awareness and repeats sections on constructed rows (no model, no grader)."""

from __future__ import annotations

import pytest

from factprobe.eval.analysis.gains import compare
from factprobe.eval.analysis.metrics import grade_metrics
from factprobe.eval.analysis.repeats import repeats
from factprobe.eval.analysis.summary import SummaryInput, build_summary
from factprobe.eval.core.schema import Grade, Result
from factprobe.eval.self_awareness.section import quadrant
from factprobe.eval.ttc.curves import best_of_n_curve, curve_sizes, self_refine_curve

C, I, N = Grade.CORRECT, Grade.INCORRECT, Grade.NOT_ATTEMPTED


def row(qid: str, strategy: str, grade: Grade, repeat: int = 0, answerable: bool = True, **extra) -> Result:
    return Result(question_id=qid, strategy=strategy, repeat=repeat, question=qid, gold="x" if answerable else None,
                  category="c", answerable=answerable, grade=grade, grader="rules", **extra)


def bon_row(qid: str, answers: list[str], grades: list[Grade], selected: int, **extra) -> Result:
    samples = [{"sample_index": i + 1, "answer": a, "confidence": 10.0 * (i + 1), "tokens": 10,
                "grade": g.value, "selected": i == selected} for i, (a, g) in enumerate(zip(answers, grades))]
    trace = [{"step": "choose", "selector": "model", "sample_index": selected + 1, "pick_failed": False,
              "tokens": 5}]
    return row(qid, "best_of_n", grades[selected], samples=samples, trace=trace, prompt_tokens=40,
               completion_tokens=5 + 10 * len(answers) - 40, **extra)


def test_curve_sizes() -> None:
    assert curve_sizes(1) == [1] and curve_sizes(4) == [1, 2, 4] and curve_sizes(6) == [1, 2, 4, 6]


def test_ttc_at_one_sample_equals_the_first_samples_accuracy() -> None:
    rows = [bon_row("a", ["p", "q", "q", "r"], [C, I, I, I], 1),
            bon_row("b", ["s", "t", "t", "t"], [I, C, C, C], 3),
            bon_row("c", ["u", "u", "v", "u"], [C, C, I, C], 0)]
    first = grade_metrics(Grade(r.samples[0]["grade"]) for r in rows)["accuracy"]
    for selector in ("model", "majority", "confidence"):
        curve = best_of_n_curve(rows, selector)
        assert curve["n"][0] == 1 and curve["accuracy"][0] == pytest.approx(first) == pytest.approx(2 / 3)


def test_best_of_n_curves_apply_each_selector_to_the_first_n_samples() -> None:
    rows = [bon_row("a", ["p", "q", "q", "r"], [C, I, I, I], 1, prefix_picks=[{"n": 2, "index": 0, "tokens": 4}]),
            bon_row("b", ["s", "t", "t", "t"], [I, C, C, C], 3, prefix_picks=[{"n": 2, "index": 1, "tokens": 4}])]
    majority = best_of_n_curve(rows, "majority")
    # N=2: a → p (tie, first) correct, b → s (tie, first) incorrect; N=4: a → q wrong, b → t right
    assert majority["accuracy"] == [0.5, 0.5, 0.5]
    confidence = best_of_n_curve(rows, "confidence")                 # the last sample has most confidence
    assert confidence["accuracy"] == [0.5, 0.5, 0.5]
    model = best_of_n_curve(rows, "model")
    assert model["accuracy"] == [0.5, 1.0, 0.5]                      # prefix picks at 2, run's pick at 4
    # tokens: N samples × 10 + the selection call; the run's N equals the rows' own token count
    assert model["tokens_mean"] == [10, 24, 45] and majority["tokens_mean"] == [10, 20, 40]
    assert model["tokens_mean"][-1] == rows[0].prompt_tokens + rows[0].completion_tokens


def test_model_curve_without_prefix_picks_is_undefined_not_zero() -> None:
    curve = best_of_n_curve([bon_row("a", ["p", "q", "r", "s"], [C, I, I, I], 0)], "model")
    assert curve["rows"] == [1, 0, 1] and curve["accuracy"][1] is None


def test_self_refine_curve_carries_an_early_stop_forward() -> None:
    def refine_row(qid: str, rounds: list[tuple[int, Grade, int]]) -> Result:
        samples = [{"round": r, "answer": "a", "grade": g.value, "tokens": t, "verdict": None,
                    "refined": r > 0} for r, g, t in rounds]
        return row(qid, "self_refine", Grade(samples[-1]["grade"]), samples=samples,
                   prompt_tokens=sum(t for *_, t in rounds), completion_tokens=0)

    rows = [refine_row("a", [(0, I, 10), (1, C, 20), (2, C, 20)]), refine_row("b", [(0, C, 10), (1, C, 5)])]
    rows[1].samples[1].update(verdict="keep", refined=False)
    curve = self_refine_curve(rows, rounds=2)
    assert curve["n"] == [0, 1, 2]
    assert curve["accuracy"] == [0.5, 1.0, 1.0]
    assert curve["tokens_mean"] == [10, (30 + 15) / 2, (50 + 15) / 2] and curve["stopped_early"] == 1


def test_gains_pair_by_question_and_repeat() -> None:
    base = {(q, r): row(q, "vanilla", g, r, latency_s=1.0, prompt_tokens=10)
            for (q, r), g in {("a", 0): C, ("b", 0): I, ("c", 0): I, ("d", 0): C, ("a", 1): I}.items()}
    ours = [row("a", "x", C, 0, latency_s=3.0, prompt_tokens=40), row("b", "x", C, 0, latency_s=3.0, prompt_tokens=40),
            row("c", "x", N, 0, latency_s=3.0, prompt_tokens=40), row("d", "x", C, 0, latency_s=3.0, prompt_tokens=40),
            row("a", "x", Grade.ERROR, 1, error="boom"), row("z", "x", C, 0)]   # z has no pair
    gain = compare(ours, base, seed=0, n_resamples=500)
    assert gain["n_pairs"] == 4 and gain["excluded_pairs"] == 1
    assert gain["accuracy_delta"] == pytest.approx(3 / 4 - 2 / 4)
    f_ours, f_base = 2 * 0.75 * 1.0 / 1.75, 0.5
    assert gain["f_score_delta"] == pytest.approx(f_ours - f_base)
    assert gain["ci_low"] <= gain["f_score_delta"] <= gain["ci_high"]
    assert gain["n_questions"] == 4 and gain["p_method"] == "cluster_sign_flip"
    # all 2⁴ relabellings: only b (C vs I) and c (N vs I) move ΔF; swapping b alone gives −0.18,
    # c alone +0.18, both −0.36: |ΔF| ≥ 0.36 in half of them
    assert gain["p_value"] == pytest.approx(0.5)
    assert gain["accuracy_p_value"] == 1.0 and gain["accuracy_ci_low"] <= 0.25 <= gain["accuracy_ci_high"]
    assert (gain["better"], gain["worse"], gain["mcnemar_p_value"]) == (1, 0, 1.0)
    assert gain["latency_ratio"] == pytest.approx(3.0) and gain["tokens_ratio"] == pytest.approx(4.0)


def test_gains_with_repeats_count_questions_and_keep_their_repeats_together() -> None:
    grades = {"a": (C, C, C), "b": (C, C, I), "c": (I, I, I), "d": (N, N, N), "e": (C, I, C)}
    base = {(q, r): row(q, "vanilla", I) for q in grades for r in range(3)}
    ours = [row(q, "x", g, r) for q, gs in grades.items() for r, g in enumerate(gs)]
    gain = compare(ours, base, seed=3, n_resamples=400)
    assert (gain["n_pairs"], gain["n_questions"]) == (15, 5)
    assert gain["mcnemar_p_value"] is None                   # repeats are not independent pairs
    # 2⁵ relabellings of whole questions; |Δaccuracy| reaches the observed 7/15 only when the three
    # questions with a correct answer (a: 3, b: 2, e: 2) are all swapped or none is: p = 2 · 4 / 32
    assert gain["accuracy_p_value"] == pytest.approx(8 / 32)
    assert gain["ci_low"] <= gain["f_score_delta"] <= gain["ci_high"]


def undecided_rows() -> list[Result]:
    """20 questions: vanilla decides all; x leaves 2 UNGRADED (10%), y 1 (5%, not more than 5 points)."""
    ids = [f"q{i:02d}" for i in range(20)]
    rows = [row(q, "vanilla", C if i % 2 else I) for i, q in enumerate(ids)]
    rows += [row(q, "x", Grade.UNGRADED if i < 2 else C) for i, q in enumerate(ids)]
    rows += [row(q, "y", Grade.UNGRADED if i < 1 else C) for i, q in enumerate(ids)]
    return rows


def test_gains_flag_sides_whose_undecided_shares_differ_by_more_than_five_points() -> None:
    summary = build_summary(undecided_rows(), {"config": {"seed": 1, "baseline": "vanilla"}})
    x, y = summary["gains"]["x"], summary["gains"]["y"]
    assert (x["undecided_share"], x["baseline_undecided_share"]) == (pytest.approx(0.1), 0.0)
    assert x["undecided_share_gap"] == pytest.approx(0.1) and x["grader_bias_warning"] is True
    assert y["undecided_share_gap"] == pytest.approx(0.05) and y["grader_bias_warning"] is False
    # the strategies' own range: x has 18 correct of 18 graded; its 2 UNGRADED rows bound F
    scores = summary["strategies"]["x"]
    assert scores["f_score"] == 1.0 and scores["undecided_share"] == pytest.approx(0.1)
    assert scores["f_score_range"] == {"low": pytest.approx(2 * 18 / 40), "high": 1.0}
    assert summary["strategies"]["vanilla"]["f_score_range"] == {"low": 0.5, "high": 0.5}


def test_gains_shares_are_counted_on_the_paired_rows_that_did_not_fail() -> None:
    base = [row("a", "vanilla", C), row("b", "vanilla", C), row("c", "vanilla", Grade.ERROR, error="boom")]
    ours = [row("a", "x", Grade.UNGRADED), row("b", "x", C), row("c", "x", C), row("z", "x", Grade.UNGRADED)]
    gain = compare(ours, base, seed=0, n_resamples=50)   # z has no pair; c failed on the baseline's side
    assert gain["undecided_share"] == pytest.approx(1 / 3) and gain["baseline_undecided_share"] == 0.0
    assert gain["grader_bias_warning"] is True


def test_self_awareness_formulas() -> None:
    rows = [row("k1", "refusal", C), row("k2", "refusal", C),                          # known knowns
            row("w1", "refusal", I),                                                    # answered wrong
            row("r1", "refusal", N, forced_grade="CORRECT"),                            # unknown known
            row("r2", "refusal", N, forced_grade="INCORRECT"),                          # known unknown
            row("r3", "refusal", N, forced_grade="NOT_ATTEMPTED"),                      # known unknown
            row("r4", "refusal", N),                                                    # no forced re-ask
            row("r5", "refusal", N, forced_grade="ERROR"),                              # forced call failed
            row("u1", "refusal", N, answerable=False), row("u2", "refusal", I, answerable=False),
            row("e1", "refusal", Grade.ERROR, error="boom")]
    q = quadrant(rows, refusal_offered=True)
    assert (q["n"], q["undetermined"], q["excluded"], q["n_answerable"], q["n_unanswerable"]) == (8, 2, 1, 6, 2)
    assert (q["known_knowns"], q["known_unknowns"], q["unknown_knowns"]) == (2, 3, 1)
    assert q["score_kk"] == pytest.approx(2 / 8) and q["score_ku"] == pytest.approx(3 / 8)
    assert q["score_sa"] == pytest.approx(5 / 8)
    assert q["answer_rate"] == pytest.approx(4 / 8)          # k1, k2, w1, u2
    assert q["answer_accuracy"] == pytest.approx(2 / 4)
    assert q["unknown_knowns_rate"] == pytest.approx(1 / 6)


def test_without_a_refusal_option_a_refusal_is_its_own_forced_answer() -> None:
    q = quadrant([row("a", "vanilla", N), row("b", "vanilla", C), row("u", "vanilla", I, answerable=False)],
                 refusal_offered=False)
    assert (q["known_unknowns"], q["unknown_knowns"], q["undetermined"]) == (1, 0, 0)
    assert q["score_ku"] == pytest.approx(1 / 3) and q["unknown_knowns_rate"] == 0.0


def test_self_awareness_is_absent_without_unanswerables_or_refusal() -> None:
    summary = build_summary([row("a", "vanilla", C), row("b", "vanilla", I)])
    assert summary["self_awareness"] == {}
    assert set(build_summary([row("a", "vanilla", C), row("u", "vanilla", N, answerable=False)])["self_awareness"]) == {"vanilla"}


def test_repeats_mean_and_sample_std() -> None:
    rows = [row("a", "v", C, 0), row("b", "v", C, 0), row("a", "v", C, 1), row("b", "v", I, 1),
            row("a", "v", I, 2), row("b", "v", I, 2)]
    out = repeats(SummaryInput(rows))["v"]
    assert out["n_repeats"] == 3 and [r["accuracy"] for r in out["per_repeat"]] == [1.0, 0.5, 0.0]
    assert out["accuracy_mean"] == pytest.approx(0.5) and out["accuracy_std"] == pytest.approx(0.5)
    single = repeats(SummaryInput(rows[:2]))["v"]
    assert single["n_repeats"] == 1 and single["accuracy_std"] is None


def test_main_table_shows_both_deltas_their_p_values_and_the_pairs() -> None:
    from rich.console import Console

    from factprobe.eval.report.tables.scores import scores_table

    grades = {"a": (C, C), "b": (C, I), "c": (I, I), "d": (N, C)}
    rows = [row(q, "vanilla", I, r) for q in grades for r in range(2)]
    rows += [row(q, "x", g, r) for q, gs in grades.items() for r, g in enumerate(gs)]
    summary = build_summary(rows, {"config": {"seed": 1}})
    gain = summary["gains"]["x"]
    console = Console(record=True, width=220)
    scores_table(summary, console)
    printed = console.export_text()
    assert "Δacc" in printed and "p acc" in printed and "pairs/" in printed
    assert "8/4" in printed                                     # 8 pairs over 4 questions
    assert f"{100 * gain['accuracy_delta']:+.1f}" in printed and f"{gain['accuracy_p_value']:.3f}" in printed
    assert f"{100 * gain['f_score_delta']:+.1f}" in printed and f"{gain['p_value']:.3f}" in printed
    assert "p: clustered sign-flip test of the Δ beside it" in " ".join(printed.split())


def test_refusal_offer_is_read_from_the_manifest_before_the_registry() -> None:
    from factprobe.eval.analysis.summary import SummaryInput

    recorded = SummaryInput([], {"strategy_flags": {"my_refusal": {"offers_refusal": True},
                                                    "refusal": {"offers_refusal": False}}})
    older = SummaryInput([], {})

    def offers_refusal(strategy: str, data: SummaryInput) -> bool:
        return data.strategy_flag(strategy, "offers_refusal")

    assert offers_refusal("my_refusal", recorded)          # a plugin strategy not loaded in this process
    assert not offers_refusal("refusal", recorded)         # the record wins over the registry
    assert offers_refusal("refusal", older) and not offers_refusal("vanilla", older)  # older manifests: the registry
