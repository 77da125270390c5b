"""Slim rows packed into columns: what `RunDir.latest_slim` holds of a large results.jsonl.

A `HeldRow` costs about 1 KB in objects (floats, ints, a dict of confidences, lists of passage ids,
trace-step dicts), and since they are made among the ~7 KB of objects each line parses into,
which are freed at once, they leave the allocator's arenas mostly empty but unreturnable: about
1.6 KB of resident memory a row. `RowStore` keeps the same values in one column per field instead,
none of them a Python object per row: numbers in `array`s, names (strategy, category, grader) as
codes, question ids as UTF-8 bytes and the other fields as their JSON bytes (orjson: every value,
floats included, reads back equal), all in a few growing buffers. A row is a `PackedRow` of two
slots, made once the file is read, answering every attribute a `HeldRow` does with an equal value
(parsed again on each access, so a caller gets a fresh list or dict).

A row whose values orjson cannot write back (an int beyond 64 bits) is kept as a `HeldRow`.
"""

from __future__ import annotations

from array import array
from functools import cache
from operator import itemgetter
from typing import Any

import orjson

from factprobe.eval.core.schema import Grade, Result
from factprobe.eval.store.slim_rows import (
    FIELD_SET,
    FIELDS,
    GRADES,
    SUMMARY_STEPS,
    RowFile,
    SlimRow,
    extras_of,
    summary_steps,
)

GRADE_ORDER = tuple(Grade)
GRADE_CODE = {grade.value: code for code, grade in enumerate(GRADE_ORDER)}
INTS = ("repeat", "hop_count", "prompt_tokens", "completion_tokens", "llm_calls")
FLOATS = ("latency_s", "retrieval_latency_s", "llm_latency_s")
NAMES = ("strategy", "category", "grader")
JSON_FIELDS = ("answer", "confidence", "confidences", "error", "samples", "retrieved_ids", "gold_passage_ids")
INT64 = range(-(2**63), 2**63)
INT32 = range(-(2**31), 2**31)
_INT_VALUES, _FLOAT_VALUES, _NAME_VALUES, _JSON_VALUES = (itemgetter(*names) for names in (INTS, FLOATS, NAMES,
                                                                                          JSON_FIELDS))
BOOLS = (False, True)


def grown(column: array, value: int) -> array:
    """`column` with `value` appended: 4-byte items while they hold it, else copied to 8-byte ones."""
    try:
        column.append(value)
    except OverflowError:
        column = array("q" if column.typecode == "i" else "Q", column)
        column.append(value)
    return column


class Blobs:
    """Byte strings end to end in one buffer, with where each ends."""

    __slots__ = ("data", "ends")

    def __init__(self) -> None:
        self.data = bytearray()
        self.ends = array("I")

    def __getitem__(self, index: int) -> bytearray:
        return self.data[self.ends[index - 1] if index else 0:self.ends[index]]


class RowStore:
    """The columns of the rows read from one results.jsonl (see the module docstring)."""

    def __init__(self, file: RowFile | None) -> None:
        self.files: list[RowFile | None] = [file]
        self.file_index = array("H")
        self.offset = array("q")
        self.answerable = array("B")
        self.grade = array("B")
        self.json = {name: Blobs() for name in (*JSON_FIELDS, "hop_grades", "steps", "extras")}
        self.question_id = Blobs()                 # UTF-8
        self.blobs = [*self.json.values(), self.question_id]   # in the order `add` packs them
        self._held = 0                             # bytes in all the buffers
        self.ints = {name: array("i") for name in INTS}
        self.floats = {name: array("d") for name in FLOATS}
        self.codes = {name: array("I") for name in NAMES}
        self.names: dict[str, list[str]] = {name: [] for name in NAMES}
        self._code_of: dict[str, dict[str, int]] = {name: {} for name in NAMES}
        self.extra_names: set[str] = set()         # every post-step field some row holds

    def __len__(self) -> int:
        return len(self.offset)

    def add(self, data: dict[str, Any], offset: int) -> int | None:
        """Pack the row of a `fast_row_dict`; its index, or None when the columns cannot hold it."""
        ints = _INT_VALUES(data)
        small = min(ints) >= INT32.start and max(ints) < INT32.stop
        if not small and not all(value in INT64 for value in ints):
            return None
        read = [step for step in data["trace"] if step.get("step") in SUMMARY_STEPS]   # most rows: none
        hops = data["hops"]
        extras = extras_of(data) if len(data) > len(FIELDS) else None
        try:
            blobs = [*map(orjson.dumps, _JSON_VALUES(data)),
                     b"null" if hops is None else orjson.dumps([hop["grade"] for hop in hops]),
                     orjson.dumps(summary_steps(read)) if read else b"",
                     b"" if extras is None else orjson.dumps(extras), data["question_id"].encode()]
        except TypeError:                          # an int beyond 64 bits
            return None
        if extras is not None and not self.extra_names.issuperset(extras):
            self.extra_names.update(extras)
        self._held += sum(map(len, blobs))
        if self._held >= 2**32 and self.blobs[0].ends.typecode == "I":   # a buffer may pass 4-byte ends
            for column in self.blobs:
                column.ends = array("Q", column.ends)
        for column, blob in zip(self.blobs, blobs):
            buffer = column.data
            buffer += blob
            column.ends.append(len(buffer))
        self.file_index.append(0)
        self.offset.append(offset)
        self.answerable.append(data["answerable"])
        self.grade.append(GRADE_CODE[data["grade"]])
        columns = self.ints
        if small:
            for name, value in zip(INTS, ints):
                columns[name].append(value)
        else:
            for name, value in zip(INTS, ints):
                columns[name] = grown(columns[name], value)
        for name, value in zip(FLOATS, _FLOAT_VALUES(data)):
            self.floats[name].append(value)
        for name, value in zip(NAMES, _NAME_VALUES(data)):
            code = self._code_of[name].get(value)
            self.codes[name].append(self._code(name, value) if code is None else code)
        return len(self.offset) - 1

    def _code(self, name: str, value: str) -> int:
        codes = self._code_of[name]
        code = codes.get(value)
        if code is None:
            code = codes[value] = len(self.names[name])
            self.names[name].append(value)
        return code

    def key(self, index: int) -> tuple[str, str, int]:
        return (self.question_id[index].decode(), self.names["strategy"][self.codes["strategy"][index]],
                self.ints["repeat"][index])

    def move(self, index: int, file: RowFile, offset: int) -> None:
        """Row `index` now reads its line from `file` at `offset` (a merge copied it there)."""
        if file not in self.files:
            self.files.append(file)
        self.file_index[index] = self.files.index(file)
        self.offset[index] = offset


def latest_of(read: array, store: RowStore, held: list[SlimRow]) -> list[SlimRow]:
    """The rows read (store indices, -1 - k for `held[k]`): the latest of each key, at its key's
    first position. Keys are matched by question id within (strategy, repeat)."""
    positions: dict[tuple[int, int], dict[bytes, int]] = {}   # by (strategy code, repeat)
    chosen = array("q")
    for index in read:
        if index >= 0:
            strategy = store.codes["strategy"][index]
            group, question = (strategy, store.ints["repeat"][index]), bytes(store.question_id[index])
        else:
            row = held[-1 - index]
            group, question = (store._code("strategy", row.strategy), row.repeat), row.question_id.encode()
        found = positions.setdefault(group, {})
        position = found.setdefault(question, len(chosen))
        if position == len(chosen):
            chosen.append(index)
        else:
            chosen[position] = index
    del positions
    return [PackedRow(store, index) if index >= 0 else held[-1 - index] for index in chosen]


class PackedRow(SlimRow):
    """A slim row whose fields are read from a `RowStore`'s columns."""

    __slots__ = ("_store", "_index")

    def __init__(self, store: RowStore, index: int) -> None:
        self._store = store
        self._index = index

    def moved_to(self, file: RowFile, offset: int) -> SlimRow:
        self._store.move(self._index, file, offset)
        return self

    def extra_field(self, key: str) -> Any:
        return self.extras.get(key) if key in self._store.extra_names else None

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        if name in self._store.extra_names:    # else no row of the store holds it: skip parsing its extras
            extras = self.extras
            if name in extras:
                return extras[name]
        if _of_result(name):
            return getattr(self.full(), name)
        raise AttributeError(f"the row of {self.question_id!r} has no field {name!r}")


@cache
def _of_result(name: str) -> bool:
    """A Result field or attribute (the model's metaclass answers `hasattr` slowly)."""
    return name in FIELD_SET or hasattr(Result, name)


def _json_field(name: str) -> property:
    def get(row: PackedRow) -> Any:
        return orjson.loads(row._store.json[name][row._index])
    return property(get)


def _int_field(name: str) -> property:
    def get(row: PackedRow) -> Any:
        return row._store.ints[name][row._index]
    return property(get)


def _float_field(name: str) -> property:
    def get(row: PackedRow) -> Any:
        return row._store.floats[name][row._index]
    return property(get)


def _name_field(name: str) -> property:
    def get(row: PackedRow) -> Any:
        store = row._store
        return store.names[name][store.codes[name][row._index]]
    return property(get)


def _hop_grades(row: PackedRow) -> tuple[Grade | None, ...] | None:
    grades = orjson.loads(row._store.json["hop_grades"][row._index])
    return None if grades is None else tuple([None if grade is None else GRADES[grade] for grade in grades])


def _steps(row: PackedRow) -> tuple[dict[str, Any], ...]:
    steps = row._store.json["steps"][row._index]
    return tuple(orjson.loads(steps)) if steps else ()


def _extras(row: PackedRow) -> dict[str, Any]:
    extras = row._store.json["extras"][row._index]
    return orjson.loads(extras) if extras else {}


FIELD_PROPERTIES: dict[str, property] = {
    **{name: _json_field(name) for name in JSON_FIELDS},
    **{name: _int_field(name) for name in INTS},
    **{name: _float_field(name) for name in FLOATS},
    **{name: _name_field(name) for name in NAMES},
    "question_id": property(lambda row: row._store.question_id[row._index].decode()),
    "answerable": property(lambda row: BOOLS[row._store.answerable[row._index]]),
    "grade": property(lambda row: GRADE_ORDER[row._store.grade[row._index]]),
    "hop_grades": property(_hop_grades),
    "steps": property(_steps),
    "extras": property(_extras),
    "key": property(lambda row: row._store.key(row._index)),
    "_file": property(lambda row: row._store.files[row._store.file_index[row._index]]),
    "_offset": property(lambda row: row._store.offset[row._index]),
    "_plain": property(lambda row: True),
}
for _name, _field in FIELD_PROPERTIES.items():   # set here, so type checkers see SlimRow's annotations
    setattr(PackedRow, _name, _field)
