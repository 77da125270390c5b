"""The `worldsense` loader: WorldSense's `worldsense_qa.json` (an object keyed by video id).

Format as far as public code that reads the released file shows it (VLMEvalKit's WorldSense
dataset class; the WorldSense README only links the file): each video has `domain`,
`sub_category`, `duration`, `audio_class`, `video_caption` and one entry per question under keys
`task0`, `task1`, …; each has `question`, `candidates` (options, written with their letter, e.g.
"A. text"), `answer` (the gold letter), `task_domain` and `task_type`.

Verified: on files our tests write in that shape. Not verified: the released file itself (not
downloaded here), nor that every candidate carries its letter: a leading "A. " / "(A) " is removed
only when every candidate of a question carries its own letter in order. Ids are
`worldsense-<video id>-<task key>`; `media_id` is the video id; category is the video's domain.
"""

from __future__ import annotations

import re
import string
from pathlib import Path

from pydantic import BaseModel, Field

from factprobe.eval.core.errors import DatasetError
from factprobe.eval.core.schema import Question
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


def without_letters(candidates: list[str]) -> list[str]:
    """The options without their "A. " prefixes, when every option has its own letter in order."""
    matches = [LETTER_PREFIX.match(text.strip()) for text in candidates]
    if all(m and m.group(1) == string.ascii_uppercase[i] for i, m in enumerate(matches)):
        return [m.group(2).strip() for m in matches if m]
    return [text.strip() for text in candidates]


@loader("worldsense", "WorldSense worldsense_qa.json: task0.. per video, letter answers", order=130)
def load(path: Path) -> Dataset:
    document = json_document(path)
    if not isinstance(document, dict) or not document:
        raise DatasetError(f"{path}: top level: expected an object keyed by video id (worldsense_qa.json)")
    questions = []
    for video_id, video in document.items():
        if not isinstance(video, dict):
            raise DatasetError(f"{path}, video {video_id!r}: expected a JSON object")
        [(_, header)] = parse_records(path, [(f"video {video_id!r}", video)], RawVideo, "WorldSense")
        keys = sorted((key for key in video if TASK_KEY.fullmatch(key)), key=lambda key: int(key[4:]))
        located = [(f"video {video_id!r}, {key}", video[key]) for key in keys]
        for (where, task), key in zip(parse_records(path, located, RawTask, "WorldSense"), keys):
            choices = without_letters(task.candidates)
            questions.append(Question(id=f"worldsense-{video_id}-{key}", question=task.question,
                                      choices=choices, answer=gold_option(path, where, choices, task.answer),
                                      category=header.domain, media_id=str(video_id), source=NAME))
    return Dataset(path.stem, questions)
