"""The `simpleqa` loader: SimpleQA's CSV, one question per row.

Columns `metadata`, `question` and `true_answer`; OpenAI's original names `problem` and `answer`
work too. `metadata` is a Python dict literal (as simple-evals writes it) or JSON; its `topic` is
the category. Rows have no ids, so a question's id is `simpleqa-<row number>` (1-based).
"""

from __future__ import annotations

import ast
import csv
import json
from pathlib import Path
from typing import Any

from pydantic import AliasChoices, BaseModel, Field, field_validator

from factprobe.eval.core.errors import DatasetError
from factprobe.eval.core.schema import Question
from factprobe.eval.core.text_files import text_lines
from factprobe.eval.datasets.raw import Located, Text, parse_records
from factprobe.eval.datasets.registry import Dataset, loader

NAME = "simpleqa"
COLUMNS = {"question": ("question", "problem"), "true_answer": ("true_answer", "answer")}


class RawRow(BaseModel):
    metadata: dict[str, Any] = Field(default_factory=dict)
    question: Text = Field(validation_alias=AliasChoices(*COLUMNS["question"]))
    true_answer: Text = Field(validation_alias=AliasChoices(*COLUMNS["true_answer"]))

    @field_validator("metadata", mode="before")
    @classmethod
    def parse_metadata(cls, value: Any) -> Any:
        """simple-evals writes `{'topic': ...}` (a Python literal); JSON is accepted too."""
        if not isinstance(value, str):
            return value
        if not value.strip():
            return {}
        try:
            return ast.literal_eval(value)
        except (ValueError, SyntaxError, RecursionError, MemoryError):
            try:
                return json.loads(value)
            except (json.JSONDecodeError, RecursionError):
                raise ValueError("not a dict literal or JSON object") from None


def csv_rows(path: Path) -> list[Located]:
    """Every data row as a dict, located by the line it ends on."""
    rows: list[Located] = []
    reader = csv.reader(line for _, line in text_lines(path))
    try:
        header = next(reader, None)
        if not header:
            raise DatasetError(f"{path}: the file is empty")
        for field, names in COLUMNS.items():
            if not set(names) & set(header):
                raise DatasetError(f"{path}, line 1: field `{field}`: no column named "
                                   f"{' or '.join(names)} (the header is {','.join(header)[:120]!r})")
        for row in reader:
            if not row:
                continue
            if len(row) != len(header):
                raise DatasetError(f"{path}, line {reader.line_num}: expected {len(header)} "
                                   f"columns, got {len(row)}")
            rows.append((f"line {reader.line_num}", dict(zip(header, row))))
    except csv.Error as exc:
        raise DatasetError(f"{path}, line {reader.line_num}: not valid CSV ({exc})") from None
    if not rows:
        raise DatasetError(f"{path}: the file holds no records")
    return rows


@loader("simpleqa", "SimpleQA CSV (metadata, question/problem, true_answer/answer)", order=20)
def load(path: Path) -> Dataset:
    questions = []
    for number, (_, row) in enumerate(parse_records(path, csv_rows(path), RawRow, "SimpleQA CSV"), start=1):
        topic = row.metadata.get("topic")
        questions.append(Question(id=f"simpleqa-{number}", question=row.question, answer=row.true_answer,
                                  category=topic.strip() if isinstance(topic, str) and topic.strip()
                                  else "general", source=NAME))
    return Dataset(path.stem, questions)
