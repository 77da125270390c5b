"""Dates: formats, a year-only gold against a full date, a full-date gold against a year."""

from __future__ import annotations

import pytest

from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.dates import DateValue, find_dates, gold_date
from factprobe.eval.grading.rules import RuleGrader

LAUNCH = Question(id="d1", question="On what date was the probe launched?", answer="3 September 1997")
FOUNDED = Question(id="d2", question="In which year was the orchestra founded?", answer="1882")
OPENED = Question(id="d3", question="When did the bridge open?", answer="March 1932")
IN_YEAR = Question(id="d4", question="On which day in 1997 was the probe launched?", answer="3 September 1997")


@pytest.mark.parametrize("question, answer, grade", [
    (LAUNCH, "1997-09-03", Grade.CORRECT),                       # ISO
    (LAUNCH, "03/09/1997", Grade.CORRECT),                       # day/month/year
    (LAUNCH, "9/3/1997", Grade.CORRECT),                         # month/day/year
    (LAUNCH, "3.9.1997", Grade.CORRECT),                         # dotted
    (LAUNCH, "September 3rd, 1997", Grade.CORRECT),
    (LAUNCH, "the 3rd of September 1997", Grade.CORRECT),
    (LAUNCH, "It lifted off on 3 Sept. 1997 from the coast.", Grade.CORRECT),
    (LAUNCH, "1997", Grade.NOT_ATTEMPTED),                      # coarser, agrees as far as it goes
    (LAUNCH, "September 1997", Grade.NOT_ATTEMPTED),
    (LAUNCH, "sometime in 1997", Grade.NOT_ATTEMPTED),
    (LAUNCH, "1997, after the election", Grade.UNGRADED),       # coarser, beside words the rules cannot check
    (LAUNCH, "August 1997", Grade.INCORRECT),                   # coarser and wrong
    (IN_YEAR, "1997", Grade.NOT_ATTEMPTED),                     # only the question's own year
    (LAUNCH, "4 September 1997", Grade.INCORRECT),
    (LAUNCH, "3 September 1998", Grade.INCORRECT),
    (LAUNCH, "Either 3 or 4 September 1997", Grade.UNGRADED),
    (FOUNDED, "1882", Grade.CORRECT),
    (FOUNDED, "eighteen eighty-two", Grade.CORRECT),             # a spelled year
    (FOUNDED, "It was founded on 1 May 1882.", Grade.CORRECT),   # finer than the gold is fine
    (FOUNDED, "1883", Grade.INCORRECT),
    (FOUNDED, "1882 or 1883", Grade.INCORRECT),
    (OPENED, "19 March 1932", Grade.CORRECT),
    (OPENED, "1932", Grade.NOT_ATTEMPTED),
    (OPENED, "April 1932", Grade.INCORRECT),
    (IN_YEAR, "3 September", Grade.CORRECT),                     # the year the question names is implied
    (IN_YEAR, "4 September", Grade.INCORRECT),
])
def test_dates(question: Question, answer: str, grade: Grade) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note


@pytest.mark.parametrize("answer, grade", [
    ("In the 1880s", Grade.NOT_ATTEMPTED),
    ("the early '80s", Grade.NOT_ATTEMPTED),                    # a decade in the gold's century
    ("the late 1880s", Grade.UNGRADED),                         # in the decade, not in the part it names
    ("the 1890s", Grade.INCORRECT),
    ("the nineteenth century", Grade.NOT_ATTEMPTED),
    ("the early 19th century", Grade.UNGRADED),
    ("late 1800s", Grade.NOT_ATTEMPTED),                        # the late decade or the late century
    ("the 18th century", Grade.INCORRECT),
    ("after 1850", Grade.NOT_ATTEMPTED),                        # a bound that holds the gold
    ("before 1850", Grade.INCORRECT),
    ("before 1882", Grade.UNGRADED),                            # a bound at the gold's own year
    ("sometime before 1900", Grade.NOT_ATTEMPTED),
])
def test_periods_and_bounds(answer: str, grade: Grade) -> None:
    outcome = RuleGrader().grade_sync(FOUNDED, answer)
    assert outcome.grade is grade, outcome.note
    assert (outcome.note or "").removeprefix("undecided: ").startswith("date"), outcome.note


def test_coarser_date_note_names_the_kind_and_worldvqa_leaves_it_to_the_judge() -> None:
    outcome = RuleGrader().grade_sync(LAUNCH, "1997")
    assert outcome.note == "date: coarser than the gold (a year for a full date), agreeing as far as it goes"
    assert RuleGrader(coarser=Grade.UNGRADED).grade_sync(LAUNCH, "1997").grade is Grade.UNGRADED


def test_several_dates_with_one_right_are_ungraded() -> None:
    outcome = RuleGrader().grade_sync(FOUNDED, "Plans began in 1879 and it was founded in 1882.")
    assert outcome.grade is Grade.UNGRADED
    assert "several dates" in (outcome.note or "")


def test_ambiguous_numeric_date_keeps_both_readings() -> None:
    (mention,) = find_dates("04/05/2010")
    assert set(mention.readings) == {DateValue(2010, 5, 4), DateValue(2010, 4, 5)}


@pytest.mark.parametrize("gold, value", [
    ("In 1066.", DateValue(1066)),
    ("44 BC", DateValue(-44)),
    ("June 2011", DateValue(2011, 6)),
    ("Season 3", None),
])
def test_gold_date(gold: str, value: DateValue | None) -> None:
    assert gold_date(gold) == value


@pytest.mark.parametrize("answer, grade", [
    ("in the 1880s", Grade.NOT_ATTEMPTED),           # holds the gold, does not pin it down
    ("the late 19th century", Grade.NOT_ATTEMPTED),
    ("in the 1890s", Grade.INCORRECT),
    ("the 18th century", Grade.INCORRECT),
])
def test_decades_and_centuries(answer: str, grade: Grade) -> None:
    assert RuleGrader().grade_sync(FOUNDED, answer).grade is grade
