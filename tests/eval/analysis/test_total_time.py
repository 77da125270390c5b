"""Total compute time per strategy (`strategies.<s>.latency_s_total`, Video SimpleQA Table 3's total
inference time) and its ratio in `gains`, against hand sums of constructed rows (no model)."""

from __future__ import annotations

import pytest
from rich.console import Console

from factprobe.eval.analysis.summary import build_summary
from factprobe.eval.core.schema import Grade, Result
from factprobe.eval.report.tables.scores import scores_table

C, I, E = Grade.CORRECT, Grade.INCORRECT, Grade.ERROR


def row(qid: str, strategy: str, grade: Grade, latency: float) -> Result:
    return Result(question_id=qid, strategy=strategy, question=qid, gold="x", category="c", grade=grade,
                  grader="rules", latency_s=latency, error="boom" if grade is E else None)


ROWS = [row("a", "vanilla", C, 1.0), row("b", "vanilla", I, 1.0), row("c", "vanilla", C, 1.0),
        row("a", "rag", C, 30.0), row("b", "rag", C, 90.0), row("c", "rag", E, 400.0)]
MANIFEST = {"config": {"baseline": "vanilla", "strategies": ["vanilla", "rag"]}}


def test_total_sums_the_rows_that_did_not_fail_and_the_gain_divides_the_totals() -> None:
    summary = build_summary(ROWS, MANIFEST)
    assert summary["strategies"]["vanilla"]["latency_s_total"] == pytest.approx(3.0)
    assert summary["strategies"]["rag"]["latency_s_total"] == pytest.approx(120.0)   # the ERROR row left out
    gain = summary["gains"]["rag"]
    assert gain["latency_total_ratio"] == pytest.approx(120.0 / 3.0)
    # the paired ratio of means rests on a and b only: (30 + 90) / 2 over (1 + 1) / 2
    assert gain["latency_ratio"] == pytest.approx(60.0)


def test_the_main_table_gives_the_totals_in_minutes() -> None:
    console = Console(record=True, width=300)
    scores_table(build_summary(ROWS, MANIFEST), console)
    assert "compute time in total, minutes: vanilla 0.1, rag 2.0" in " ".join(console.export_text().split())
