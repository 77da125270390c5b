"""Grader audit: grade labelled cases and measure agreement with the labels (docs/protocols.md §1).

A cases file is JSONL, one object a line: `question`, `gold` (a string, a list of accepted
answers, or null for an unanswerable question), `answer`, `label` (CORRECT, INCORRECT or
NOT_ATTEMPTED) and an optional `case_type`. Other keys are ignored. A multiple-choice case also
has `options` (the option texts in the order shown, lettered A, B, …); its `gold` is the gold
option's text or letter (`factprobe audit-grader --grader choice-judge`).
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any, Callable, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from factprobe.eval.core.errors import DatasetError, plain_words
from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.core.text_files import text_lines
from factprobe.eval.grading.base import Grader
from factprobe.eval.grading.service import GradingService

LABELS = (Grade.CORRECT, Grade.INCORRECT, Grade.NOT_ATTEMPTED)
GRADE_COLUMNS = (*LABELS, Grade.UNGRADED)
UNTYPED = "untyped"
CASE_SCHEMA = ("{question, gold (a string, a list of strings, or null when the question has no answer), "
               "answer, label (CORRECT, INCORRECT or NOT_ATTEMPTED), case_type (optional)}")


class CasesError(ValueError):
    """A cases file that cannot be read; the message names the file, line and field."""


class GradingCase(BaseModel):
    """One labelled case: how a question's answer should be graded."""

    model_config = ConfigDict(extra="ignore")

    question: str = Field(min_length=1)
    gold: str | list[str] | None
    answer: str | None
    label: Literal["CORRECT", "INCORRECT", "NOT_ATTEMPTED"]
    case_type: str = UNTYPED
    form: str | None = None
    options: list[str] | None = None

    def to_question(self, case_id: str) -> Question:
        """The case as a question the graders accept; a null gold makes it unanswerable."""
        if self.options is not None:
            return self.choice_question(case_id)
        golds = [self.gold] if isinstance(self.gold, str) else list(self.gold or [])
        golds = [gold for gold in golds if gold.strip()]
        if self.gold is not None and not golds:
            raise ValueError("gold must hold at least one non-empty answer "
                             "(null marks an unanswerable question)")
        return Question(id=case_id, question=self.question, answer=golds[0] if golds else None,
                        aliases=golds[1:], answerable=bool(golds))

    def choice_question(self, case_id: str) -> Question:
        """A multiple-choice case as a question with choices; its gold is an option's text or letter."""
        options = [option.strip() for option in self.options or []]
        if len(options) < 2 or not all(options) or len(set(options)) < len(options):
            raise ValueError("options must be two or more different, non-empty option texts")
        gold = self.gold.strip() if isinstance(self.gold, str) else None
        letters = [chr(ord("A") + index) for index in range(len(options))]
        if gold is not None and gold not in options and gold.upper() in letters:
            gold = options[letters.index(gold.upper())]
        if gold not in options:
            raise ValueError(f"gold must be one of the options, by its text or its letter ({', '.join(letters)}), "
                             f"not {self.gold!r}")
        return Question(id=case_id, question=self.question, answer=gold, choices=options)


@dataclass(frozen=True)
class LoadedCase:
    """A validated case with the question built from it, where it came from and its fields as written."""

    case: GradingCase
    question: Question
    line: int
    fields: dict[str, Any]


def builtin_cases_path() -> Path:
    """The labelled set shipped with factprobe."""
    return Path(str(files("factprobe.eval.grading") / "data" / "grading_cases.jsonl"))


def _case_error(path: Path, line: int, field: str, problem: str) -> CasesError:
    return CasesError(f"{path}, line {line}, field `{field}`: {problem}. Each line of a grading-cases "
                      f"file is one JSON object {CASE_SCHEMA}; fix that line and run again.")


def _case_lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, text) of every line, read one at a time (text_lines: a line over its limit, or
    not UTF-8, is refused naming the file and line before more of it is read)."""
    try:
        yield from text_lines(path)
    except DatasetError as exc:   # its message starts with the path
        raise CasesError(f"cannot read grading cases from {exc}. Give a JSONL file with one "
                         f"object {CASE_SCHEMA} per line.") from None


def load_cases(path: Path) -> list[LoadedCase]:
    """Every case in a JSONL file, read line by line; raises CasesError naming the file, line and
    field of a bad one."""
    cases: list[LoadedCase] = []
    for number, raw in _case_lines(path):
        if not raw.strip():
            continue
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise _case_error(path, number, "(whole line)", f"not valid JSON ({exc.msg})") from exc
        except RecursionError:
            raise _case_error(path, number, "(whole line)", "JSON nested too deeply to read") from None
        if not isinstance(data, dict):
            raise _case_error(path, number, "(whole line)", "not a JSON object")
        try:
            case = GradingCase.model_validate(data)
            question = case.to_question(f"case-{number}")
        except ValidationError as exc:
            first = exc.errors()[0]
            field = str(first["loc"][0]) if first["loc"] else "(whole line)"
            problem = (f"must be a string, a list of strings or null, not {data.get('gold')!r}"
                       if field == "gold" else plain_words(first["msg"]))
            raise _case_error(path, number, field, problem) from exc
        except ValueError as exc:
            field = "options" if str(exc).startswith("options") else "gold"
            raise _case_error(path, number, field, str(exc)) from exc
        cases.append(LoadedCase(case, question, number, data))
    if not cases:
        raise CasesError(f"{path} holds no grading cases: give one JSON object {CASE_SCHEMA} per line.")
    return cases


def cohen_kappa(first: list[str], second: list[str]) -> float | None:
    """Cohen's kappa of two labelings of the same items; None when chance agreement is total (written
    out here because scikit-learn, which has it, is only a development dependency)."""
    total, one, two = len(first), Counter(first), Counter(second)
    observed = sum(a == b for a, b in zip(first, second)) / total
    expected = sum(one[category] * two[category] for category in one) / total ** 2
    return None if expected == 1.0 else (observed - expected) / (1.0 - expected)


@dataclass(frozen=True)
class AuditRow:
    """One graded case."""

    line: int
    case_type: str
    label: Grade
    grade: Grade
    grader: str
    note: str | None
    question: str = ""
    form: str | None = None
    fields: dict[str, Any] = field(default_factory=dict)

    def per_case(self) -> dict[str, Any]:
        """The row `--per-case` writes: the case's fields as written plus the grade, grader and note."""
        return {**self.fields, "grade": self.grade.value, "grader": self.grader, "grade_note": self.note}


async def grade_cases(cases: list[LoadedCase], grader: Grader,
                      on_graded: Callable[[], None] | None = None) -> list[AuditRow]:
    """Grade every case in order through the grading service (a grader that raises leaves the case
    UNGRADED, as in a run); `on_graded` is called after each (for a progress bar)."""
    grading = GradingService(grader)
    rows: list[AuditRow] = []
    for loaded in cases:
        outcome = await grading.grade(loaded.question, loaded.case.answer)
        rows.append(AuditRow(loaded.line, loaded.case.case_type, Grade(loaded.case.label), outcome.grade,
                             outcome.grader, outcome.note, loaded.case.question, loaded.case.form, loaded.fields))
        if on_graded is not None:
            on_graded()
    return rows


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def f_score(codes: list[Grade]) -> float | None:
    """SimpleQA's F: 2·correct / (graded + attempted); None without rows."""
    attempted = sum(code is not Grade.NOT_ATTEMPTED for code in codes)
    return 2 * sum(code is Grade.CORRECT for code in codes) / (len(codes) + attempted) if codes else None


def resolved_grades(rows: list[AuditRow]) -> list[Grade]:
    """Each row's grade with UNGRADED replaced by the label: what a cascade with a perfect judge gives."""
    return [row.label if row.grade is Grade.UNGRADED else row.grade for row in rows]


def error_figures(rows: list[AuditRow]) -> dict[str, Any]:
    """Agreement, over- and under-credit, undecided and F from labels vs grades for a set of rows.

    `over_credit`: share of rows labelled INCORRECT or NOT_ATTEMPTED graded CORRECT; `under_credit`:
    share of rows labelled CORRECT graded INCORRECT or NOT_ATTEMPTED; `decided_agreement`: agreement
    among rows that got a grade; `undecided_share`: share of rows left UNGRADED. `f_grades` resolves
    UNGRADED by the label (the cascade with a perfect judge); `f_delta` = f_grades − f_labels;
    `f_decided`: F of the grades on the rows the grader decided.
    """
    decided = [row for row in rows if row.grade is not Grade.UNGRADED]
    not_correct = [row for row in rows if row.label is not Grade.CORRECT]
    correct = [row for row in rows if row.label is Grade.CORRECT]
    over = sum(row.grade is Grade.CORRECT for row in not_correct)
    under = sum(row.grade in (Grade.INCORRECT, Grade.NOT_ATTEMPTED) for row in correct)
    f_labels, f_grades = f_score([row.label for row in rows]), f_score(resolved_grades(rows))
    return {
        "n": len(rows),
        "agreement": _share(sum(row.label is row.grade for row in rows), len(rows)),
        "decided_agreement": _share(sum(row.label is row.grade for row in decided), len(decided)),
        "undecided": len(rows) - len(decided),
        "undecided_share": _share(len(rows) - len(decided), len(rows)),
        "over_credit": _share(over, len(not_correct)),
        "over_credit_n": over,
        "under_credit": _share(under, len(correct)),
        "under_credit_n": under,
        "f_labels": f_labels,
        "f_grades": f_grades,
        "f_decided": f_score([row.grade for row in decided]),
        "f_delta": None if f_labels is None or f_grades is None else f_grades - f_labels,
    }


def audit_summary(rows: list[AuditRow], judge_calls: int = 0) -> dict[str, Any]:
    """The contract's audit object plus the error figures (`error_figures`) and judge calls.

    `agreement` counts UNGRADED as a disagreement; shares are null when their denominator is empty.
    `per_form` gives the error figures per case `form` when cases carry one.
    """
    agree = [row.label is row.grade for row in rows]
    confusion = {label.value: {grade.value: 0 for grade in GRADE_COLUMNS} for label in LABELS}
    for row in rows:
        confusion[row.label.value][row.grade.value] += 1
    by_type: dict[str, list[bool]] = defaultdict(list)
    for row, same in zip(rows, agree):
        by_type[row.case_type].append(same)
    decided_by = Counter("undecided" if row.grade is Grade.UNGRADED
                         else "rules" if row.grader == "rules" else "judge" for row in rows)
    forms: dict[str, list[AuditRow]] = defaultdict(list)
    for row in rows:
        if row.form is not None:
            forms[row.form].append(row)
    return {
        **error_figures(rows),
        "kappa": cohen_kappa([row.label.value for row in rows], [row.grade.value for row in rows]),
        "confusion": confusion,
        "per_type": {name: {"n": len(hits), "agreement": sum(hits) / len(hits)}
                     for name, hits in sorted(by_type.items())},
        "per_form": {name: error_figures(members) for name, members in sorted(forms.items())},
        "judge_calls": judge_calls,
        "grading": {"rules_decided": decided_by["rules"], "judge_decided": decided_by["judge"],
                    "undecided": decided_by["undecided"]},
    }
