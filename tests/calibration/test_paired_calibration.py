"""Paired calibration differences (ΔECE, Δover) within a run and across runs, the share of answers at
high confidence, and the calibration figures' rules, each checked against a computation written
here from the rows with numpy (and scipy's multinomial for the exact bootstrap distribution), not
with factprobe's calibration code."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from scipy.stats import multinomial

import factprobe.calibration.plots as plots
import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.calibration.intervals import overconfidence_ci
from factprobe.calibration.paired import paired_calibration
from factprobe.calibration.plots import confidence_histogram, reliability_panel
from factprobe.calibration.rows import calibration_set
from factprobe.calibration.table import calibration_gains_table, calibration_table
from factprobe.eval.analysis.summary import build_summary
from factprobe.eval.core.schema import Grade, Question, Result
from factprobe.eval.report.html.tables import capture_tables
from factprobe.eval.report.reliability import HIDDEN_BIN_MAX_ROWS
from tests.fakes import ScriptedModel, last_user, write_questions

C, I, N, U, E = Grade.CORRECT, Grade.INCORRECT, Grade.NOT_ATTEMPTED, Grade.UNGRADED, Grade.ERROR


def row(strategy: str, qid: str, grade: Grade, confidence: float | None, repeat: int = 0,
        answerable: bool = True) -> Result:
    return Result(question_id=qid, strategy=strategy, repeat=repeat, question=f"question {qid}",
                  gold="g" if answerable else None, category="c", answerable=answerable, grade=grade,
                  grader="rules", confidence=confidence,
                  confidences={} if confidence is None else {"verbal": confidence})


# --- an independent computation -------------------------------------------------------------------

def by_hand(rows: list[dict]) -> tuple[float, float]:
    """(ECE, over) of plain dicts with `c` (0–100) and `right`: ten bins (10k, 10k + 10], 0 in the first."""
    c = np.array([r["c"] for r in rows], dtype=float)
    right = np.array([r["right"] for r in rows], dtype=float)
    bins = np.clip(np.ceil(c / 10) - 1, 0, 9)
    ece = sum(np.sum(bins == b) / len(c) * abs(right[bins == b].mean() - c[bins == b].mean() / 100)
              for b in range(10) if np.any(bins == b))
    return ece, c.mean() / 100 - right.mean()


def usable(rows: list[Result], shared: set[tuple[str, int]]) -> list[dict]:
    """The rows calibration uses, read off the Result fields: answerable, CORRECT or INCORRECT, with a
    stated confidence, in a (question, repeat) pair both sides have."""
    return [{"q": r.question_id, "c": r.confidence, "right": r.grade == C} for r in rows
            if r.answerable and r.grade in (C, I) and r.confidence is not None
            and (r.question_id, r.repeat) in shared]


def simulated(seed: int, questions: int, repeats: int, bias: float, strategy: str) -> list[Result]:
    rng = np.random.default_rng(seed)
    out = []
    for q, r in itertools.product(range(questions), range(repeats)):
        c = float(rng.integers(0, 21) * 5)
        grade = C if rng.random() < np.clip((c - bias) / 100, 0, 1) else I
        grade = [grade, N, U, E][rng.choice(4, p=[0.85, 0.07, 0.04, 0.04])]
        out.append(row(strategy, f"q{q:03d}", grade, None if rng.random() < 0.05 else c, r,
                       answerable=rng.random() > 0.03))
    return out


def test_within_run_deltas_equal_numpy_on_the_rows() -> None:
    """Repeats, not-attempted, ungraded, failed, unanswerable rows, missing confidences, and pairs
    one strategy lacks: the Δs are those of the rows both sides can be paired on."""
    base = simulated(1, 80, 2, 25, "vanilla")
    other = [r for r in simulated(2, 80, 2, 0, "rag") if r.question_id != "q007"]
    summary = build_summary(base + other, {"config": {"seed": 3, "baseline": "vanilla"}})
    entry = summary["calibration_gains"]["rag"]["verbal"]
    shared = {(r.question_id, r.repeat) for r in other} & {(r.question_id, r.repeat) for r in base}
    ours, theirs = usable(other, shared), usable(base, shared)
    (ece_a, over_a), (ece_b, over_b) = by_hand(ours), by_hand(theirs)
    assert (entry["rows"], entry["baseline_rows"]) == (len(ours), len(theirs))
    assert entry["n_questions"] == 79
    assert entry["ece"] == pytest.approx(ece_a) and entry["baseline_ece"] == pytest.approx(ece_b)
    assert entry["ece_delta"] == pytest.approx(ece_a - ece_b)
    assert entry["over_delta"] == pytest.approx(over_a - over_b)
    assert entry["ece_delta_ci_low"] < entry["ece_delta"] < entry["ece_delta_ci_high"]
    assert entry["over_delta_ci_high"] < 0          # the baseline states 25 points too much: clearly so
    # the strategy answered every pair the baseline did: its own calibration table gives the same ECE
    assert entry["ece"] == pytest.approx(summary["calibration"]["rag"]["verbal"]["ece"])


def exact_quantiles(types: list[tuple[dict, dict]], counts: list[int], statistic) -> dict[float, float]:
    """Quantiles of the exact cluster-bootstrap distribution of `statistic` (ΔECE or Δover) when the
    questions are `counts[k]` copies of type k (one pair each): every multinomial draw, enumerated."""
    n, k = sum(counts), len(types)
    values, weights = [], []
    for bars in itertools.combinations(range(n + k - 1), k - 1):            # stars and bars
        draw = np.diff([-1, *bars, n + k - 1]) - 1
        ours = [t[0] for t, m in zip(types, draw) for _ in range(m)]
        theirs = [t[1] for t, m in zip(types, draw) for _ in range(m)]
        values.append(statistic(by_hand(ours), by_hand(theirs)))
        weights.append(multinomial.pmf(draw, n, np.array(counts) / n))
    order = np.argsort(values)
    cdf = np.cumsum(np.array(weights)[order])
    return {q: np.array(values)[order][np.searchsorted(cdf, q)] for q in (0.01, 0.05, 0.95, 0.99)}


def test_interval_lies_within_the_exact_bootstrap_distribution() -> None:
    """Few kinds of question, so the bootstrap distribution can be enumerated exactly; factprobe's
    2,000-resample percentiles must sit between its 1% and 5% (95% and 99%) quantiles."""
    types = [({"c": 90, "right": True}, {"c": 90, "right": True}),
             ({"c": 90, "right": False}, {"c": 60, "right": False}),
             ({"c": 70, "right": True}, {"c": 95, "right": False}),
             ({"c": 40, "right": False}, {"c": 80, "right": True})]
    counts = [6, 4, 5, 3]       # 18 questions of 4 kinds: resampled as counts of each kind (see paired.py)
    rows, base = [], []
    for q, kind in enumerate(np.repeat(np.arange(len(types)), counts)):
        ours, theirs = types[kind]
        rows.append(row("rag", f"q{q:02d}", C if ours["right"] else I, ours["c"]))
        base.append(row("vanilla", f"q{q:02d}", C if theirs["right"] else I, theirs["c"]))
    entry = paired_calibration(rows, base, "verbal", seed=5)
    for key, statistic in (("ece_delta", lambda a, b: a[0] - b[0]), ("over_delta", lambda a, b: a[1] - b[1])):
        quantile = exact_quantiles(types, counts, statistic)
        assert quantile[0.01] - 1e-9 <= entry[f"{key}_ci_low"] <= quantile[0.05] + 1e-9, key
        assert quantile[0.95] - 1e-9 <= entry[f"{key}_ci_high"] <= quantile[0.99] + 1e-9, key


def test_interval_keeps_repeats_together_like_a_naive_cluster_bootstrap() -> None:
    """Continuous confidences (every question its own pattern, so question positions are drawn) and
    three repeats: the CI agrees with a cluster bootstrap written here, within Monte Carlo error."""
    rng = np.random.default_rng(8)
    rows, base = [], []
    for q, r in itertools.product(range(60), range(3)):
        for side, bias, out in (("rag", 0.0, rows), ("vanilla", 20.0, base)):
            c = float(rng.uniform(0, 100))
            out.append(row(side, f"q{q:02d}", C if rng.random() < np.clip((c - bias) / 100, 0, 1) else I, c, r))
    entry = paired_calibration(rows, base, "verbal", seed=1)
    ours = {q: usable(rows, {(q, r) for r in range(3)}) for q in {r.question_id for r in rows}}
    theirs = {q: usable(base, {(q, r) for r in range(3)}) for q in ours}
    ids = sorted(ours)
    draws = np.random.default_rng(2).integers(0, len(ids), (3000, len(ids)))
    deltas = []
    for draw in draws:
        a, b = by_hand([x for i in draw for x in ours[ids[i]]]), by_hand([x for i in draw for x in theirs[ids[i]]])
        deltas.append((a[0] - b[0], a[1] - b[1]))
    low, high = np.percentile(np.array(deltas), [2.5, 97.5], axis=0)
    assert entry["ece_delta_ci_low"] == pytest.approx(low[0], abs=0.012)
    assert entry["ece_delta_ci_high"] == pytest.approx(high[0], abs=0.012)
    assert entry["over_delta_ci_low"] == pytest.approx(low[1], abs=0.012)
    assert entry["over_delta_ci_high"] == pytest.approx(high[1], abs=0.012)


def test_a_side_without_confidences_gives_nulls_not_zeros() -> None:
    base = [row("vanilla", f"q{i}", C, 80.0) for i in range(5)]
    rows = [row("rag", f"q{i}", C, None) for i in range(5)]
    entry = paired_calibration(rows, base, "verbal", seed=0)
    assert entry["rows"] == 0 and entry["baseline_rows"] == 5
    assert entry["ece"] is None and entry["ece_delta"] is None and entry["over_delta"] is None
    assert entry["ece_delta_ci_low"] is None and entry["over_delta_ci_high"] is None


def test_over_interval_agrees_with_a_row_bootstrap() -> None:
    rng = np.random.default_rng(4)
    c = rng.integers(0, 101, 400).astype(float)
    right = rng.random(400) < c / 130
    low, high = overconfidence_ci(c, right, seed=3)
    draws = np.random.default_rng(9).integers(0, 400, (4000, 400))
    over = (c[draws] / 100).mean(axis=1) - right[draws].mean(axis=1)
    assert low == pytest.approx(np.percentile(over, 2.5), abs=0.006)
    assert high == pytest.approx(np.percentile(over, 97.5), abs=0.006)


# --- the share at high confidence and the footnote ------------------------------------------------

def test_share_at_95_counts_every_answer_with_a_value_and_its_accuracy_the_decided_ones() -> None:
    rows = [row("vanilla", "a", C, 95), row("vanilla", "b", I, 100), row("vanilla", "c", C, 99),
            row("vanilla", "d", U, 97), row("vanilla", "e", N, 96), row("vanilla", "f", C, 94.9),
            row("vanilla", "g", I, 50), row("vanilla", "h", C, 100, answerable=False), row("vanilla", "i", C, None)]
    high = build_summary(rows)["calibration"]["vanilla"]["verbal"]["high_confidence"]
    stated = [r for r in rows if r.confidence is not None]
    at_95 = [r for r in stated if r.confidence >= 95]
    decided = [r for r in at_95 if r.answerable and r.grade in (C, I)]
    assert high["share"] == pytest.approx(len(at_95) / len(stated)) == pytest.approx(6 / 8)
    assert high["accuracy"] == pytest.approx(np.mean([r.grade == C for r in decided])) == pytest.approx(2 / 3)
    assert (high["n"], high["graded"], high["ungraded"], high["not_attempted"]) == (6, 3, 1, 1)


def test_every_calibration_column_is_defined_in_the_footnote() -> None:
    """The tables as the HTML report captures them: each column of the calibration table is defined
    ("name:") in its footnote; the paired table's footnote defines its Δs and its rows."""
    rows = simulated(5, 60, 1, 10, "vanilla") + simulated(6, 60, 1, 0, "rag")
    summary = build_summary(rows, {"config": {"seed": 1, "baseline": "vanilla"}})
    table, gains = capture_tables([calibration_table, calibration_gains_table], summary)
    defined = [column.replace(" [CI]", "") for column in table.columns if column not in ("strategy", "method")]
    assert defined == ["n", "cov", "ECE", "dECE", "MCE", "Brier", "slope", "AUROC", "over", "≥95%", "acc≥95", "NA"]
    for column in defined:
        assert f"{column}:" in table.caption, column
    assert "bins: 10 equal-width, right-closed" in table.caption
    assert gains.title == "Calibration vs vanilla (paired, % and points)" and gains.rows[0][0] == "rag"
    for term in ("Δ:", "rows:", "ΔECE < 0", "Δover < 0", "[95% CI]"):
        assert term in gains.caption, term


# --- the figures ------------------------------------------------------------------------------------

def test_reliability_diagram_draws_small_bins_hollow_with_their_counts(tmp_path, monkeypatch) -> None:
    edge = HIDDEN_BIN_MAX_ROWS
    rows = ([row("vanilla", f"a{i}", C if i % 2 else I, 55) for i in range(edge)]            # hollow
            + [row("vanilla", f"b{i}", C if i % 3 else I, 85) for i in range(edge + 1)])     # filled
    figure = Figure()
    axis = figure.add_subplot()
    reliability_panel(axis, "verbal", calibration_set(rows, "verbal"))
    filled, hollow = axis.collections
    assert filled.get_offsets().shape[0] == 1 and filled.get_offsets()[0][0] == pytest.approx(0.85)
    assert hollow.get_offsets().shape[0] == 1 and hollow.get_offsets()[0][0] == pytest.approx(0.55)
    assert len(hollow.get_facecolors()) == 0 or hollow.get_facecolors()[0][3] == 0      # no fill
    assert sorted(t.get_text() for t in axis.texts) == [str(edge), str(edge + 1)]     # every bin's count
    FigureCanvasAgg(figure).draw()
    assert axis.get_legend().get_window_extent().y1 <= axis.get_window_extent().y0     # below the panel
    kept: list[Figure] = []
    monkeypatch.setattr(plots, "save_figure", lambda figure, path, dpi: kept.append(figure))
    plots.reliability_diagrams({}, rows, tmp_path)
    assert f"bins with ≤ {edge} rows (WorldVQA hides them)" in kept[0].get_suptitle()  # the figure states the rule


def test_twelve_rows_still_show_their_bins(tmp_path) -> None:
    """The default run's size: every non-empty bin is drawn (none has more than 20 rows)."""
    rows = [row("vanilla", f"q{i}", C if i % 3 else I, 10 * (i % 10) + 5) for i in range(12)]
    figure = Figure()
    axis = figure.add_subplot()
    reliability_panel(axis, "verbal", calibration_set(rows, "verbal"))
    assert sum(c.get_offsets().shape[0] for c in axis.collections) == 10
    assert sum(int(t.get_text()) for t in axis.texts) == 12


def test_confidence_histogram_covers_every_answer_with_a_value(tmp_path, monkeypatch) -> None:
    rows = ([row("vanilla", f"c{i}", C, 90) for i in range(6)] + [row("vanilla", f"n{i}", N, 20) for i in range(3)]
            + [row("vanilla", f"u{i}", U, 50) for i in range(2)] + [row("vanilla", "x", C, None)]
            + [row("vanilla", "y", I, 100, answerable=False)])
    assert confidence_histogram({}, rows, tmp_path).stat().st_size > 1000
    stated = np.array([r.confidence for r in rows if r.confidence is not None])
    expected = np.bincount(np.clip(np.ceil(stated / 10) - 1, 0, 9).astype(int), minlength=10) / stated.size
    kept: list[Figure] = []
    monkeypatch.setattr(plots, "save_figure", lambda figure, path, dpi: kept.append(figure))
    confidence_histogram({}, rows, tmp_path)
    axis = kept[0].axes[0]
    every, ungraded = (patch.get_data().values for patch in axis.patches)
    assert every == pytest.approx(expected)
    assert ungraded == pytest.approx(np.eye(10)[4] * 2 / stated.size)
    legend = axis.get_legend()
    assert "UNGRADED (2)" in " ".join(t.get_text() for t in legend.get_texts())
    kept[0].canvas.draw()                 # the legend lies below the panel, clear of the bars
    assert legend.get_window_extent().y1 <= axis.get_window_extent().y0


# --- across runs ------------------------------------------------------------------------------------

QUESTIONS = [Question(id=f"q{i:02d}", question=f"Which number comes after {i}?", answer=str(i + 1),
                      category="numbers") for i in range(12)]


def script_for(right: set[int], confidence: dict[int, int]):
    def script(messages, params) -> str:
        i = int(last_user(messages).split("after ")[1].split("?")[0])
        answer = str(i + 1) if i in right else "seven hundred"
        return f"Answer: {answer}\nConfidence: {confidence[i]}"

    return script


def make_run(tmp_path: Path, monkeypatch, name: str, script) -> Path:
    data = write_questions(tmp_path / f"{name}.jsonl", QUESTIONS)
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: ScriptedModel(script, name))
    out = tmp_path / name
    assert cli.main(["run", "--dataset", f"jsonl:{data}", "--strategies", "vanilla", "--repeats", "2",
                     "--no-cache", "--out", str(out)]) == 0
    return out


def from_results(run: Path) -> list[dict]:
    rows = [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]
    return [{"c": r["confidence"], "right": r["grade"] == "CORRECT"} for r in rows
            if r["grade"] in ("CORRECT", "INCORRECT") and r["confidence"] is not None]


def test_compare_pairs_carry_calibration_deltas_from_the_results_files(tmp_path, monkeypatch, capsys) -> None:
    steady = make_run(tmp_path, monkeypatch, "steady", script_for(set(range(8)), dict.fromkeys(range(12), 70)))
    boastful = make_run(tmp_path, monkeypatch, "boastful",
                        script_for({0, 1, 2, 3, 4, 9}, {i: 95 if i % 2 else 85 for i in range(12)}))
    capsys.readouterr()
    out = tmp_path / "page" / "compare.html"
    assert cli.main(["compare", str(steady), str(boastful), "--json", "--html", str(out)]) == 0
    [pair] = json.loads(capsys.readouterr().out)["pairs"]
    (ece_run, over_run), (ece_base, over_base) = by_hand(from_results(boastful)), by_hand(from_results(steady))
    assert pair["ece_delta"] == pytest.approx(ece_run - ece_base)
    assert pair["over_delta"] == pytest.approx(over_run - over_base)
    assert pair["baseline_ece"] == pytest.approx(ece_base) and pair["over"] == pytest.approx(over_run)
    assert pair["calibration_rows"] == len(from_results(boastful)) == 24
    assert pair["ece_delta_ci_low"] <= pair["ece_delta"] <= pair["ece_delta_ci_high"]
    assert pair["over_delta_ci_low"] <= pair["over_delta"] <= pair["over_delta_ci_high"]
    page = out.read_text()         # the terminal's table, as the page captures it
    assert "Calibration vs steady" in page and "ΔECE [95% CI]" in page and "Δover [95% CI]" in page
    assert f"{100 * pair['ece_delta']:+.1f} [{100 * pair['ece_delta_ci_low']:+.1f}," in page
    assert (out.parent / "compare_files" / "delta_calibration.png").stat().st_size > 0
    assert 'data-name="delta_calibration"' in page


def test_no_paired_table_without_any_stated_confidence() -> None:
    rows = [row(strategy, f"q{i}", C, None) for strategy in ("vanilla", "rag") for i in range(4)]
    summary = build_summary(rows, {"config": {"baseline": "vanilla"}})
    assert summary["calibration_gains"]["rag"]["verbal"]["ece_delta"] is None
    assert [t.source for t in capture_tables([calibration_gains_table], summary)] == []
