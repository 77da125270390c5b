"""The `mcq` loader: a generic multiple-choice JSON Lines file, one question per line.

Fields: `id`, `question`, `choices` (2 to 26 distinct option texts, in their original order),
`answer` (the gold option as a letter, "B" or "b", or as the option's text) and an optional
`category` and `media_id`. The Question stores the gold option's text; the letter the model must
pick is computed per repeat from the shuffled order (factprobe.agents.choices).
"""

from __future__ import annotations

import string
from pathlib import Path

from pydantic import BaseModel, Field

from factprobe.eval.core.errors import DatasetError
from factprobe.eval.core.schema import Question
from factprobe.eval.datasets.raw import AnswerText, Text, jsonl_records, parse_records, record_error
from factprobe.eval.datasets.registry import Dataset, loader

NAME = "mcq"
LETTERS = string.ascii_uppercase


class RawRecord(BaseModel):
    id: Text
    question: Text
    choices: list[AnswerText] = Field(min_length=2, max_length=len(LETTERS))
    answer: AnswerText
    category: Text = "general"
    media_id: Text | None = None


def gold_option(path: Path, where: str, choices: list[str], answer: str, field: str = "answer") -> str:
    """The gold option's text from a letter (A, b, …) or from the option's text itself."""
    if len(set(choices)) != len(choices):
        raise record_error(path, where, "choices", "the options must be distinct")
    if answer in choices:
        return answer
    letter = answer.strip().strip("().").upper()
    if len(letter) == 1 and letter in LETTERS[: len(choices)]:
        return choices[LETTERS.index(letter)]
    raise record_error(path, where, field, f"{answer!r} is neither an option's letter nor one of the options")


@loader("mcq", "multiple-choice JSONL: id, question, choices, answer (letter or text)", order=110)
def load(path: Path) -> Dataset:
    questions, located = [], {}
    for where, record in parse_records(path, jsonl_records(path), RawRecord, "multiple-choice JSONL"):
        choices = [choice.strip() for choice in record.choices]
        if not all(choices):
            raise DatasetError(f"{path}, {where}: field `choices`: an option is empty")
        questions.append(Question(id=record.id, question=record.question, choices=choices,
                                  answer=gold_option(path, where, choices, record.answer.strip()),
                                  category=record.category, media_id=record.media_id, source=NAME))
        located[record.id] = where
    return Dataset(path.stem, questions, where=located)
