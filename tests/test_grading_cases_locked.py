"""The locked sets of grading cases (tests/data/grading_cases_locked_v*.jsonl) are well formed and share
no question with the other case files. Reads only the `question` field of the other files."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent / "data"
LOCKED_SETS = [
    DATA / "grading_cases_locked_v2.jsonl",
    DATA / "grading_cases_locked_v3.jsonl",
    DATA / "grading_cases_locked_v4.jsonl",
    DATA / "grading_cases_locked_v5.jsonl",
    DATA / "grading_cases_locked_v6.jsonl",
    DATA / "grading_cases_locked_v7.jsonl",
    DATA / "grading_cases_locked_v8.jsonl",
    DATA / "grading_cases_locked_v9.jsonl",
    DATA / "grading_cases_locked_v10.jsonl",
    DATA / "grading_cases_locked_v11.jsonl",
    DATA / "grading_cases_locked_v12.jsonl",
    DATA / "grading_cases_locked_v13.jsonl",
    DATA / "grading_cases_locked_v14.jsonl",
    DATA / "grading_cases_locked_v15.jsonl",
    DATA / "grading_cases_locked_v16.jsonl",
    DATA / "grading_cases_locked_v17.jsonl",
    DATA / "grading_cases_locked_v18.jsonl",
]
LABELS = {"CORRECT", "INCORRECT", "NOT_ATTEMPTED"}
FORMS = {"short", "sentence", "paragraph", "adversarial"}
KEYS = {"question", "gold", "answer", "label", "case_type", "form"}


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.mark.parametrize("locked", LOCKED_SETS, ids=lambda p: p.stem)
def test_every_row_has_the_documented_fields(locked: Path) -> None:
    for number, row in enumerate(_rows(locked), 1):
        assert set(row) == KEYS, f"line {number}: keys {sorted(row)}"
        assert row["label"] in LABELS, f"line {number}: label {row['label']!r}"
        assert row["form"] in FORMS, f"line {number}: form {row['form']!r}"
        assert isinstance(row["gold"], list) and row["gold"], f"line {number}: gold"
        assert all(isinstance(g, str) and g.strip() for g in row["gold"]), f"line {number}: gold"
        assert row["question"].strip() and row["answer"].strip(), f"line {number}: empty text"
        assert row["case_type"].replace("_", "").isalnum() and row["case_type"].islower(), number


@pytest.mark.parametrize("locked", LOCKED_SETS, ids=lambda p: p.stem)
def test_one_gold_per_question_and_no_repeated_answer(locked: Path) -> None:
    rows = _rows(locked)
    golds: dict[str, list[str]] = {}
    for row in rows:
        assert golds.setdefault(row["question"], row["gold"]) == row["gold"], row["question"]
    repeated = [k for k, n in Counter((r["question"], r["answer"]) for r in rows).items() if n > 1]
    assert not repeated


@pytest.mark.parametrize("locked", LOCKED_SETS, ids=lambda p: p.stem)
def test_no_question_shared_with_other_case_files(locked: Path) -> None:
    mine = {r["question"].strip().casefold() for r in _rows(locked)}
    others = [p for p in DATA.glob("grading_cases_*.jsonl") if p != locked]
    assert others, "no other grading case files to compare with"
    for path in others:
        theirs = {r["question"].strip().casefold() for r in _rows(path)}
        assert not mine & theirs, f"{path.name} shares {sorted(mine & theirs)[:3]}"


@pytest.mark.parametrize("locked", LOCKED_SETS, ids=lambda p: p.stem)
def test_every_form_has_right_and_wrong_answers_and_every_label_occurs(locked: Path) -> None:
    counts = Counter((r["form"], r["label"]) for r in _rows(locked))
    for form in {form for form, _ in counts}:  # the one-sentence form came with v18
        assert counts[(form, "CORRECT")] > 0 and counts[(form, "INCORRECT")] > 0, form
    assert {label for _, label in counts} == LABELS
