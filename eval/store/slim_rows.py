"""Slim rows: what summary sections and plots read of a results.jsonl row, without its bulk.

A report over 100,000 rows cannot hold 100,000 full `Result`s (traces, raw replies, question
texts: about 7 KB each). A `SlimRow` holds the fields the sections compute from (grades, ids,
confidences, costs, samples, retrieval ids, the fields post steps added) plus two digests of bulky
fields: `hop_grades` (the grades of `hops`) and `steps` (the scalar values of the trace steps
`SUMMARY_STEPS` that sections read). It answers every other `Result` attribute (`trace`, `raw`,
`question`, `hops`, `model_dump`, …) by reading its own line of results.jsonl again, so code
written for `Result`, such as a plugin's section or plot, keeps working; only those bulky reads
cost a parse each. A `HeldRow` keeps those fields in its own slots; `RunDir.latest_slim` packs
them into columns instead (factprobe.eval.store.row_store), about a fifth of the memory.

`fast_row_dict` parses a line with orjson (three times faster than json) and accepts it only when
every field each row holds (ResultCore) is present with exactly the type `Result` would hold, so the
dict is what `Result.model_dump(mode="json")` gives; any other line is left to the pydantic model
(coercion, defaults, error messages).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from operator import itemgetter
from pathlib import Path
from typing import Any

import orjson

from factprobe.eval.core.schema import Grade, Result, ResultCore

SUMMARY_STEPS = ("retrieve", "choose")
HELD = ("question_id", "strategy", "repeat", "category", "answerable", "hop_count", "answer", "confidence",
        "confidences", "grade", "grader", "latency_s", "retrieval_latency_s", "llm_latency_s",
        "prompt_tokens", "completion_tokens", "llm_calls", "error", "samples", "retrieved_ids",
        "gold_passage_ids")
FIELDS = tuple(ResultCore.model_fields)   # those every row holds; the added ones are extras here
FIELD_SET = frozenset(FIELDS)
GRADES = {grade.value: grade for grade in Grade}
HOP_KEYS = frozenset(("question", "gold", "answer", "grade", "confidence"))
Key = tuple[str, str, int]


def _percent(value: Any) -> bool:
    return value is None or (type(value) is float and 0.0 <= value <= 100.0)


def _optional_str(value: Any) -> bool:
    return value is None or type(value) is str


def _str_list(value: Any) -> bool:
    return value is None or (type(value) is list and all(type(item) is str for item in value))


def _dict_list(value: Any) -> bool:
    return type(value) is list and all(type(item) is dict for item in value)


def _hop(value: Any) -> bool:
    return (type(value) is dict and value.keys() == HOP_KEYS and type(value["question"]) is str
            and _optional_str(value["gold"]) and _optional_str(value["answer"])
            and (value["grade"] is None or value["grade"] in GRADES) and _percent(value["confidence"]))


# Result's fields by exact JSON type (bool is not accepted as an int, nor an int as a float:
# pydantic would coerce those, so such a line goes to it)
STR_FIELDS = ("question_id", "strategy", "question", "category", "grader")
INT_FIELDS = ("repeat", "hop_count", "prompt_tokens", "completion_tokens", "llm_calls")
FLOAT_FIELDS = ("latency_s", "retrieval_latency_s", "llm_latency_s")
OPTIONAL_STR_FIELDS = ("gold", "answer", "raw", "grade_note", "error")
OTHER_FIELDS = ("answerable", "confidence", "confidences", "grade", "trace", "hops", "samples", "retrieved_ids",
                "gold_passage_ids")
TYPED = (*STR_FIELDS, *INT_FIELDS, *FLOAT_FIELDS, *OPTIONAL_STR_FIELDS, *OTHER_FIELDS)
assert sorted(TYPED) == sorted(FIELDS), "every ResultCore field needs an exact-type check"


_FIXED = itemgetter(*STR_FIELDS, *INT_FIELDS, *FLOAT_FIELDS, "answerable")
_FIXED_TYPES = (*(str,) * len(STR_FIELDS), *(int,) * len(INT_FIELDS), *(float,) * len(FLOAT_FIELDS), bool)
_OPTIONAL_STRS = itemgetter(*OPTIONAL_STR_FIELDS)
_STR_OR_NONE = frozenset((str, type(None)))


def _exact(data: dict[str, Any]) -> bool:
    """Every ResultCore field present, with the exact type (and range) the model would hold (the
    added fields are kept as they were written, as the model dumps them)."""
    if tuple(map(type, _FIXED(data))) != _FIXED_TYPES or not _STR_OR_NONE.issuperset(map(type, _OPTIONAL_STRS(data))):
        return False
    confidences, hops, samples = data["confidences"], data["hops"], data["samples"]
    return (_percent(data["confidence"]) and data["grade"] in GRADES and data["repeat"] >= 0
            and type(confidences) is dict and all(type(k) is str and _percent(v) for k, v in confidences.items())
            and _dict_list(data["trace"]) and (samples is None or _dict_list(samples))
            and (hops is None or (type(hops) is list and all(_hop(hop) for hop in hops)))
            and _str_list(data["retrieved_ids"]) and _str_list(data["gold_passage_ids"]))


def fast_row_dict(line: str) -> dict[str, Any] | None:
    """The row as `Result.model_dump(mode="json")` would give it, or None when only the pydantic
    model can tell (a missing field, a value it would coerce, a range or JSON error)."""
    try:
        data = orjson.loads(line)  # refuses NaN and Infinity, which are not JSON
    except (ValueError, RecursionError):
        return None
    if type(data) is not dict:
        return None
    try:
        return data if _exact(data) else None
    except (KeyError, TypeError):       # a field missing, or an unhashable grade
        return None


def summary_steps(trace: Iterable[dict[str, Any]]) -> tuple[dict[str, Any], ...]:
    """The trace steps sections read (`SUMMARY_STEPS`), keeping their scalar values only."""
    return tuple({key: value for key, value in step.items() if not isinstance(value, (list, dict))}
                 for step in trace if step.get("step") in SUMMARY_STEPS)


class RowFile:
    """results.jsonl read again at a row's byte offset, for the bulky fields of slim rows."""

    def __init__(self, path: Path, parse: Callable[[str], Result]) -> None:
        self.path = path
        self.parse = parse

    def line_at(self, offset: int) -> str:
        with self.path.open("rb") as handle:
            handle.seek(offset)
            return handle.readline().decode("utf-8")

    def full(self, offset: int) -> Result:
        return self.parse(self.line_at(offset))

    def lines(self, offsets: Iterable[int]) -> Iterator[str]:
        """The line at each offset, reading the file once in order (seeking only where a superseded
        row is skipped or the order goes back)."""
        with self.path.open("rb") as handle:
            position = 0
            for offset in offsets:
                if offset != position:
                    handle.seek(offset)
                data = handle.readline()
                position = offset + len(data)
                yield data.decode("utf-8")

    def dumps(self, lines: Iterable[tuple[int, bool]]) -> Iterator[dict[str, Any]]:
        """`Result.model_dump(mode="json")` of the row at each (offset, plain) — plain: the line
        passed `fast_row_dict` when first read, so `json.loads` gives the dump — reading the file
        once in order (seeking only where a superseded row is skipped or the order goes back)."""
        with self.path.open("rb") as handle:
            position = 0
            for offset, plain in lines:
                if offset != position:
                    handle.seek(offset)
                data = handle.readline()
                position = offset + len(data)
                yield json.loads(data) if plain else self.parse(data.decode("utf-8")).model_dump(mode="json")


def extras_of(data: dict[str, Any]) -> dict[str, Any]:
    """The keys of a row dict beyond ResultCore's (the added fields and a user's own keys), in their order."""
    names = data.keys() - FIELD_SET
    ordered = [name for name in data if name in names] if len(names) > 1 else names
    return {name: data[name] for name in ordered}


class SlimRow:
    """One row's summary fields (see the module docstring); other `Result` attributes are read from
    the file on access. Two kinds: `HeldRow` holds its fields itself, and a packed row
    (factprobe.eval.store.row_store) reads them from the columns of the rows read with it."""

    __slots__ = ()

    question_id: str
    strategy: str
    repeat: int
    category: str
    answerable: bool
    hop_count: int
    answer: str | None
    confidence: float | None
    confidences: dict[str, float | None]
    grade: Grade
    grader: str
    latency_s: float
    retrieval_latency_s: float
    llm_latency_s: float
    prompt_tokens: int
    completion_tokens: int
    llm_calls: int
    error: str | None
    samples: list[dict[str, Any]] | None
    retrieved_ids: list[str] | None
    gold_passage_ids: list[str] | None
    extras: dict[str, Any]
    hop_grades: tuple[Grade | None, ...] | None
    steps: tuple[dict[str, Any], ...]
    _file: RowFile | Result | None   # a Result for a row made from one (`from_result`)
    _offset: int
    _plain: bool

    @classmethod
    def from_dict(cls, data: dict[str, Any], file: RowFile | None, offset: int) -> SlimRow:
        """From a `fast_row_dict` (its values already checked)."""
        return HeldRow.held(data, file, offset)

    @classmethod
    def from_result(cls, result: Result, file: RowFile | None = None, offset: int = 0) -> SlimRow:
        row = HeldRow.held(result.model_dump(mode="json"), file, offset)
        row._plain = False          # its line is not a model dump as it stands
        if file is None:
            row._file = result
        return row

    def moved_to(self, file: RowFile, offset: int) -> SlimRow:
        """This row, now read from `file` at `offset`: where its line was copied byte for byte (a
        merge), so what it holds and how its bulk parses are unchanged."""
        raise NotImplementedError

    @property
    def key(self) -> Key:
        return (self.question_id, self.strategy, self.repeat)

    @property
    def offset(self) -> int:
        """The byte offset of the row's line in results.jsonl."""
        return self._offset

    @property
    def row_file(self) -> RowFile | None:
        """The results.jsonl the row was read from (None for a row made from a Result)."""
        file = self._file
        return file if isinstance(file, RowFile) else None

    @property
    def plain(self) -> bool:
        """The row's line passed `fast_row_dict`: parsed as JSON it is the model dump."""
        return self._plain

    @property
    def model_extra(self) -> dict[str, Any]:
        return self.extras

    def extra_field(self, key: str) -> Any:
        return self.extras.get(key)

    def full(self) -> Result:
        """The whole row, parsed again from its line (or the Result it was made from)."""
        file = self._file
        if isinstance(file, Result):
            return file
        if file is None:
            raise ValueError(f"row {self.key} has no file to read its other fields from")
        return file.full(self._offset)

    def __getattr__(self, name: str) -> Any:
        # only called for names not in the slots: a field added by a post step, or bulk of the row
        if name.startswith("_"):
            raise AttributeError(name)
        extras = self.extras
        if name in extras:
            return extras[name]
        if name in FIELD_SET or hasattr(Result, name):
            return getattr(self.full(), name)
        raise AttributeError(f"{type(self).__name__} {self.key} has no field {name!r}")

    def __repr__(self) -> str:
        return f"SlimRow({self.question_id!r}, {self.strategy!r}, {self.repeat}, {self.grade.value})"


class HeldRow(SlimRow):
    """A slim row holding its fields in its own slots (about 1 KB of objects a row): a row made
    from a Result, or one whose values the packed columns cannot hold."""

    __slots__ = (*HELD, "extras", "hop_grades", "steps", "_file", "_offset", "_plain")

    @classmethod
    def held(cls, data: dict[str, Any], file: RowFile | None, offset: int) -> HeldRow:
        row = cls.__new__(cls)
        for name in HELD:
            setattr(row, name, data[name])
        row.strategy, row.category, row.grader = (sys.intern(row.strategy), sys.intern(row.category),
                                                  sys.intern(row.grader))
        row.grade = GRADES[data["grade"]]
        row.hop_grades = hop_grades_of(data["hops"])
        read = [step for step in data["trace"] if step.get("step") in SUMMARY_STEPS]   # most rows: none
        row.steps = summary_steps(read) if read else ()
        row.extras = extras_of(data) if len(data) > len(FIELDS) else {}   # every field is present
        row._file, row._offset, row._plain = file, offset, True
        return row

    def moved_to(self, file: RowFile, offset: int) -> SlimRow:
        self._file, self._offset = file, offset
        return self


def hop_grades_of(hops: list[dict[str, Any]] | None) -> tuple[Grade | None, ...] | None:
    """The grades of a row dict's `hops` (None without hops)."""
    return None if hops is None else tuple([None if h["grade"] is None else GRADES[h["grade"]] for h in hops])


def hop_grades(row: Result | SlimRow) -> tuple[Grade | None, ...] | None:
    """The grades of the row's `hops` (None without hops), from a full or a slim row."""
    if isinstance(row, SlimRow):
        return row.hop_grades
    return None if row.hops is None else tuple(hop.grade for hop in row.hops)


def trace_steps(row: Result | SlimRow, name: str) -> list[dict[str, Any]]:
    """The row's trace steps called `name` (one of SUMMARY_STEPS), from a full or a slim row."""
    steps = row.steps if isinstance(row, SlimRow) else row.trace
    return [step for step in steps if step.get("step") == name]


def full_rows(rows: Iterable[Result | SlimRow]) -> list[Result]:
    """Full Results of the rows (slim ones read again), for code that needs whole traces."""
    return [row.full() if isinstance(row, SlimRow) else row for row in rows]


def row_dumps(rows: Sequence[Result | SlimRow]) -> Iterator[dict[str, Any]]:
    """`model_dump(mode="json")` of every row; slim rows of one file are read again in one pass."""
    file = rows[0]._file if rows and isinstance(rows[0], SlimRow) else None
    slim = [row for row in rows if isinstance(row, SlimRow) and row._file is file]
    if isinstance(file, RowFile) and len(slim) == len(rows):
        yield from file.dumps((row.offset, row._plain) for row in slim)
        return
    for row in rows:
        yield (row.full() if isinstance(row, SlimRow) else row).model_dump(mode="json")
