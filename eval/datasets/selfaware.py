"""The `selfaware` loader: SelfAware's JSON (`{"example": [...]}`; a bare list of records works too).

`answerable: false` questions have no answer (answer None). An answerable record's first listed
answer is the answer and the others are aliases. The category is the upstream collection named in
`source` without its split (`hotpot_train` -> `hotpot`; the unanswerable ones are `selfaware`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, StrictBool, StrictInt

from factprobe.eval.core.schema import Question
from factprobe.eval.datasets.raw import Text, answer_and_aliases, json_records, parse_records, record_error
from factprobe.eval.datasets.registry import Dataset, loader

NAME = "selfaware"


class RawRecord(BaseModel):
    question_id: StrictInt | Text
    question: Text
    answer: list[Text] | None
    answerable: StrictBool
    source: str = ""


def category(source: str) -> str:
    name = source.strip().lower()
    for split in ("_train", "_dev", "_test"):
        name = name.removesuffix(split)
    return name or "general"


@loader("selfaware", "SelfAware JSON: answerable and unanswerable questions", order=60)
def load(path: Path) -> Dataset:
    questions = []
    for where, record in parse_records(path, json_records(path, "example"), RawRecord, "SelfAware"):
        common: dict[str, Any] = dict(id=f"selfaware-{record.question_id}", question=record.question,
                                      category=category(record.source), source=NAME)
        if not record.answerable:
            questions.append(Question(**common, answer=None, answerable=False))
            continue
        if not record.answer:
            raise record_error(path, where, "answer", "an answerable record needs at least one answer")
        answer, aliases = answer_and_aliases(record.answer)
        questions.append(Question(**common, answer=answer, aliases=aliases))
    return Dataset(path.stem, questions)
