"""The `compceleb` loader: Compositional Celebrities JSON (`{"data": [...]}` or a bare list).

Each record is two hops: Q1/A1, then Q2/A2 with A1 written as `#1` (where Q2 names A1 as a whole
word), composed into `Question`/`Answer`. The first listed answer is the answer, others aliases.
When A2 disagrees with Answer the record keeps no hops (the dataset's notes count them).
Ids are `compceleb-<person_id>-<category>`; the benchmark's full file repeats that pair, so a
repeat gets `-2`, `-3`, … (the first free suffix): ids are unique by construction.
"""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import BaseModel, Field, StrictInt

from factprobe.eval.core.schema import Hop, Question
from factprobe.eval.datasets.raw import (
    AnswerText,
    Text,
    answer_and_aliases,
    check_hop_references,
    json_records,
    parse_records,
)
from factprobe.eval.datasets.registry import Dataset, loader

NAME = "compceleb"


class RawRecord(BaseModel):
    Q1: Text
    A1: list[AnswerText] = Field(min_length=1)
    Q2: Text
    A2: list[AnswerText] = Field(min_length=1)
    Question: Text
    Answer: list[AnswerText] = Field(min_length=1)
    category: str = "general"
    person_id: StrictInt | Text


def refer_to_first_hop(question: str, first_answer: str) -> str:
    """Q2 with the first hop's answer (as a whole word) replaced by `#1`."""
    return re.sub(rf"(?<!\w){re.escape(first_answer)}(?!\w)", "#1", question)


def unique_id(base: str, taken: set[str]) -> str:
    """`base`, or `base-N` with the smallest N >= 2 not yet in `taken`; added to `taken`."""
    candidate, number = base, 1
    while candidate in taken:
        number += 1
        candidate = f"{base}-{number}"
    taken.add(candidate)
    return candidate


@loader("compceleb", "Compositional Celebrities JSON: Q1/A1 then Q2/A2", order=90)
def load(path: Path) -> Dataset:
    questions: list[Question] = []
    taken: set[str] = set()
    disagree = 0
    records = parse_records(path, json_records(path, "data"), RawRecord, "Compositional Celebrities")
    for where, record in records:
        answer, aliases = answer_and_aliases(record.Answer)
        first, first_aliases = answer_and_aliases(record.A1)
        second, second_aliases = answer_and_aliases(record.A2)
        hops: list[Hop] = []
        if second == answer:
            hops = [Hop(question=record.Q1, answer=first, aliases=first_aliases),
                    Hop(question=refer_to_first_hop(record.Q2, first), answer=second, aliases=second_aliases)]
            check_hop_references(path, where, hops, "Q{number}")
        else:
            disagree += 1
        questions.append(Question(id=unique_id(f"compceleb-{record.person_id}-{record.category}", taken),
                                  question=record.Question, answer=answer, aliases=aliases,
                                  category=record.category, hops=hops, source=NAME))
    notes = [f"{disagree} records keep no hops: A2 differs from Answer"] if disagree else []
    return Dataset(path.stem, questions, notes=notes)
