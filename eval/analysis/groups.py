"""Scores grouped by any field of the rows or of their question records (`--group-by`), and the
row filter (`--where`).

A field is looked up on the row first (`category`, `hop_count`, `answerable`, `modality`, `grader`,
any key a post step added, …), then in the row's `fields`: the question record's descriptive fields
as the run recorded them (`Question.fields` when the schema has it, and the record's other scalar
attributes such as `source` or `media_id`). A field holding a list of labels counts the row once
under each label. A row without the field is grouped under "(none)".

`--where` takes conditions joined by ` and `: `FIELD=V1|V2` (one of the values), `FIELD!=V1|V2`
(none of them), or `FIELD<N`, `<=`, `>`, `>=` for numbers; values are compared as text for `=`
and `!=` (`answerable=true`). A malformed condition is a GroupError naming the option.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from factprobe.eval.analysis.metrics import metrics_from_counts
from factprobe.eval.analysis.summary import SummaryInput, summary_section
from factprobe.eval.config.options import OptionError
from factprobe.eval.core.record import record_fields
from factprobe.eval.core.schema import ADDED_FIELDS, Grade, Question, Result, ResultCore
from factprobe.eval.core.suggest import did_you_mean

NONE_LABEL = "(none)"
ALL_LABEL = "all"
CONDITION = re.compile(r"^\s*([A-Za-z_][\w.]*)\s*(!=|<=|>=|=|<|>)\s*(.*?)\s*$")
MISSING = object()


class GroupError(OptionError):
    """A --group-by or --where that cannot be applied; the message names the option."""


def field_value(row: Result, name: str) -> Any:
    """The row's own field `name`, else its recorded question field; MISSING when neither exists."""
    if name in ResultCore.model_fields:
        return getattr(row, name)
    value = row.extra_field(name)     # an added field (ADDED_FIELDS) or a plugin's own key
    if value is not None:
        return value
    fields = row.extra_field("fields")
    return fields[name] if isinstance(fields, dict) and name in fields else MISSING


def labels(value: Any) -> list[str]:
    """The group labels of one value: one per list item, NONE_LABEL when missing."""
    if value is MISSING or value is None:
        return [NONE_LABEL]
    if isinstance(value, Grade):
        return [value.value]
    if isinstance(value, bool):
        return ["true" if value else "false"]
    if isinstance(value, list):
        return [str(item) for item in value] or [NONE_LABEL]
    return [str(value)]


def known_fields(rows: Sequence[Result]) -> set[str]:
    """The fields rows can be grouped by: the row model's, the extras and the recorded question fields."""
    names = set(ResultCore.model_fields)
    for row in rows[:200]:
        names.update(row.model_extra or {})
        names.update(name for name in ADDED_FIELDS if row.extra_field(name) is not None)
        fields = row.extra_field("fields")
        if isinstance(fields, dict):
            names.update(fields)
    return names - {"fields", "trace", "raw", "samples", "hops"}


def unknown_field(name: str, known: set[str], option: str) -> GroupError:
    return GroupError(f"{option} {name!r}: no row or question record has this field{did_you_mean(name, known)} "
                      f"(known: {', '.join(sorted(known))})")


def check_fields(rows: Sequence[Result], names: Iterable[str], option: str) -> None:
    """GroupError when no row has a field, naming the closest known field."""
    for name in names:
        if rows and all(field_value(row, name) is MISSING for row in rows):
            raise unknown_field(name, known_fields(rows), option)


def check_question_fields(questions: Sequence[Question], group_by: Sequence[str], where: str | None) -> None:
    """Before a run: --where parses, and every field it and --group-by name is a row field or a field
    of some question record (GroupError naming the option otherwise)."""
    conditions = parse_where(where)
    known = set(ResultCore.model_fields) | {"modality", "images"}
    for question in questions:
        known.update(record_fields(question))
    for option, names in (("--group-by", list(group_by)), ("--where", [c.field for c in conditions])):
        for name in names:
            if name not in known:
                raise unknown_field(name, known - {"trace", "raw", "samples", "hops"}, option)


@dataclass(frozen=True)
class Condition:
    """One `FIELD op VALUE` of --where."""

    field: str
    op: str
    values: tuple[str, ...]

    def holds(self, row: Result) -> bool:
        found = labels(field_value(row, self.field))
        if self.op == "=":
            return any(label in self.values for label in found)
        if self.op == "!=":
            return not any(label in self.values for label in found)
        number = float(self.values[0])
        compare = {"<": float.__lt__, "<=": float.__le__, ">": float.__gt__, ">=": float.__ge__}[self.op]
        numbers = [value for value in map(_number, found) if value is not None]
        return any(compare(value, number) for value in numbers)


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def parse_where(text: str | None) -> list[Condition]:
    """The conditions of a --where expression (none for an empty one)."""
    if not text or not text.strip():
        return []
    conditions = []
    for part in re.split(r"\s+and\s+", text.strip()):
        match = CONDITION.match(part)
        if not match or not match.group(3):
            raise GroupError(f"--where {part!r}: expected FIELD=VALUE, FIELD!=V1|V2 or FIELD<N (<=, >, >=), "
                             f"conditions joined by ' and '")
        name, op, value = match.groups()
        values = tuple(v.strip() for v in value.split("|")) if op in ("=", "!=") else (value,)
        if op not in ("=", "!=") and _number(value) is None:
            raise GroupError(f"--where {part!r}: {op} needs a number, got {value!r}")
        conditions.append(Condition(name, op, values))
    return conditions


def filtered(rows: Sequence[Result], conditions: list[Condition]) -> list[Result]:
    if conditions:
        check_fields(rows, [c.field for c in conditions], "--where")
    return [row for row in rows if all(c.holds(row) for c in conditions)]


def group_keys(row: Result, fields: Sequence[str]) -> list[str]:
    """The row's group labels: the joint value of `fields` (labels joined with " / "), "all" without."""
    keys = [ALL_LABEL]
    for name in fields:
        keys = [f"{key} / {label}" if key != ALL_LABEL else label for key in keys
                for label in labels(field_value(row, name))]
    return keys


def grouped_scores(rows: Sequence[Result], fields: Sequence[str]) -> dict[str, dict[str, Any]]:
    """{group label: CO/IN/NA/CGA/F and counts} over the answerable rows, by the joint value of
    `fields` (labels joined with " / "); with no field, one group "all"."""
    counts: dict[str, dict[Grade, int]] = defaultdict(lambda: defaultdict(int))
    for row in rows:
        if not row.answerable:
            continue
        for key in group_keys(row, fields):
            counts[key][row.grade] += 1
    return {key: metrics_from_counts(counts[key]) for key in sorted(counts)}


@summary_section("groups", order=35)
def groups(data: SummaryInput) -> dict[str, Any] | None:
    """Scores by the run's `group_by` fields over the rows matching its `where` (None when neither is
    set): {by, where, strategies: {name: {label: CO/IN/NA/CGA/F and counts}}}."""
    config = data.manifest.get("config") or {}
    fields, where = list(config.get("group_by") or []), config.get("where")
    if not fields and not where:
        return None
    try:
        conditions = parse_where(where)
        check_fields(data.rows, fields, "--group-by")
        scores = {name: grouped_scores(filtered(rows, conditions), fields) for name, rows in data.by_strategy.items()}
    except GroupError as exc:   # a run from before its records carried these fields: said, not raised
        return {"by": fields, "where": where or None, "error": str(exc)}
    return {"by": fields, "where": where or None, "strategies": scores}
