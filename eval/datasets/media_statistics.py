"""Distinct media and their durations (`datasets describe`, key `statistics`): MMWorld's videos per
subdiscipline, WorldSense's durations, Video SimpleQA's distinct videos and video lengths.

A medium is what a question is asked about: its `media_id` (a video id) when it has one, else its
list of `media` (images, an embedded image's content name). Several questions about one video count
it once: per categorical field (text, flag or list of labels), a medium counts once under each label
any of its questions carries, so a field of the video (MMWorld's `subdiscipline`) gives videos per
label and a field of the question (`type`) gives the videos with at least one question of that label.

A duration is the record's `duration` field when it holds seconds (a number, "75", "75 s", "1:15" or
"0:01:15"; a length bucket such as "1-2min" is not seconds), else what `probe` reads from the video
file (`datasets describe --media DIR`); media without either are counted by reason, never as zero.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Callable
from typing import Any

from factprobe.eval.core.schema import FieldValue, Question

DURATION_FIELD = "duration"
SECONDS = re.compile(r"^(\d+(?:\.\d+)?)\s*(?:s|sec|secs|seconds?)?$", re.IGNORECASE)
CLOCK = re.compile(r"^(?:(\d+):)?(\d{1,2}):(\d{2}(?:\.\d+)?)$")
MAX_BINS = 30
EXAMPLES = 5


class DurationUnknown(Exception):
    """A medium whose duration cannot be read: `kind` names the reason (counted), the message the
    medium (listed as an example)."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(detail)
        self.kind = kind


Probe = Callable[[Question], float]
"""Seconds of a question's video(s), read from the files; raises DurationUnknown."""


def media_key(question: Question) -> str | None:
    """What identifies the medium a question is about (None: it has none)."""
    if question.media_id:
        return f"id:{question.media_id}"
    return "files:" + "\n".join(question.media) if question.media else None


def media_groups(questions: list[Question]) -> dict[str, list[Question]]:
    """The questions of each distinct medium, in the order they first appear."""
    groups: dict[str, list[Question]] = {}
    for question in questions:
        key = media_key(question)
        if key is not None:
            groups.setdefault(key, []).append(question)
    return groups


def labels(value: FieldValue) -> list[str] | None:
    """A categorical field value's labels (None for a number: not a category)."""
    if isinstance(value, bool):
        return ["true" if value else "false"]
    if isinstance(value, (int, float)):
        return None
    return [str(label) for label in value] if isinstance(value, list) else [value]


def per_field(groups: dict[str, list[Question]]) -> dict[str, dict[str, int]]:
    """Per categorical field, distinct media per label (see the module doc), most first; `(none)`
    counts the media none of whose questions has the field."""
    counts: dict[str, Counter[str]] = {}
    numeric: set[str] = set()
    for members in groups.values():
        seen: dict[str, set[str]] = {}
        for question in members:
            for name, value in question.fields.items():
                found = labels(value)
                if found is None:
                    numeric.add(name)
                else:
                    seen.setdefault(name, set()).update(found)
        for name, media_labels in seen.items():
            counts.setdefault(name, Counter()).update(media_labels)
    for name, counter in counts.items():
        absent = sum(all(name not in q.fields for q in members) for members in groups.values())
        if absent:
            counter["(none)"] = absent
    return {name: dict(counter.most_common()) for name, counter in sorted(counts.items()) if name not in numeric}


def media_statistics(questions: list[Question]) -> dict[str, Any]:
    """Questions with media, distinct media, and distinct media per category and per field."""
    groups = media_groups(questions)
    categories = Counter(category for members in groups.values() for category in {q.category for q in members})
    return {"questions_with_media": sum(len(members) for members in groups.values()),
            "distinct": len(groups),
            "per_category": dict(categories.most_common()),
            "per_field": per_field(groups)}


def recorded_seconds(question: Question) -> float | None:
    """The record's `duration` field in seconds, when it holds seconds (see the module doc)."""
    value = question.fields.get(DURATION_FIELD)
    if isinstance(value, bool) or value is None or isinstance(value, list):
        return None
    if isinstance(value, (int, float)):
        return float(value) if value >= 0 else None
    text = value.strip()
    if match := SECONDS.match(text):
        return float(match.group(1))
    if match := CLOCK.match(text):
        hours, minutes, seconds = match.groups()
        return int(hours or 0) * 3600 + int(minutes) * 60 + float(seconds)
    return None


def histogram(values: list[float]) -> dict[str, list[float] | list[int]]:
    """Counts over bin edges in seconds (numpy's `auto` bins, at most MAX_BINS)."""
    import numpy as np

    edges = np.histogram_bin_edges(values, bins="auto")
    if len(edges) - 1 > MAX_BINS:
        edges = np.histogram_bin_edges(values, bins=MAX_BINS)
    counts, edges = np.histogram(values, bins=edges)
    return {"edges_s": [round(float(edge), 3) for edge in edges], "counts": [int(count) for count in counts]}


def duration_statistics(questions: list[Question], probe: Probe | None = None) -> dict[str, Any] | None:
    """Durations of the distinct media in seconds (each medium once): n, mean, median, min, max and
    a histogram; where each came from; the media without one, by reason, with a few examples.
    None when no question has a medium."""
    groups = media_groups(questions)
    if not groups:
        return None
    seconds: list[float] = []
    sources: Counter[str] = Counter()
    missing: Counter[str] = Counter()
    examples: list[str] = []
    for members in groups.values():
        recorded = next((value for q in members if (value := recorded_seconds(q)) is not None), None)
        if recorded is not None:
            seconds.append(recorded)
            sources["record's duration field"] += 1
            continue
        if probe is None:
            missing["no duration in the record (a video's is read with --media DIR)"] += 1
            continue
        try:
            seconds.append(probe(members[0]))
            sources["video file"] += 1
        except DurationUnknown as exc:
            missing[exc.kind] += 1
            if len(examples) < EXAMPLES:
                examples.append(str(exc))
    out: dict[str, Any] = {"n": len(seconds), "sources": dict(sources.most_common()),
                           "without_duration": dict(missing.most_common()), "examples": examples}
    if seconds:
        out.update(mean_s=round(statistics.fmean(seconds), 2), median_s=round(statistics.median(seconds), 2),
                   min_s=round(min(seconds), 2), max_s=round(max(seconds), 2), histogram=histogram(seconds))
    return out

