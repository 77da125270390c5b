"""Summary `video_evidence`: how often questions about a video were answered without it.

Per strategy, over the answerable rows whose question names a video (`media_id`, recorded by the
`video_evidence` post step): `n`, `with_video` (the job attached images), `without_video`, and
among the rows without video how many the model answered anyway (`answered_without_video`:
CORRECT or INCORRECT, i.e. it did not decline), how many of those were CORRECT, how many it
declined (`not_attempted_without_video`), and `answered_without_video_rate` over the graded rows
without video. The same counts for the hop-1 sub-QA probe (which asks about the video itself),
`hop1_*`, when probes ran. A strategy with no such rows is left out.
"""

from __future__ import annotations

from typing import Any

from factprobe.eval.analysis.metrics import ratio
from factprobe.eval.analysis.summary import SummaryInput, answerable, summary_section
from factprobe.eval.core.schema import GRADED, Grade, Result

ANSWERED = (Grade.CORRECT, Grade.INCORRECT)


def answered_counts(grades: list[Grade], prefix: str = "") -> dict[str, Any]:
    """Answered / correct / declined counts and the answered rate over the graded grades."""
    graded = [grade for grade in grades if grade in GRADED]
    answered = sum(grade in ANSWERED for grade in graded)
    return {f"{prefix}answered_without_video": answered,
            f"{prefix}correct_without_video": sum(grade is Grade.CORRECT for grade in graded),
            f"{prefix}not_attempted_without_video": sum(grade is Grade.NOT_ATTEMPTED for grade in graded),
            f"{prefix}answered_without_video_rate": ratio(answered, len(graded))}


def hop1_grades(rows: list[Result]) -> list[Grade]:
    grades = []
    for row in rows:
        probes = row.extra_field("hop_probes") or []
        if probes:
            grades.append(Grade(probes[0]["grade"]))
    return grades


def strategy_evidence(rows: list[Result]) -> dict[str, Any] | None:
    about_video = [row for row in answerable(rows) if row.extra_field("media_id") is not None]
    if not about_video:
        return None
    without = [row for row in about_video if not row.extra_field("media_given")]
    entry: dict[str, Any] = {"n": len(about_video), "with_video": len(about_video) - len(without),
                             "without_video": len(without)}
    entry.update(answered_counts([row.grade for row in without]))
    probed = hop1_grades(without)
    if probed:
        entry["hop1_n"] = len(probed)
        entry.update(answered_counts(probed, prefix="hop1_"))
    return entry


@summary_section("video_evidence", order=150)
def video_evidence(data: SummaryInput) -> dict[str, dict[str, Any]]:
    out = {}
    for name, rows in data.by_strategy.items():
        entry = strategy_evidence(rows)
        if entry is not None:
            out[name] = entry
    return out
