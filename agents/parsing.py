"""Reading an answer and a verbalised 0–100 confidence out of a model's reply.

Out-of-range, infinite, NaN or missing confidences are recorded as None: never clipped, never guessed.
"""

from __future__ import annotations

import math
import re

_ANSWER = re.compile(r"^\s*\**\s*(?:final\s+)?answer\s*\**\s*[:：-]\s*(?P<answer>.*?)\s*$",
                     re.IGNORECASE | re.MULTILINE)
_CONFIDENCE = re.compile(
    r"confidence(?:\s+(?:score|level))?\s*\**\s*(?:[:：=-]|is|of)?\s*\**\s*"
    r"(?P<value>[-+]?(?:inf(?:inity)?|nan)\b|[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?)\s*"  # read whole: 1e309, NaN
    r"(?P<unit>%|percent|/\s*100|/\s*10\b|out of 100|out of 10\b)?",
    re.IGNORECASE,
)
_CONFIDENCE_LINE = re.compile(r"^\s*\**\s*confidence\b.*$", re.IGNORECASE | re.MULTILINE)


def on_scale(value: float | None) -> float | None:
    """`value` when it is a confidence on the 0–100 scale; None when it is missing, outside 0–100,
    infinite or NaN (refused as unreadable, never clamped)."""
    if value is None or not math.isfinite(value) or not 0.0 <= value <= 100.0:
        return None
    return value


def parse_confidence(text: str) -> float | None:
    """The stated confidence on a 0–100 scale, or None when absent, out of range or not a number.

    '85', '85%', '85/100' → 85; '0.85' (a fraction with a decimal point) → 85; '8/10' → 80;
    '1813', '-5', '1e309', 'inf' or 'NaN' → None (a number is read whole: '1e309' is not 1).
    """
    matches = list(_CONFIDENCE.finditer(text))
    if not matches:
        return None
    match = matches[-1]
    raw = match.group("value")
    value = float(raw)
    unit = (match.group("unit") or "").replace(" ", "").lower()
    if unit in {"/10", "outof10"}:
        value *= 10
    elif not unit and "." in raw and "e" not in raw.lower() and 0.0 <= value <= 1.0:
        value *= 100
    checked = on_scale(value)
    return None if checked is None else round(checked, 6)


def _clean(answer: str) -> str | None:
    answer = answer.strip().strip("*").strip()
    answer = re.sub(r"^[\"'`]+|[\"'`]+$", "", answer).strip()
    answer = answer.rstrip(".").strip()
    return answer or None


def parse_answer(text: str) -> str | None:
    """The short answer: the text after the last 'Answer:' (a later one corrects an earlier), else the
    first line that is not the confidence."""
    matches = list(_ANSWER.finditer(text))
    if matches:
        match = matches[-1]
        answer = re.split(r"\bconfidence\b", match.group("answer"), flags=re.IGNORECASE)[0]
        return _clean(answer.rstrip(" ,;(-"))
    without_confidence = _CONFIDENCE_LINE.sub("", text)
    for line in without_confidence.splitlines():
        if line.strip():
            return _clean(line)
    return None
