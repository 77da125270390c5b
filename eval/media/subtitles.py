"""Subtitles (`.srt`, as WorldSense ships them) as plain text, one cue per line.

Hand-written rather than a library: SubRip is a three-part block format (number, time range,
text) and no subtitle library is among factprobe's dependencies; the reader keeps only the text.
"""

from __future__ import annotations

import re
from pathlib import Path

from factprobe.eval.core.text_files import read_utf8

TIMING = re.compile(r"^\s*\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}\s*-->\s*\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}")
TAG = re.compile(r"<[^>]+>|\{\\[^}]*\}")


def subtitle_text(path: Path) -> str:
    """The cues' text in order (tags removed, a cue repeated right after itself dropped)."""
    lines: list[str] = []
    for block in re.split(r"\n\s*\n", read_utf8(path).replace("\r\n", "\n")):
        rows = [row for row in block.strip().split("\n") if row.strip()]
        while rows and (rows[0].strip().isdigit() or TIMING.match(rows[0])):
            rows = rows[1:]
        text = " ".join(TAG.sub("", row).replace("\\N", " ").strip() for row in rows).strip()
        if text and (not lines or lines[-1] != text):
            lines.append(text)
    return "\n".join(lines)
