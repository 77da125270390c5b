"""The `mmsap` loader: MM-SAP's three subsets (BasicVisQA, KnowVisQA, BeyondVisQA).

MM-SAP's released file layout is not documented in any source we could read (the authors'
repository holds only figures and links the data on Hugging Face), so this loader reads the
content every MM-SAP question has, as the paper and the authors' figures show it, in a JSON array
or JSON Lines file, or a folder of such files (one per subset):
`id` (optional), `subset` (else the file's name when it names a subset), `type` (the subtask),
`image` (a path, read under `--media DIR`, else beside the file), `question`, `options` (five,
lettered A–E, as a mapping letter → text or a list in letter order, one of them the refusal
option "Sorry, I can't help with it" at any position) and `answer` (the gold option's letter or text).

- The refusal option is taken out of the choices: factprobe offers it itself to the strategies
  that offer refusal (`refusal`), so the other strategies ask the four content options (the
  forced re-ask without it). Its released letter is the field `refusal_option`.
- BasicVisQA and KnowVisQA questions are answerable, their gold a content option. A question whose
  gold is the refusal option (every BeyondVisQA question) is unanswerable: a refusal is its right
  answer, which the self-awareness summary counts as a known unknown.
- Ids are the record's `id`, else `mmsap-<subset>-<k>`; category is the subset; fields kept for
  grouping (Question.fields): `subset`, `type`, `refusal_option`.
"""

from __future__ import annotations

import re
import string
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from factprobe.eval.core.errors import DatasetError
from factprobe.eval.core.schema import FieldValue, Question
from factprobe.eval.datasets.mcq import gold_option
from factprobe.eval.datasets.raw import (
    AnswerText,
    Located,
    Text,
    json_document,
    jsonl_records,
    parse_records,
    record_error,
)
from factprobe.eval.datasets.registry import Dataset, loader

NAME = "mmsap"
SUBSETS = ("BasicVisQA", "KnowVisQA", "BeyondVisQA")
UNANSWERABLE = "BeyondVisQA"
REFUSAL_TEXT = "sorry, i can't help with it"
LETTERS = string.ascii_uppercase
QUOTES = re.compile(r"[\u2018\u2019\u02bc`]")


class RawRecord(BaseModel):
    id: Text | None = None
    subset: Text | None = None
    type: str = ""
    image: Text | None = None
    question: Text
    options: dict[str, AnswerText] | list[AnswerText] = Field(min_length=2)
    answer: AnswerText


def is_refusal(option: str) -> bool:
    """The refusal option, however its apostrophe, case and final full stop are written."""
    return QUOTES.sub("'", option).strip().rstrip(".").lower() == REFUSAL_TEXT


def subset_named(text: str) -> str | None:
    squeezed = re.sub(r"[^a-z]", "", text.lower())
    return next((subset for subset in SUBSETS if subset.lower() in squeezed), None)


def files_of(path: Path) -> list[Path]:
    if not path.is_dir():
        return [path]
    files = sorted(p for p in path.iterdir() if p.suffix.lower() in (".json", ".jsonl") and p.is_file())
    if not files:
        raise DatasetError(f"{path}: a folder without .json or .jsonl files (MM-SAP's subsets)")
    return files


def records_of(path: Path) -> list[Located]:
    if path.suffix.lower() == ".jsonl":
        return jsonl_records(path)
    document = json_document(path)
    if isinstance(document, dict):   # {"BasicVisQA": [...], ...} or {"data": [...]}
        lists = [(key, value) for key, value in document.items() if isinstance(value, list)]
        if not lists:
            raise DatasetError(f"{path}: top level: expected a list of questions or an object of lists")
        return [(f"`{key}` record {n}", {"subset": subset_named(key), **item} if isinstance(item, dict) else item)
                for key, items in lists for n, item in enumerate(items, start=1)]
    if not isinstance(document, list):
        raise DatasetError(f"{path}: top level: expected a list of questions, got {type(document).__name__}")
    return [(f"record {n}", item) for n, item in enumerate(document, start=1)]


def lettered(options: dict[str, Any] | list[Any]) -> list[tuple[str, str]]:
    if isinstance(options, list):
        return [(LETTERS[i], str(text).strip()) for i, text in enumerate(options)]
    return sorted(((letter.strip().upper(), str(text).strip()) for letter, text in options.items()))


def load_file(path: Path, questions: list[Question], notes: list[str]) -> None:
    for where, record in parse_records(path, records_of(path), RawRecord, "MM-SAP"):
        subset = subset_named(record.subset or "") or subset_named(path.stem)
        if subset is None:
            raise record_error(path, where, "subset", f"{record.subset!r} names none of {', '.join(SUBSETS)} "
                                                      f"(nor does the file name)")
        options = lettered(record.options)
        refusals = [letter for letter, text in options if is_refusal(text)]
        choices = [text for _, text in options if not is_refusal(text)]
        gold_text = gold_option(path, where, [text for _, text in options], str(record.answer).strip())
        fields: dict[str, FieldValue] = {"subset": subset}
        if record.type.strip():
            fields["type"] = record.type.strip()
        if refusals:
            fields["refusal_option"] = refusals[0]
        else:
            notes.append(f"{path.name}, {where}: no refusal option among its options")
        answerable = not is_refusal(gold_text)
        if answerable == (subset == UNANSWERABLE):
            notes.append(f"{path.name}, {where}: a {subset} question whose gold is "
                         f"{'a content option' if answerable else 'the refusal option'}")
        number = sum(q.category == subset for q in questions) + 1
        questions.append(Question(
            id=record.id or f"mmsap-{subset}-{number}", question=record.question, choices=choices,
            answer=gold_text if answerable else None, answerable=answerable,
            unanswerable_reason=None if answerable else "the image does not hold the answer (refusal is right)",
            category=subset, media=[record.image] if record.image else [], fields=fields, source=NAME))


@loader("mmsap", "MM-SAP JSON/JSONL (file or folder): Basic/Know/BeyondVisQA, refusal option", order=140)
def load(path: Path) -> Dataset:
    questions: list[Question] = []
    notes: list[str] = []
    for file in files_of(path):
        load_file(file, questions, notes)
    notes.insert(0, "the refusal option is offered by strategies that offer refusal (`refusal`), as the last "
                    "option; the other strategies see the four content options")
    return Dataset(path.stem, questions, notes=notes)
