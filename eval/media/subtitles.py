"""Subtitles (`.srt`, as WorldSense ships them): their cues with timings, the whole text one cue per
line, and the line shown at a given time (WorldSense's evaluation pairs each sampled frame with the
subtitle shown at that frame's time).

Hand-written rather than a library (pysrt, pysubs2): SubRip is a three-part block format (number,
time range, text) read by two regular expressions, and no subtitle library is among factprobe's
dependencies; a new install requirement for that was not worth it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from factprobe.eval.core.text_files import read_utf8

TIMING = re.compile(r"^\s*\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}\s*-->\s*\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}")
STAMP = re.compile(r"(\d{1,2}):(\d{2}):(\d{2})[,.](\d{1,3})")
TAG = re.compile(r"<[^>]+>|\{\\[^}]*\}")
NO_LINE = "(no subtitle)"


@dataclass(frozen=True)
class Cue:
    """One subtitle: shown from `start` to `end` seconds."""

    start: float | None
    end: float | None
    text: str


def seconds(stamp: re.Match[str]) -> float:
    hours, minutes, secs, fraction = stamp.groups()
    return int(hours) * 3600 + int(minutes) * 60 + int(secs) + int(fraction.ljust(3, "0")) / 1000


def subtitle_cues(path: Path) -> list[Cue]:
    """The cues in file order, tags removed (a cue without a timing line has no times)."""
    cues: list[Cue] = []
    for block in re.split(r"\n\s*\n", read_utf8(path).replace("\r\n", "\n")):
        rows = [row for row in block.strip().split("\n") if row.strip()]
        start = end = None
        while rows and (rows[0].strip().isdigit() or TIMING.match(rows[0])):
            if TIMING.match(rows[0]):
                stamps = list(STAMP.finditer(rows[0]))
                start, end = seconds(stamps[0]), seconds(stamps[1])
            rows = rows[1:]
        text = " ".join(TAG.sub("", row).replace("\\N", " ").strip() for row in rows).strip()
        if text:
            cues.append(Cue(start, end, text))
    return cues


def subtitle_text(path: Path) -> str:
    """The cues' text in order (tags removed, a cue repeated right after itself dropped)."""
    lines: list[str] = []
    for cue in subtitle_cues(path):
        if not lines or lines[-1] != cue.text:
            lines.append(cue.text)
    return "\n".join(lines)


def line_at(cues: list[Cue], time: float) -> str | None:
    """The text shown at `time` seconds (a cue shows from its start up to its end; cues overlapping
    `time` joined), None when none is."""
    shown = [cue.text for cue in cues if cue.start is not None and cue.end is not None
             and cue.start <= time < cue.end]
    return " ".join(dict.fromkeys(shown)) or None


def lines_by_frame(cues: list[Cue], times: list[float]) -> str:
    """One line per frame: its number, its time and the subtitle shown then."""
    return "\n".join(f"Frame {number} ({time:.1f} s): {line_at(cues, time) or NO_LINE}"
                     for number, time in enumerate(times, start=1))
