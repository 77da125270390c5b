"""Reading JSON Lines into pydantic models, with errors that name the file, line and field."""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from factprobe.eval.core.errors import DatasetError, plain_words
from factprobe.eval.core.text_files import parse_json, text_lines

ModelT = TypeVar("ModelT", bound=BaseModel)


def read_jsonl_objects(path: Path) -> list[tuple[int, dict]]:
    """(line number, object) for every non-blank line, read one line at a time (text_lines: a line
    too long is refused before it is read whole); a bad line raises DatasetError."""
    rows: list[tuple[int, dict]] = []
    for line_number, line in text_lines(path):
        if not line.strip():
            continue
        value = parse_json(line, path, line_number)
        if not isinstance(value, dict):
            raise DatasetError(f"{path}, line {line_number}: expected a JSON object, got {type(value).__name__}")
        rows.append((line_number, value))
    if not rows:
        raise DatasetError(f"{path}: the file holds no records")
    return rows


def validation_message(exc: ValidationError) -> str:
    """The first validation problem as 'field `a.b`: message'."""
    first = exc.errors()[0]
    field = ".".join(str(part) for part in first["loc"]) or "(record)"
    return f"field `{field}`: {plain_words(first['msg'])}"


def read_jsonl_models(path: Path, model: type[ModelT]) -> list[ModelT]:
    """Every line of `path` validated as `model`."""
    records: list[ModelT] = []
    for line_number, value in read_jsonl_objects(path):
        try:
            records.append(model.model_validate(value))
        except ValidationError as exc:
            raise DatasetError(f"{path}, line {line_number}: {validation_message(exc)}") from None
    return records
