"""The `kuq` loader: Known Unknown Questions JSON Lines (`question`, `answer`, `unknown`, `category`).

A known question's first listed answer is the answer and the others are aliases; an unknown one
has no answer (its listed "answers" explain why it cannot be answered) and its `category`
(future unknown, false assumption, ...) becomes the unanswerable reason. The category is
`category` when given, else the record's `source`. Records have no ids: `kuq-<line number>`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, StrictBool

from factprobe.eval.core.schema import Question
from factprobe.eval.datasets.raw import Text, answer_and_aliases, jsonl_records, parse_records, record_error
from factprobe.eval.datasets.registry import Dataset, loader

NAME = "kuq"


class RawRecord(BaseModel):
    question: Text
    answer: list[str] = Field(default_factory=list)
    unknown: StrictBool
    category: str | None = None
    source: str = ""


@loader("kuq", "Known Unknowns (KUQ) JSONL: known and unknown questions", order=70)
def load(path: Path) -> Dataset:
    questions = []
    for where, record in parse_records(path, jsonl_records(path), RawRecord, "KUQ"):
        label = (record.category or record.source).strip() or "general"
        common: dict[str, Any] = dict(id=f"kuq-{where.removeprefix('line ')}", question=record.question,
                                      category=label, source=NAME)
        if record.unknown:
            questions.append(Question(**common, answer=None, answerable=False,
                                      unanswerable_reason=record.category or None))
            continue
        answers = [answer for answer in record.answer if answer.strip()]
        if not answers:
            raise record_error(path, where, "answer", "a known question needs at least one answer")
        answer, aliases = answer_and_aliases(answers)
        questions.append(Question(**common, answer=answer, aliases=aliases))
    return Dataset(path.stem, questions)
