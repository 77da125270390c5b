"""summary['repeats'][s]['per_category'] (MMWorld Table 5: each category's accuracy as mean ± sd over
repeats) against hand-computed values, and the "Across repeats" table that shows it. Constructed
rows: no model, no grader."""

from __future__ import annotations

import math

import pytest
from rich.console import Console

from factprobe.eval.analysis.repeats import repeats
from factprobe.eval.analysis.summary import SummaryInput
from factprobe.eval.core.schema import Grade, Result
from factprobe.eval.report.tables.repeats import repeats_table

C, I, N, E = Grade.CORRECT, Grade.INCORRECT, Grade.NOT_ATTEMPTED, Grade.ERROR
CHOICE = {"mapped_by": "rule", "chance": 0.25}


def row(qid: str, category: str, grade: Grade, repeat: int, **extra) -> Result:
    return Result(question_id=qid, strategy="v", repeat=repeat, question=qid, gold="x", category=category,
                  grade=grade, grader="rules", **extra)


ROWS = [
    # free text, two questions: repeat 0 C C, repeat 1 C N, repeat 2 I N
    row("a", "bio", C, 0), row("b", "bio", C, 0), row("a", "bio", C, 1), row("b", "bio", N, 1),
    row("a", "bio", I, 2), row("b", "bio", N, 2),
    # multiple choice, one question: C, I, C
    row("m", "art", C, 0, multiple_choice=CHOICE), row("m", "art", I, 1, multiple_choice=CHOICE),
    row("m", "art", C, 2, multiple_choice=CHOICE),
    # a repeat with nothing graded has no score and is left out of mean and sd
    row("e", "geo", C, 0), row("e", "geo", E, 1), row("e", "geo", I, 2),
]


def test_per_category_mean_and_sample_std_by_hand() -> None:
    out = repeats(SummaryInput(ROWS))["v"]
    bio = out["per_category"]["bio"]
    # accuracy per repeat 1, 1/2, 0: mean 1/2, sd sqrt((1/4 + 0 + 1/4) / 2) = 1/2
    assert [r["accuracy"] for r in bio["per_repeat"]] == [1.0, 0.5, 0.0]
    assert bio["accuracy_mean"] == pytest.approx(0.5) and bio["accuracy_std"] == pytest.approx(0.5)
    # F per repeat: 1; CO 1/2 with CGA 1 gives 2/3; 0. Mean 5/9, deviations 4/9, 1/9, -5/9
    assert [r["f_score"] for r in bio["per_repeat"]] == pytest.approx([1.0, 2 / 3, 0.0])
    assert bio["f_score_mean"] == pytest.approx(5 / 9)
    assert bio["f_score_std"] == pytest.approx(math.sqrt((16 + 1 + 25) / 81 / 2))
    art = out["per_category"]["art"]
    assert art["n_repeats"] == 3 and art["accuracy_mean"] == pytest.approx(2 / 3)
    assert art["accuracy_std"] == pytest.approx(math.sqrt(1 / 3))
    assert "f_score_mean" not in art and "f_score" not in art["per_repeat"][0]
    geo = out["per_category"]["geo"]
    assert [r["accuracy"] for r in geo["per_repeat"]] == [1.0, None, 0.0]
    assert geo["accuracy_mean"] == pytest.approx(0.5) and geo["accuracy_std"] == pytest.approx(math.sqrt(0.5))


def test_the_overall_keys_are_unchanged_beside_the_new_ones() -> None:
    out = repeats(SummaryInput(ROWS))["v"]
    assert list(out) == ["n_repeats", "accuracy_mean", "accuracy_std", "f_score_mean", "f_score_std",
                         "per_repeat", "per_category"]
    # four rows per repeat; graded and correct: 4 of 4, 1 of 3 (the ERROR row left out), 1 of 4
    assert [r["n"] for r in out["per_repeat"]] == [4, 4, 4]
    assert [r["accuracy"] for r in out["per_repeat"]] == pytest.approx([1.0, 1 / 3, 1 / 4])


def test_the_table_shows_each_category_and_only_with_several_repeats() -> None:
    console = Console(record=True, width=200)
    repeats_table({"repeats": repeats(SummaryInput(ROWS))}, console)
    lines = console.export_text().splitlines()
    bio = next(line for line in lines if " bio " in line).split()
    assert bio[:5] == ["v", "bio", "3", "50.0±50.0", "55.6±50.9"] and bio[5:] == ["100.0", "50.0", "0.0"]
    art = next(line for line in lines if " art " in line).split()
    assert art[3:5] == ["66.7±57.7", "–"]
    quiet = Console(record=True, width=200)
    repeats_table({"repeats": repeats(SummaryInput([r for r in ROWS if r.repeat == 0]))}, quiet)
    assert quiet.export_text() == ""
