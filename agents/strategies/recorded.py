"""recorded: answers read from a file instead of asked of a model (`--answers FILE`).

For baselines nobody can re-run: people answering open- or closed-book, crowd workers, another
system's logged outputs. The file holds one answer per question id, as JSONL (one object a line)
or as TSV/CSV with a header row:

    id        the question's id in the dataset (`question_id` is read too)
    answer    the answer text; empty or null: no answer (graded as any missing answer is)
    confidence  optional, 0–100
    repeat    optional: the repeat this answer belongs to (0, 1, …); without it, every repeat

Other columns are ignored (a file may carry the question text), except one whose name is a near
miss of a missing known field, which is refused naming the field it resembles. The file is read
one line at a time (text_lines: a line over 64 MiB is refused before it is held whole). A bad line
stops the run before any question (factprobe.eval.config checks the file) naming the file, the
line and the field. A question the file does not answer becomes an ERROR row saying so, counted as
every failed row is. Graded and reported like any strategy; latency and tokens are not measured
(null in the summary, never zero), and no model is loaded when every strategy is recorded.
"""

from __future__ import annotations

import csv
import difflib
import hashlib
import json
import math
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from factprobe.agents.context import StrategyContext
from factprobe.agents.linear import linear_graph
from factprobe.agents.models.base import Completion, GenerationParams, Message, ModelError
from factprobe.agents.registry import register_strategy
from factprobe.agents.state import QAState
from factprobe.eval.core.errors import DatasetError, StrategyOptionError
from factprobe.eval.core.text_files import text_lines

FIELDS = ("id", "answer", "confidence", "repeat")
ALIASES = {"question_id": "id"}
JSONL_SUFFIXES = (".jsonl", ".json", ".ndjson")


class AnswersFileError(ValueError):
    """An answers file that cannot be read; the message names the file, the line and the field."""


class MissingAnswerError(LookupError):
    """A question the answers file does not answer (its row is an ERROR row)."""


@dataclass(frozen=True)
class RecordedAnswer:
    answer: str | None
    confidence: float | None
    line: int


@dataclass(frozen=True)
class Answers:
    """The answers of one file by (question id, repeat); repeat None: every repeat."""

    path: Path
    sha256: str
    by_key: dict[tuple[str, int | None], RecordedAnswer]

    def find(self, question_id: str, repeat: int) -> RecordedAnswer:
        found = self.by_key.get((question_id, repeat)) or self.by_key.get((question_id, None))
        if found is None:
            raise MissingAnswerError(f"no recorded answer for question {question_id!r} (repeat {repeat}) "
                                     f"in {self.path}")
        return found


def _confidence(value: Any, where: str) -> float | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = math.nan
    if isinstance(value, bool) or not 0 <= number <= 100:   # NaN fails the range too
        raise AnswersFileError(f"{where}, field `confidence`: {value!r} is not a number from 0 to 100")
    return number


def _repeat(value: Any, where: str) -> int | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    text = str(value).strip()
    if isinstance(value, bool) or not text.isdigit():
        raise AnswersFileError(f"{where}, field `repeat`: {value!r} is not a whole number of at least 0")
    return int(text)


def _fields(record: dict[str, Any], where: str) -> dict[str, Any]:
    """The known fields of one record (aliases mapped); a near-miss name of a missing one is refused."""
    fields = {ALIASES.get(key, key): value for key, value in record.items()}
    for key in record:
        if key in FIELDS or key in ALIASES:
            continue
        close = difflib.get_close_matches(key, [name for name in FIELDS if name not in fields], n=1, cutoff=0.75)
        if close:
            raise AnswersFileError(f"{where}: unknown field `{key}` (did you mean `{close[0]}`?)")
    for name in ("id", "answer"):
        if name not in fields:
            raise AnswersFileError(f"{where}: field `{name}` is missing (fields: id, answer, optional "
                                   f"confidence and repeat)")
    return fields


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, text) of every line, read one at a time (text_lines: a line over its limit, or
    not UTF-8, is refused naming the file and line before more of it is read)."""
    try:
        yield from text_lines(path)
    except DatasetError as exc:
        raise AnswersFileError(str(exc)) from None


def _is_jsonl(path: Path) -> bool:
    """JSONL by its suffix, or, when the suffix is neither .tsv nor .csv, by a first non-blank
    character `{`."""
    suffix = path.suffix.lower()
    if suffix in JSONL_SUFFIXES:
        return True
    if suffix in (".tsv", ".csv"):
        return False
    for _, line in _lines(path):
        if line.strip():
            return line.lstrip().startswith("{")
    return False


def _json_records(path: Path) -> list[tuple[int, dict[str, Any]]]:
    records = []
    for number, line in _lines(path):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise AnswersFileError(f"{path}, line {number}: not valid JSON ({exc.msg})") from None
        except RecursionError:
            raise AnswersFileError(f"{path}, line {number}: JSON nested too deeply to read") from None
        if not isinstance(record, dict):
            raise AnswersFileError(f"{path}, line {number}: expected a JSON object with id and answer, "
                                   f"got {type(record).__name__}")
        records.append((number, record))
    return records


def _records(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """(line number, record) of every non-blank line of a JSONL file or data row of a TSV/CSV file."""
    if _is_jsonl(path):
        return _json_records(path)
    reader = csv.DictReader((line for _, line in _lines(path)),
                            delimiter="," if path.suffix.lower() == ".csv" else "\t")
    records = []
    for row in reader:
        if None in row:
            raise AnswersFileError(f"{path}, line {reader.line_num}: more cells than the header's "
                                   f"{len(reader.fieldnames or [])} columns")
        if any((value or "").strip() for value in row.values()):
            records.append((reader.line_num, dict(row)))
    return records


def _sha256(path: Path) -> str:
    """sha256 of the file's bytes, read in chunks."""
    try:
        with path.open("rb") as handle:
            return hashlib.file_digest(handle, "sha256").hexdigest()
    except OSError as exc:
        raise AnswersFileError(f"{path}: cannot be read ({exc.strerror})") from None


@lru_cache(maxsize=8)
def _read(path: Path, stamp: tuple[int, int]) -> Answers:
    by_key: dict[tuple[str, int | None], RecordedAnswer] = {}
    for number, record in _records(path):
        where = f"{path}, line {number}"
        fields = _fields(record, where)
        question_id = fields["id"]
        if isinstance(question_id, bool) or not isinstance(question_id, (str, int)) or not str(question_id).strip():
            raise AnswersFileError(f"{where}, field `id`: {question_id!r} is not a question id")
        answer = fields["answer"]
        if answer is not None and not isinstance(answer, str):
            raise AnswersFileError(f"{where}, field `answer`: expected text or null, got {type(answer).__name__}")
        key = (str(question_id).strip(), _repeat(fields.get("repeat"), where))
        if key in by_key:
            raise AnswersFileError(f"{where}, field `id`: {key[0]!r} is answered twice (also on line "
                                   f"{by_key[key].line}{'' if key[1] is None else f', repeat {key[1]}'})")
        by_key[key] = RecordedAnswer((answer.strip() or None) if answer is not None else None,
                                     _confidence(fields.get("confidence"), where), number)
    if not by_key:
        raise AnswersFileError(f"{path}: holds no answers (expected id and answer per line, JSONL or "
                               f"TSV/CSV with a header row)")
    return Answers(path, _sha256(path), by_key)


def read_answers(path: Path) -> Answers:
    """The answers in `path`, read once per version of the file; AnswersFileError naming the file,
    line and field otherwise."""
    path = Path(path)
    if not path.is_file():
        raise AnswersFileError(f"{path}: no such file")
    stat = path.stat()
    return _read(path.resolve(), (stat.st_mtime_ns, stat.st_size))


class NoModel:
    """The model of a run whose every strategy answers from a file (or that asks nothing: `reason`
    says why): nothing is loaded, and a call (a post step's probe) fails saying why."""

    supports_logprobs = False

    def __init__(self, spec: str, reason: str = "every strategy of this run answers from --answers",
                 name: str = "no model (recorded answers)") -> None:
        self.spec = spec
        self.reason = reason
        self.name = name

    async def generate(self, messages: list[Message], params: GenerationParams) -> Completion:
        raise ModelError(f"no model was loaded: {self.reason} (--model {self.spec} is not used)")

    def describe(self) -> dict[str, Any]:
        return {"backend": "none", "name": self.name, "spec_not_loaded": self.spec}


@register_strategy("recorded", "answers read from --answers FILE (e.g. a human baseline); no model call",
                   reads=("answers",), recorded=True, in_default_run=False, order=90)
def build(context: StrategyContext):
    path = context.options.get("answers")
    if not path:
        raise StrategyOptionError("the recorded strategy grades answers from a file: give --answers FILE "
                                  "(JSONL or TSV with id, answer and an optional confidence)")
    answers = read_answers(Path(path))

    async def recall(state: QAState) -> dict[str, Any]:
        found = answers.find(state["question"].id, state.get("repeat", 0))
        step = {"step": "recorded", "file": str(answers.path), "line": found.line, "sha256": answers.sha256,
                "answer": found.answer, "confidence": found.confidence}
        return {"answer": found.answer, "raw": found.answer or "", "confidence": found.confidence,
                "trace": [step]}

    return linear_graph({"recorded": recall})
