"""`factprobe compare` and `factprobe report` on runs with UNGRADED rows: the pairs flag two sides whose
undecided shares differ by more than 5 points, and the tables show F's range (run directories
written row by row; no model, no grader)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
from factprobe.eval.core.schema import Grade, Result
from factprobe.eval.store.run_dir import RunDir

IDS = [f"q{i:02d}" for i in range(20)]


def write_run(path: Path, undecided: int) -> Path:
    """A vanilla run over 20 questions, half right, its first `undecided` rows UNGRADED."""
    run = RunDir(path)
    run.write_manifest({"config": {"seed": 0, "baseline": "vanilla", "strategies": ["vanilla"]}})
    for i, qid in enumerate(IDS):
        grade = Grade.UNGRADED if i < undecided else Grade.CORRECT if i % 2 else Grade.INCORRECT
        run.append(Result(question_id=qid, strategy="vanilla", question=f"question {qid}?", gold="x",
                          category="c", answer=f"answer {i}", grade=grade, grader="rules"))
    return path


@pytest.mark.parametrize(("undecided", "flagged"), [(3, True), (1, False)])
def test_compare_pairs_carry_both_undecided_shares_and_the_flag(tmp_path, capsys, undecided, flagged) -> None:
    base, other = write_run(tmp_path / "a", 0), write_run(tmp_path / "b", undecided)
    assert cli.main(["compare", str(base), str(other), "--json"]) == 0
    pair = json.loads(capsys.readouterr().out)["pairs"][0]
    assert pair["undecided_share"] == pytest.approx(undecided / 20) and pair["baseline_undecided_share"] == 0.0
    assert pair["undecided_share_gap"] == pytest.approx(undecided / 20)
    assert pair["grader_bias_warning"] is flagged
    assert cli.main(["compare", str(base), str(other)]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert ("b vanilla vs a vanilla: the two sides' undecided shares differ by 15.0 points" in text) is flagged
    assert "part of the difference is the grader's" in text if flagged else "grader's" not in text


def test_report_writes_the_range_and_shows_it(tmp_path, capsys) -> None:
    run = write_run(tmp_path / "b", 3)
    assert cli.main(["report", str(run)]) == 0
    scores = json.loads((run / "summary.json").read_text())["strategies"]["vanilla"]
    # 17 graded: 9 correct (odd i from 3), 8 incorrect; the 3 UNGRADED taken as INCORRECT, then CORRECT
    assert scores["f_score"] == pytest.approx(2 * 9 / 34)
    assert scores["f_score_range"] == {"low": pytest.approx(2 * 9 / 40), "high": pytest.approx(2 * 12 / 40)}
    assert scores["undecided_share"] == pytest.approx(0.15)
    printed = capsys.readouterr().out
    assert "[45.0–60.0]" in printed and "undec." in printed
    assert "[45.0–60.0]" in (run / "report.html").read_text(encoding="utf-8")
