"""What the public-benchmark loaders share: reading records and validating them as pydantic models.

Every record is located as `line N` (JSON Lines, CSV) or `record N` (a JSON array, 1-based), so
each problem becomes a DatasetError naming the file, the line or record, and the field.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

from pydantic import AfterValidator, BaseModel, StrictFloat, StrictInt, StringConstraints, ValidationError

from factprobe.eval.core.errors import DatasetError
from factprobe.eval.core.jsonl import read_jsonl_objects, validation_message
from factprobe.eval.core.schema import Hop
from factprobe.eval.core.text_files import parse_json, read_utf8

ModelT = TypeVar("ModelT", bound=BaseModel)
Located = tuple[str, dict[str, Any]]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
"""A string that must hold something besides spaces (stored stripped)."""
if TYPE_CHECKING:
    AnswerText = str   # what the validator below makes of every accepted value
else:
    AnswerText = Annotated[Text | StrictInt | StrictFloat, AfterValidator(str)]
"""An answer some datasets write as a number (a latitude, a year): kept as its text."""


def jsonl_records(path: Path) -> list[Located]:
    """Every object of a JSON Lines file, located by line."""
    return [(f"line {number}", value) for number, value in read_jsonl_objects(path)]


def json_document(path: Path) -> Any:
    """A whole JSON file; bad JSON names the line it fails on."""
    text = read_utf8(path)
    if not text.strip():
        raise DatasetError(f"{path}: the file is empty")
    return parse_json(text, path)


def json_records(path: Path, key: str | None = None) -> list[Located]:
    """The records of a JSON array, or of the array under `key` when the file is an object."""
    value = json_document(path)
    if key is not None and not isinstance(value, list):
        if not isinstance(value, dict) or key not in value:
            found = f" with keys {', '.join(sorted(value)[:6])}" if isinstance(value, dict) else ""
            raise DatasetError(f"{path}: field `{key}`: expected a list of records or an object "
                               f"holding them as `{key}`, got {type(value).__name__}{found}")
        value = value[key]
    if not isinstance(value, list):
        where = f"field `{key}`" if key else "top level"
        raise DatasetError(f"{path}: {where}: expected a list of records, got {type(value).__name__}")
    if not value:
        raise DatasetError(f"{path}: the file holds no records")
    records: list[Located] = []
    for index, item in enumerate(value, start=1):
        if not isinstance(item, dict):
            raise DatasetError(f"{path}, record {index}: expected a JSON object, got {type(item).__name__}")
        records.append((f"record {index}", item))
    return records


def parse_records(path: Path, records: list[Located], model: type[ModelT],
                  format_name: str) -> list[tuple[str, ModelT]]:
    """Validate every record as `model`; a failure on the first record hints at a wrong loader."""
    parsed: list[tuple[str, ModelT]] = []
    for position, (where, value) in enumerate(records):
        try:
            parsed.append((where, model.model_validate(value)))
        except ValidationError as exc:
            hint = (f" (the file does not look like {format_name}; check the loader name)"
                    if position == 0 else "")
            raise DatasetError(f"{path}, {where}: {validation_message(exc)}{hint}") from None
    return parsed


def record_error(path: Path, where: str, field: str, message: str) -> DatasetError:
    """A DatasetError for a value that validated but makes no sense for this format."""
    return DatasetError(f"{path}, {where}: field `{field}`: {message}")


def answer_and_aliases(values: list[str]) -> tuple[str, list[str]]:
    """The first listed answer and the distinct others as aliases (the caller checks non-empty)."""
    answer = values[0].strip()
    aliases: list[str] = []
    for value in values[1:]:
        value = value.strip()
        if value and value != answer and value not in aliases:
            aliases.append(value)
    return answer, aliases


def check_hop_references(path: Path, where: str, hops: list[Hop],
                         field: str = "hops.{index}.question") -> None:
    """Every `#k` in hop n's question must name an earlier hop (k < n), so Hop.render works.

    `field` names hop n's question in the raw record; `{index}` (0-based) and `{number}` (1-based)
    are filled in.
    """
    for number, hop in enumerate(hops, start=1):
        late = [k for k in hop.refers_to if k < 1 or k >= number]
        if late:
            raise record_error(path, where, field.format(index=number - 1, number=number),
                               f"{hop.question!r} refers to #{late[0]}, which is not an earlier hop")
