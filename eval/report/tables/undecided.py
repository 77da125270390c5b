"""What the tables show while rows are UNGRADED: F's range next to F, and a note under a comparison
whose two sides' undecided shares differ by more than 5 points (summary keys `f_score_range`,
`undecided_share`, `undecided_share_gap`, `grader_bias_warning`; factprobe.eval.analysis.metrics)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.console import Console
from rich.text import Text

from factprobe.eval.core.format import pct

UNDECIDED_CAPTION = ("F \\[low–high]: every UNGRADED row taken as INCORRECT / as CORRECT; undec.: % of the "
                     "graded and UNGRADED rows left UNGRADED")   # rich markup: "\\[" prints "["


def f_range_cell(scores: dict[str, Any], shown: str, separator: str = "\n") -> str:
    """F as `shown`, followed by its range "[low–high]" when the scores have UNGRADED rows."""
    span = scores.get("f_score_range")
    if not scores.get("ungraded") or not span:
        return shown
    return f"{shown}{separator}[{pct(span['low'])}–{pct(span['high'])}]"


def any_undecided(scores: Iterable[dict[str, Any]]) -> bool:
    """Whether any of these scores has UNGRADED rows (the tables then show the F range and `undec.`)."""
    return any(s.get("ungraded") for s in scores)


def gap_points(gain: dict[str, Any] | None) -> float | None:
    """How many points the two sides' undecided shares differ by, when that is flagged (> 5), else None."""
    if not gain or not gain.get("grader_bias_warning"):
        return None
    return abs(100 * gain["undecided_share_gap"])


def undecided_gap_note(label: str, gain: dict[str, Any] | None) -> str | None:
    """The note under a comparison whose two sides' undecided shares differ by more than 5 points."""
    points = gap_points(gain)
    if points is None or gain is None:
        return None
    return (f"{label}: the two sides' undecided shares differ by {points:.1f} points ({pct(gain['undecided_share'])}% "
            f"vs {pct(gain['baseline_undecided_share'])}%): part of the difference is the grader's")


def print_gap_notes(console: Console, notes: Iterable[str | None]) -> None:
    """Each undecided-share note on its own line after its table (report.html keeps it under the table)."""
    for note in notes:
        if note:
            console.print(Text.assemble(("note: ", "yellow"), note))
