"""One strategy's rows as numpy columns, built once and shared by the sections and plots reading them.

A section that loops over 50,000 rows in Python for every metric pays for it again in the next
section; `RowColumns` reads each field of the rows once (on first use) into an array, and keeps
anything derived from them (`derived`) for the next reader. Arrays hold exactly the values a list
of the same field would give numpy (float64 for floats, int64 for ints), so a mean or percentile
over a column equals the one over the list.

Grades are held as codes, positions in `GRADE_ORDER`; `grade_counts` turns codes back into the
counts `factprobe.eval.analysis.metrics.metrics_from_counts` reads.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cached_property
from operator import attrgetter
from typing import Any, TypeVar

import numpy as np

from factprobe.eval.analysis.metrics import metrics_from_counts
from factprobe.eval.core.schema import Grade, Result

GRADE_ORDER = tuple(Grade)
CODE = {grade: code for code, grade in enumerate(GRADE_ORDER)}
CORRECT, INCORRECT, NOT_ATTEMPTED, UNGRADED, ERROR = (CODE[grade] for grade in
                                                      (Grade.CORRECT, Grade.INCORRECT, Grade.NOT_ATTEMPTED,
                                                       Grade.UNGRADED, Grade.ERROR))
T = TypeVar("T")


def grade_counts(codes: np.ndarray) -> dict[Grade, int]:
    """{grade: count} of grade codes (grades that do not occur are left out)."""
    counts = np.bincount(codes, minlength=len(GRADE_ORDER))
    return {grade: int(n) for grade, n in zip(GRADE_ORDER, counts) if n}


def is_graded(codes: np.ndarray) -> np.ndarray:
    """CORRECT, INCORRECT or NOT_ATTEMPTED (factprobe.eval.core.schema.GRADED)."""
    return codes <= NOT_ATTEMPTED


class RowColumns:
    """The fields of a list of rows as arrays, each read on first use. The rows must not change
    afterwards (they are one strategy's latest rows, grouped once per summary)."""

    def __init__(self, rows: Sequence[Result]) -> None:
        self.rows = rows
        self._derived: dict[Any, Any] = {}

    def derived(self, key: Any, build: Callable[[], T]) -> T:
        """`build()`, computed for the first caller asking for `key` and kept for the next ones."""
        if key not in self._derived:
            self._derived[key] = build()
        return self._derived[key]

    def _floats(self, name: str) -> np.ndarray:
        return np.fromiter(map(attrgetter(name), self.rows), dtype=float, count=len(self.rows))

    def _ints(self, name: str) -> np.ndarray:
        return np.fromiter(map(attrgetter(name), self.rows), dtype=np.int64, count=len(self.rows))

    @cached_property
    def grade(self) -> np.ndarray:
        """Grade codes (positions in GRADE_ORDER)."""
        return np.array([CODE[row.grade] for row in self.rows], dtype=np.int64)

    @cached_property
    def answerable(self) -> np.ndarray:
        return np.fromiter(map(attrgetter("answerable"), self.rows), dtype=bool, count=len(self.rows))

    @cached_property
    def finished(self) -> np.ndarray:
        """The row did not fail (`error` is None)."""
        return np.array([row.error is None for row in self.rows], dtype=bool)

    @cached_property
    def question_id(self) -> list[str]:
        return list(map(attrgetter("question_id"), self.rows))

    @cached_property
    def repeat(self) -> list[int]:
        return list(map(attrgetter("repeat"), self.rows))

    @cached_property
    def latency_s(self) -> np.ndarray:
        return self._floats("latency_s")

    @cached_property
    def llm_latency_s(self) -> np.ndarray:
        return self._floats("llm_latency_s")

    @cached_property
    def retrieval_latency_s(self) -> np.ndarray:
        return self._floats("retrieval_latency_s")

    @cached_property
    def prompt_tokens(self) -> np.ndarray:
        return self._ints("prompt_tokens")

    @cached_property
    def completion_tokens(self) -> np.ndarray:
        return self._ints("completion_tokens")

    @cached_property
    def llm_calls(self) -> np.ndarray:
        return self._ints("llm_calls")

    @cached_property
    def positions(self) -> PairPositions:
        """Row position by (question, repeat); a later row of the same pair wins."""
        return PairPositions(self.question_id, self.repeat)


class PairPositions(Mapping[tuple[str, int], int]):
    """Row positions by (question, repeat), held as a dict of question ids per repeat: no tuple per
    row (a million rows' tuples take 56 MB). Iterates by repeat, then in row order."""

    def __init__(self, question_ids: Sequence[str], repeats: Sequence[int]) -> None:
        self._by_repeat: dict[int, dict[str, int]] = {}
        for position, (question, repeat) in enumerate(zip(question_ids, repeats)):
            found = self._by_repeat.get(repeat)
            if found is None:
                found = self._by_repeat[repeat] = {}
            found[question] = position

    def __getitem__(self, pair: tuple[str, int]) -> int:
        return self._by_repeat[pair[1]][pair[0]]

    def get(self, pair: tuple[str, int], default: Any = None) -> Any:  # type: ignore[override]
        found = self._by_repeat.get(pair[1])
        return default if found is None else found.get(pair[0], default)

    def __iter__(self) -> Iterator[tuple[str, int]]:
        return ((question, repeat) for repeat, found in self._by_repeat.items() for question in found)

    def __len__(self) -> int:
        return sum(map(len, self._by_repeat.values()))


class StrategyRows(list):
    """One strategy's latest rows; `columns` are built on first use and shared by every reader."""

    @cached_property
    def columns(self) -> RowColumns:
        return RowColumns(self)


def columns_of(rows: Sequence[Result]) -> RowColumns:
    """The shared columns of a `StrategyRows`, else columns of these rows for this caller alone."""
    return rows.columns if isinstance(rows, StrategyRows) else RowColumns(rows)


def answerable_scores(rows: Sequence[Result]) -> dict[str, Any]:
    """`grade_metrics` of the answerable rows, computed once per strategy (the caller gets a copy)."""
    columns = columns_of(rows)
    scores = columns.derived("answerable_scores", lambda: metrics_from_counts(
        grade_counts(columns.grade[columns.answerable])))
    return dict(scores)
