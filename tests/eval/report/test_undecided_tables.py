"""F's range and the undecided share in the terminal tables and report.html, and the note under a
gain whose two sides' undecided shares differ by more than 5 points (summary built from constructed rows)."""

from __future__ import annotations

import re
from typing import Any

from matplotlib.figure import Figure
from rich.console import Console

from factprobe.eval.analysis.summary import build_summary
from factprobe.eval.core.schema import Grade, Result
from factprobe.eval.report.gains_plot import draw_gains
from factprobe.eval.report.html.tables import report_tables
from factprobe.eval.report.tables.groups import groups_table
from factprobe.eval.report.tables.scores import scores_table

RANGE = re.compile(r"\[\d+\.\d–\d+\.\d\]")
NOTE = ("x vs vanilla: the two sides' undecided shares differ by 10.0 points (10.0% vs 0.0%): part of the "
        "difference is the grader's")


def row(qid: str, strategy: str, grade: Grade) -> Result:
    return Result(question_id=qid, strategy=strategy, question=qid, gold="x", category="c", grade=grade,
                  grader="rules")


def summary_of(undecided: dict[str, int]) -> dict[str, Any]:
    """20 questions: vanilla half right, each other strategy right but for its first N rows UNGRADED."""
    ids = [f"q{i:02d}" for i in range(20)]
    rows = [row(q, "vanilla", Grade.CORRECT if i % 2 else Grade.INCORRECT) for i, q in enumerate(ids)]
    rows += [row(q, name, Grade.UNGRADED if i < n else Grade.CORRECT)
             for name, n in undecided.items() for i, q in enumerate(ids)]
    return build_summary(rows, {"config": {"seed": 1, "baseline": "vanilla", "group_by": ["category"]}})


def printed(table: Any, summary: dict[str, Any]) -> str:
    console = Console(record=True, width=250)
    table(summary, console)
    return console.export_text()


def test_main_table_shows_the_range_the_share_and_the_graders_part() -> None:
    text = printed(scores_table, summary_of({"x": 2, "y": 1}))
    assert "[90.0–100.0]" in text and "[95.0–100.0]" in text     # x: F 2·18/40 to 1; y: 2·19/40 to 1
    assert "undec." in text and "F [low–high]: every UNGRADED row taken as INCORRECT / as CORRECT" in " ".join(text.split())
    assert NOTE in " ".join(text.split())
    assert "y vs vanilla" not in text                               # 5 points apart: not more than 5


def test_tables_without_undecided_rows_stay_as_they_were() -> None:
    summary = summary_of({"x": 0})
    for table in (scores_table, groups_table):
        text = printed(table, summary)
        assert not RANGE.search(text) and "undec." not in text and "grader's" not in text


def test_groups_table_shows_the_range_on_one_line() -> None:
    text = printed(groups_table, summary_of({"x": 2}))
    line = next(line for line in text.splitlines() if line.strip().startswith("x "))
    assert "100.0 [90.0–100.0]" in line and "10.0" in line


def test_report_html_tables_hold_the_range_and_the_note() -> None:
    table = report_tables([scores_table], summary_of({"x": 2}))[0]
    x = next(cells for cells in table.rows if cells[0] == "x")
    assert "undec." in table.columns and x[table.columns.index("undec.")] == "10.0"
    assert RANGE.search(x[table.columns.index("F")])
    assert any(NOTE in note for note in table.notes)


def test_gains_plot_marks_the_strategy_whose_undecided_share_differs() -> None:
    ax = Figure().subplots()
    draw_gains(summary_of({"x": 2, "y": 1}), ax)
    notes = [text.get_text() for text in ax.texts]
    assert notes == ["undecided shares differ by 10.0 pts"]
