"""`factprobe compare RUN… --baseline RUN`: two runs of different scripted models on the same questions,
paired; ΔF, its CI and p checked against computations written here from the rows alone (numpy and
scipy, not factprobe's statistics), and the refusal of runs that answered different questions."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import multinomial
from sklearn.metrics import cohen_kappa_score

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.eval.core.schema import Question
from factprobe.eval.datasets.id_files import read_ids
from factprobe.eval.store.run_dir import RunDir
from tests.fakes import ScriptedModel, last_user, write_questions

CAPITALS = {"France": "Paris", "Italy": "Rome", "Spain": "Madrid", "Kenya": "Nairobi", "Peru": "Lima",
            "Egypt": "Cairo"}
ELEMENTS = {"gold": "Au", "silver": "Ag", "iron": "Fe", "lead": "Pb"}
QUESTIONS = [Question(id=f"cap-{country.lower()}", question=f"Which city is the capital of {country}?",
                      answer=city, category="capitals") for country, city in CAPITALS.items()]
QUESTIONS += [Question(id=f"sym-{name}", question=f"What is the chemical symbol for {name}?", answer=symbol,
                       category="elements") for name, symbol in ELEMENTS.items()]
# what each scripted model gets right ("?" = declines), per question id; the weak model's answers
# to cap-peru and sym-iron change with the repeat (each repeat has its own seed), so repeats differ
STRONG = {"cap-france", "cap-italy", "cap-spain", "cap-kenya", "sym-gold", "sym-silver", "sym-iron"}
WEAK_RIGHT = {"cap-france", "cap-italy", "sym-gold", "cap-egypt"}
WEAK_DECLINES = {"cap-kenya", "sym-lead"}


def scripted(right: set[str], declines: set[str], varies: set[str] = frozenset(), questions=QUESTIONS):
    by_text = {q.question: q for q in questions}

    def script(messages, params) -> str:
        text = last_user(messages)
        question = next(q for body, q in by_text.items() if body in text)
        if question.id in declines:
            return "Answer: I don't know\nConfidence: 10"
        correct = question.id in right or (question.id in varies and (params.seed or 0) // 1000 % 2 == 1)
        wrong = "Zn" if question.category == "elements" else "Springfield"   # decidable by the rules
        return f"Answer: {question.answer if correct else wrong}\nConfidence: {80 if correct else 60}"

    return script


def make_run(tmp_path: Path, monkeypatch, name: str, script, questions=QUESTIONS, repeats: int = 2,
             strategies: str = "vanilla") -> Path:
    data = tmp_path / f"{name}.jsonl"
    write_questions(data, questions)
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: ScriptedModel(script, name))
    out = tmp_path / name
    code = cli.main(["run", "--dataset", f"jsonl:{data}", "--strategies", strategies, "--repeats", str(repeats),
                     "--no-cache", "--out", str(out)])
    assert code == 0
    return out


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("runs")
    with pytest.MonkeyPatch.context() as monkeypatch:
        strong = make_run(folder, monkeypatch, "strong", scripted(STRONG, set()))
        weak = make_run(folder, monkeypatch, "weak", scripted(WEAK_RIGHT, WEAK_DECLINES, {"cap-peru", "sym-iron"}))
    return strong, weak


def codes(run: Path) -> dict[tuple[str, int], int]:
    """1 correct, 0 incorrect, -1 not attempted, by (question, repeat), from results.jsonl itself."""
    value = {"CORRECT": 1, "INCORRECT": 0, "NOT_ATTEMPTED": -1}
    rows = [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]
    return {(row["question_id"], row["repeat"]): value[row["grade"]] for row in rows}


def f_score(c: np.ndarray) -> float:
    return 2 * np.sum(c == 1) / (len(c) + np.sum(c >= 0))


def question_totals(a: dict, b: dict) -> tuple[list[str], np.ndarray]:
    """Per question: pairs, a correct, a attempted, b correct, b attempted."""
    ids = sorted({qid for qid, _ in a})
    rows = []
    for qid in ids:
        keys = [key for key in a if key[0] == qid]
        x, y = np.array([a[k] for k in keys]), np.array([b[k] for k in keys])
        rows.append([len(keys), np.sum(x == 1), np.sum(x >= 0), np.sum(y == 1), np.sum(y >= 0)])
    return ids, np.array(rows, dtype=float)


def delta_of(total: np.ndarray) -> float:
    pairs, ac, aa, bc, ba = total
    return 2 * ac / (pairs + aa) - 2 * bc / (pairs + ba)


def test_compare_json_matches_an_independent_computation(two_runs, capsys) -> None:
    strong, weak = two_runs
    capsys.readouterr()
    assert cli.main(["compare", str(strong), str(weak), "--baseline", str(strong), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["warnings"] == [] and data["baseline"] == "strong"
    [pair] = data["pairs"]
    assert (pair["baseline"], pair["run"], pair["n_shared"], pair["n_pairs"]) == ("strong", "weak", 10, 20)
    a, b = codes(weak), codes(strong)
    assert a[("cap-peru", 0)] != a[("cap-peru", 1)]           # repeats of a question differ
    keys = sorted(a)
    x, y = np.array([a[k] for k in keys]), np.array([b[k] for k in keys])
    assert pair["f_score_delta"] == pytest.approx(f_score(x) - f_score(y))
    assert pair["accuracy_delta"] == pytest.approx(np.mean(x == 1) - np.mean(y == 1))
    # p: all 2^10 relabellings swapping both repeats of a question together (fewer than the 2,000
    # drawn at most, so factprobe enumerates them too and the p is exact)
    ids, totals = question_totals(a, b)
    observed = abs(delta_of(totals.sum(axis=0)))
    swapped = totals[:, [0, 3, 4, 1, 2]]
    hits = sum(abs(delta_of(np.where(np.array(flip)[:, None], swapped, totals).sum(axis=0))) >= observed - 1e-12
               for flip in itertools.product([False, True], repeat=len(ids)))
    exact_p = hits / 2 ** len(ids)
    assert pair["p_value"] == pytest.approx(exact_p) and 0 < exact_p < 1
    # CI: the exact bootstrap distribution of ΔF over the distinct per-question patterns (scipy's
    # multinomial); the 2,000-resample percentiles must sit between its 1% and 5% (95% and 99%) quantiles
    patterns, counts = np.unique(totals, axis=0, return_counts=True)
    n, shares = len(totals), counts / len(totals)
    values, weights = [], []
    for bars in itertools.combinations(range(n + len(patterns) - 1), len(patterns) - 1):   # stars and bars
        draw = np.diff([-1, *bars, n + len(patterns) - 1]) - 1
        values.append(delta_of(draw @ patterns))
        weights.append(multinomial.pmf(draw, n, shares))
    order = np.argsort(values)
    cdf = np.cumsum(np.array(weights)[order])
    quantile = {q: np.array(values)[order][np.searchsorted(cdf, q)] for q in (0.01, 0.05, 0.95, 0.99)}
    assert quantile[0.01] - 1e-9 <= pair["ci_low"] <= quantile[0.05] + 1e-9
    assert quantile[0.95] - 1e-9 <= pair["ci_high"] <= quantile[0.99] + 1e-9
    assert pair["ci_low"] < pair["f_score_delta"] < pair["ci_high"]
    # per category: the same statistics within each category
    for category, prefix in (("capitals", "cap-"), ("elements", "sym-")):
        entry = pair["per_category"][category]
        keep = [i for i, k in enumerate(keys) if k[0].startswith(prefix)]
        assert entry["f_score_delta"] == pytest.approx(f_score(x[keep]) - f_score(y[keep]))
        assert entry["n_pairs"] == len(keep)


def test_different_question_sets_stop_with_exit_2_or_pair_the_shared_ones(tmp_path, monkeypatch, capsys) -> None:
    full = make_run(tmp_path, monkeypatch, "full", scripted(STRONG, set()), repeats=1)
    part = make_run(tmp_path, monkeypatch, "part", scripted(WEAK_RIGHT, set()), QUESTIONS[:9], repeats=1)
    capsys.readouterr()
    assert cli.main(["compare", str(full), str(part), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "did not answer the same questions" in captured.err and "full has 1 of its 10 questions" in captured.err
    assert "sym-lead" in captured.err and "--shared-only" in captured.err
    assert cli.main(["compare", str(full), str(part), "--json", "--shared-only"]) == 0
    captured = capsys.readouterr()
    assert "WARNING" in captured.err and "9 shared questions" in captured.err
    data = json.loads(captured.out)
    assert data["pairs"][0]["n_shared"] == 9 and data["pairs"][0]["n_pairs"] == 9
    assert len(data["warnings"]) == 1


def test_one_id_with_two_different_questions_is_refused(tmp_path, monkeypatch, capsys) -> None:
    first = make_run(tmp_path, monkeypatch, "first", scripted(STRONG, set()), QUESTIONS[:3], repeats=1)
    changed = [QUESTIONS[0], QUESTIONS[1], QUESTIONS[2].model_copy(update={"answer": "Barcelona"})]
    second = make_run(tmp_path, monkeypatch, "second", scripted(STRONG, set()), changed, repeats=1)
    capsys.readouterr()
    assert cli.main(["compare", str(first), str(second), "--shared-only"]) == 2
    assert "cap-spain" in capsys.readouterr().err


def test_compare_page_shows_the_pairs_and_figures_without_local_paths(two_runs, tmp_path, capsys) -> None:
    strong, weak = two_runs
    out = tmp_path / "pages" / "compare.html"
    assert cli.main(["compare", str(strong), str(weak), "--html", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "Runs vs strong" in printed and "ΔF per category" in printed
    page = out.read_text()
    assert "Runs vs strong" in page and "ΔF per category vs strong" in page
    assert str(strong.parent) not in page and str(tmp_path) not in page and str(Path.home()) not in page and str(Path.cwd()) not in page
    assert RunDir(strong).read_manifest()["config"]["dataset"].startswith(("jsonl:/", "jsonl:" + str(tmp_path)))
    for name in ("delta_f", "reliability_vanilla", "per_category_vanilla"):
        assert (out.parent / "compare_files" / f"{name}.png").stat().st_size > 0
        assert f'data-name="{name}"' in page
    assert sorted(path.name for path in out.parent.iterdir()) == ["compare.html", "compare_files"]


def test_difficulty_tiers_count_the_runs_that_answered_each_question(two_runs, tmp_path, capsys) -> None:
    strong, weak = two_runs
    out = tmp_path / "tiers.tsv"
    capsys.readouterr()
    assert cli.main(["difficulty", str(strong), str(weak), "--out", str(out), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    expected = {}
    for qid in {q.id for q in QUESTIONS}:
        right = sum(sum(code == 1 for (q, _), code in codes(run).items() if q == qid) * 2 > 2 for run in two_runs)
        expected[qid] = {2: "solved", 1: "medium", 0: "hard"}[right]
    assert {item["id"]: item["tier"] for item in data["items"]} == expected
    assert data["tiers"]["solved"] == sum(t == "solved" for t in expected.values()) > 0
    assert data["tiers"]["hard"] > 0
    lines = [line.split("\t") for line in out.read_text().splitlines() if not line.startswith("#")]
    assert {line[0]: line[1] for line in lines} == expected
    solved = tmp_path / "solved.tsv"
    assert cli.main(["difficulty", str(strong), str(weak), "--out", str(solved), "--keep", "solved"]) == 0
    assert read_ids(solved, "--exclude-ids") == {qid for qid, tier in expected.items() if tier == "solved"}
    assert cli.main(["difficulty", str(strong), str(weak), "--out", str(solved), "--keep", "easyish"]) == 2


def tau_b(x: list[float], y: list[float]) -> float:
    """Kendall's τ-b written out: (concordant − discordant) / sqrt((n0 − ties x)(n0 − ties y))."""
    concordant = discordant = ties_x = ties_y = 0
    for i, j in itertools.combinations(range(len(x)), 2):
        dx, dy = np.sign(x[i] - x[j]), np.sign(y[i] - y[j])
        ties_x += dx == 0
        ties_y += dy == 0
        concordant += dx * dy > 0
        discordant += dx * dy < 0
    n0 = len(x) * (len(x) - 1) / 2
    return (concordant - discordant) / np.sqrt((n0 - ties_x) * (n0 - ties_y))


def test_runs_grading_the_same_answers_report_grader_agreement(two_runs, tmp_path, capsys) -> None:
    """A second grader simulated by rewriting grades of a copy of one run (same answers, other grades)."""
    strong, weak = two_runs
    first, second = tmp_path / "judge_a", tmp_path / "judge_b"
    flips = {"cap-france": "INCORRECT", "sym-silver": "NOT_ATTEMPTED", "cap-egypt": "CORRECT"}
    for folder, flip in ((first, {}), (second, flips)):
        folder.mkdir()
        rows = [json.loads(line) for line in (strong / "results.jsonl").read_text().splitlines()]
        for row in rows:
            row["category"] = f"c{sorted(q.id for q in QUESTIONS).index(row['question_id']) % 4}"
            row["grade"] = flip.get(row["question_id"], row["grade"])
        (folder / "results.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
        manifest = json.loads((strong / "manifest.json").read_text())
        manifest["config"]["judge"] = "openai:other-judge" if flip else None
        (folder / "manifest.json").write_text(json.dumps(manifest))
    capsys.readouterr()
    assert cli.main(["compare", str(first), str(second), str(weak), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    [entry] = data["grader_agreement"]                 # weak's answers differ: no entry for it
    assert (entry["run"], entry["grader"], entry["baseline_grader"]) == ("judge_b", "openai:other-judge", "rules")
    a = [json.loads(line) for line in (first / "results.jsonl").read_text().splitlines()]
    b = [json.loads(line) for line in (second / "results.jsonl").read_text().splitlines()]
    assert entry["n_rows"] == len(a) == 20
    assert entry["agreement"] == pytest.approx(np.mean([x["grade"] == y["grade"] for x, y in zip(a, b)]))
    assert entry["kappa"] == pytest.approx(cohen_kappa_score([x["grade"] for x in a], [y["grade"] for y in b]))
    units = sorted(entry["units"])
    assert entry["tau_units"] == "strategy × category" and units == [f"vanilla / c{i}" for i in range(4)]

    def f_of(rows, category):
        grades = [row["grade"] for row in rows if row["category"] == category]
        return 2 * grades.count("CORRECT") / (len(grades) + len(grades) - grades.count("NOT_ATTEMPTED"))

    fa = [f_of(a, f"c{i}") for i in range(4)]
    fb = [f_of(b, f"c{i}") for i in range(4)]
    assert [entry["units"][u]["baseline_f_score"] for u in units] == pytest.approx(fa)
    assert [entry["units"][u]["f_score"] for u in units] == pytest.approx(fb)
    assert entry["kendall_tau"] == pytest.approx(tau_b(fa, fb))


def test_graders_rankings_of_models_are_compared_with_kendall_tau(two_runs, tmp_path, capsys) -> None:
    """Three models' answers each graded by two graders (six run directories written from one run's
    rows): τ-b between the graders' F rankings of the models."""
    strong, _ = two_runs
    template = [json.loads(line) for line in (strong / "results.jsonl").read_text().splitlines()]
    ids = sorted({row["question_id"] for row in template})
    right = {"judge-a": {"m1": 8, "m2": 5, "m3": 2}, "judge-b": {"m1": 4, "m2": 6, "m3": 1}}
    paths = []
    for judge, by_model in right.items():
        for model, k in by_model.items():
            folder = tmp_path / f"{model}-{judge}"
            folder.mkdir()
            rows = [{**row, "answer": f"{model} says {row['question_id']}",
                     "grade": "CORRECT" if ids.index(row["question_id"]) < k else "INCORRECT"} for row in template]
            (folder / "results.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
            manifest = json.loads((strong / "manifest.json").read_text())
            manifest["config"].update(model=f"openai:{model}", judge=f"openai:{judge}")
            (folder / "manifest.json").write_text(json.dumps(manifest))
            paths.append(str(folder))
    capsys.readouterr()
    assert cli.main(["compare", *paths, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    [entry] = data["judge_rank_agreement"]
    assert (entry["baseline_grader"], entry["grader"], entry["n_models"]) == ("openai:judge-a", "openai:judge-b", 3)
    f = {judge: [2 * k / (10 + 10) for k in by_model.values()] for judge, by_model in right.items()}
    assert [m["baseline_f_score"] for m in entry["models"].values()] == pytest.approx(f["judge-a"])
    assert entry["kendall_tau"] == pytest.approx(tau_b(f["judge-a"], f["judge-b"])) and entry["kendall_tau"] == pytest.approx(1 / 3)
    assert [e["run"] for e in data["grader_agreement"]] == ["m1-judge-b"]   # same answers as the baseline run
