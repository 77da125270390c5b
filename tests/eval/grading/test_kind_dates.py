"""The `date` match kind: date formats, a date coarser or finer than the gold, periods and bounds,
decades and centuries, years with an era or an apostrophe, and the gold read as a date."""

from __future__ import annotations

import pytest

from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.dates import DateValue, find_dates, gold_date
from factprobe.eval.grading.rules import RuleGrader
from tests.eval.grading.conftest import rule_grade, rule_outcome

LAUNCH = Question(id="d1", question="On what date was the probe launched?", answer="3 September 1997")
FOUNDED = Question(id="d2", question="In which year was the orchestra founded?", answer="1882")
OPENED = Question(id="d3", question="When did the bridge open?", answer="March 1932")
IN_YEAR = Question(id="d4", question="On which day in 1997 was the probe launched?", answer="3 September 1997")
BRELL_BRIDGE = Question(id="b", question="In which year did the Brell bridge open?", answer="1874")
BRIDGE = Question(id="v2", question="In which year did the bridge open?", answer="1932")
MUSEUM = Question(id="v6", question="On what date did the museum open?", answer="3 March 1931")
DUNMERE_BRIDGE = Question(id="n", question="When did the Dunmere bridge open?", answer="12 March 1931")


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
    (BRELL_BRIDGE, "1874 (12 May)", Grade.CORRECT),              # a year, its day and month in brackets
])
def test_date_formats_and_dates_coarser_or_finer_than_the_gold(question: Question, answer: str, grade: Grade) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note


@pytest.mark.parametrize("question, answer, grade", [
    # vague answers that neither state nor contradict the gold
    (BRIDGE, "Sometime in the early 1900s.", Grade.NOT_ATTEMPTED),
    (BRIDGE, "A long time ago.", Grade.UNGRADED),
    # partial answers: coarser, agreeing as far as they go
    (MUSEUM, "March 1931", Grade.NOT_ATTEMPTED),
    (MUSEUM, "In 1931, but I'm not sure of the exact day.", Grade.NOT_ATTEMPTED),
])
def test_vague_and_partial_dates(question: Question, answer: str, grade: Grade) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note


@pytest.mark.parametrize("question, answer, grade, note", [
    # a season or part of the gold's year: coarser; another year: wrong
    (DUNMERE_BRIDGE, "Spring 1931", Grade.NOT_ATTEMPTED, "coarser"),
    (DUNMERE_BRIDGE, "Early 1932", Grade.INCORRECT, "date"),
])
def test_a_season_or_part_of_a_year(question: Question, answer: str, grade: Grade, note: str) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note
    assert note in (outcome.note or ""), outcome.note


@pytest.mark.parametrize("question, gold, answer, grade, kind", [
    ("When did the canal open?", "3 May 1822", "1822-05-03", Grade.CORRECT, "date"),
    ("When did the canal open?", "3 May 1822", "4 May 1822", Grade.INCORRECT, "date"),
    ("In which year did the canal open?", "1822", "In the 1820s", Grade.NOT_ATTEMPTED, "date"),
    ("When did the canal open?", "3 May 1822", "1822", Grade.NOT_ATTEMPTED, "date"),
])
def test_the_date_kind_decides_a_date_a_decade_and_a_year(question: str, gold: str, answer: str, grade: Grade,
                                                          kind: str) -> None:
    outcome = rule_outcome(question, gold, answer)
    assert outcome.grade is grade, outcome.note
    assert (outcome.note or "").removeprefix("undecided: ").startswith(f"{kind}:"), outcome.note


@pytest.mark.parametrize("question, gold, answer, grade, kind", [
    ("On what date did the ferry sink?", "9 March 1911", "1911", Grade.NOT_ATTEMPTED, "date"),  # coarser
    ("On what date did the 1911 ferry disaster happen?", "9 March 1911", "1912", Grade.INCORRECT, "date"),
    ("In what year did the ferry sink?", "9 March 1911", "1911", Grade.CORRECT, "date"),
])
def test_a_year_for_a_full_date_is_read_by_what_the_question_asks(question: str, gold: str, answer: str,
                                                                   grade: Grade, kind: str) -> None:
    outcome = rule_outcome(question, gold, answer)
    assert outcome.grade is grade, outcome.note
    assert (outcome.note or "").removeprefix("undecided: ").startswith(kind), outcome.note


@pytest.mark.parametrize("question, gold, answer, grade", [
    ("When did the Eiffel Tower open?", "31 March 1889", "In 1889 — on March 31.", Grade.UNGRADED),
    ("When did the Eiffel Tower open?", "1889", "1889; the public came in on May 15.", Grade.UNGRADED),
    ("When was the treaty signed?", "1 January 1801", "New Year's Day 1801", Grade.UNGRADED),
    ("When was the treaty signed?", "1 January 1801", "New Year's Eve 1801", Grade.UNGRADED),
])
def test_a_date_split_by_a_dash_another_date_in_the_detail_or_a_holiday_is_the_judges(
        question: str, gold: str, answer: str, grade: Grade) -> None:
    assert rule_grade(question, gold, answer) is grade


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


@pytest.mark.parametrize("answer, grade", [
    ("in the 1880s", Grade.NOT_ATTEMPTED),           # holds the gold, does not pin it down
    ("the late 19th century", Grade.NOT_ATTEMPTED),
    ("in the 1890s", Grade.INCORRECT),
    ("the 18th century", Grade.INCORRECT),
])
def test_decades_and_centuries(answer: str, grade: Grade) -> None:
    assert RuleGrader().grade_sync(FOUNDED, answer).grade is grade


@pytest.mark.parametrize("answer, grade", [
    ("the 8th century", Grade.NOT_ATTEMPTED),
    ("the 9th century", Grade.INCORRECT),
    ("mid 8th century", Grade.NOT_ATTEMPTED),
    ("late 8th century", Grade.UNGRADED),  # outside the part it names, inside the century: the judge's
    ("736", Grade.CORRECT),
    ("737", Grade.INCORRECT),
])
def test_a_century_for_a_year_before_1000(answer: str, grade: Grade) -> None:
    assert rule_grade("In which year was the abbey founded?", "736", answer) is grade


@pytest.mark.parametrize("answer, grade", [("Around 1880", Grade.NOT_ATTEMPTED), ("about 1880", Grade.NOT_ATTEMPTED),
                                           ("around 1876", Grade.UNGRADED), ("Around 1890", Grade.INCORRECT),
                                           ("1880", Grade.INCORRECT)])
def test_a_rough_round_year(answer: str, grade: Grade) -> None:
    assert rule_outcome("In which year did the line open?", "1878", answer).grade is grade


@pytest.mark.parametrize("answer, grade", [("AD 1204", Grade.CORRECT), ("1204 CE", Grade.CORRECT),
                                           ("AD 1205", Grade.INCORRECT), ("1204 BC", Grade.INCORRECT)])
def test_a_year_with_its_era(answer: str, grade: Grade) -> None:
    assert rule_outcome("In what year was the city sacked?", "1204", answer).grade is grade


@pytest.mark.parametrize("answer, grade", [
    ("'71", Grade.CORRECT),
    ("'72", Grade.INCORRECT),
    ("the '70s", Grade.NOT_ATTEMPTED),
])
def test_a_year_written_with_an_apostrophe(answer: str, grade: Grade) -> None:
    assert rule_grade("In which year did the ferry line open?", "1971", answer) is grade


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
