"""The `worldsense` loader: WorldSense's `worldsense_qa.json` (an object keyed by video id).

Format as far as public code that reads the released file shows it (VLMEvalKit's WorldSense
dataset class, the evaluation the WorldSense authors point to; their README only links the file):
each video has `domain`, `sub_category`, `duration` (a length bucket such as "1-2min"),
`audio_class` (a list of Speech / Event / Music), `video_caption` and one entry per question under
keys `task0`, `task1`, …; each has `question`, `candidates` (options, written with their letter,
e.g. "A. text"), `answer` (the gold letter), `task_domain` and `task_type`. The videos are
`videos/<id>.mp4` and the subtitles `subtitles/<id>.srt` beside the file.

- Ids are `worldsense-<video id>-<task key>`; `media_id` is the video id; category is the domain.
- Fields kept for grouping (Question.fields): `domain`, `sub_category`, `duration`, `audio_class`
  (multi-label: a question counts under each of its classes), `task_domain`, `task_type`;
  `video_caption` is the question's `caption`.
- A leading "A. " / "(A) " is removed from the candidates only when every candidate of a question
  carries its own letter in order.
Verified on files our tests write in that shape; the released file itself was not downloaded here.
"""

from __future__ import annotations

import re
import string
from pathlib import Path

from pydantic import BaseModel, Field

from factprobe.eval.core.errors import DatasetError
from factprobe.eval.core.schema import FieldValue, Question
from factprobe.eval.datasets.mcq import gold_option
from factprobe.eval.datasets.raw import AnswerText, Text, json_document, parse_records
from factprobe.eval.datasets.registry import Dataset, loader

NAME = "worldsense"
TASK_KEY = re.compile(r"task\d+")
LETTER_PREFIX = re.compile(r"^\(?([A-Z])[.)]\s*(.*)$", re.DOTALL)


class RawTask(BaseModel):
    question: Text
    candidates: list[AnswerText] = Field(min_length=2)
    answer: Text
    task_type: str = ""
    task_domain: str = ""


class RawVideo(BaseModel):
    domain: Text = "general"
    sub_category: str = ""
    duration: str = ""
    audio_class: list[str] | str = Field(default_factory=list)
    video_caption: str = ""


def without_letters(candidates: list[str]) -> list[str]:
    """The options without their "A. " prefixes, when every option has its own letter in order."""
    matches = [LETTER_PREFIX.match(text.strip()) for text in candidates]
    if all(m and m.group(1) == string.ascii_uppercase[i] for i, m in enumerate(matches)):
        return [m.group(2).strip() for m in matches if m]
    return [text.strip() for text in candidates]


def audio_classes(value: list[str] | str) -> list[str]:
    """The audio classes as a list (a single class may be written as a plain string)."""
    values = [value] if isinstance(value, str) else value
    return [label.strip() for label in values if label.strip()]


def video_fields(header: RawVideo) -> dict[str, FieldValue]:
    fields: dict[str, FieldValue] = {"domain": header.domain}
    for name in ("sub_category", "duration"):
        value = getattr(header, name).strip()
        if value:
            fields[name] = value
    fields["audio_class"] = audio_classes(header.audio_class)
    return fields


def task_fields(task: RawTask) -> dict[str, FieldValue]:
    return {name: value.strip() for name in ("task_domain", "task_type") if (value := getattr(task, name)).strip()}


@loader("worldsense", "WorldSense worldsense_qa.json: task0.. per video, letter answers, audio class", order=130)
def load(path: Path) -> Dataset:
    document = json_document(path)
    if not isinstance(document, dict) or not document:
        raise DatasetError(f"{path}: top level: expected an object keyed by video id (worldsense_qa.json)")
    questions = []
    for video_id, video in document.items():
        if not isinstance(video, dict):
            raise DatasetError(f"{path}, video {video_id!r}: expected a JSON object")
        [(_, header)] = parse_records(path, [(f"video {video_id!r}", video)], RawVideo, "WorldSense")
        shared = video_fields(header)
        keys = sorted((key for key in video if TASK_KEY.fullmatch(key)), key=lambda key: int(key[4:]))
        located = [(f"video {video_id!r}, {key}", video[key]) for key in keys]
        for (where, task), key in zip(parse_records(path, located, RawTask, "WorldSense"), keys):
            choices = without_letters([str(candidate) for candidate in task.candidates])
            questions.append(Question(id=f"worldsense-{video_id}-{key}", question=task.question,
                                      choices=choices, answer=gold_option(path, where, choices, task.answer),
                                      category=header.domain, media_id=str(video_id),
                                      caption=header.video_caption.strip() or None,
                                      fields={**shared, **task_fields(task)}, source=NAME))
    return Dataset(path.stem, questions)
