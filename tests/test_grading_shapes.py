"""Answer shapes the rule grader decides: given-name forms, context beside a refusal, conversions, holidays."""

from __future__ import annotations

import pytest

from factprobe.eval.grading.claims import answer_field
from factprobe.eval.grading.dates import find_dates
from factprobe.eval.grading.given_names import is_patronymic, same_given_name
from factprobe.eval.grading.rules import RuleGrader
from factprobe.eval.schema import Grade, Question


def _grade(question: str, gold: str, answer: str) -> Grade:
    return RuleGrader().grade_sync(Question(id="s", question=question, answer=gold), answer).grade


@pytest.mark.parametrize("answer_name, gold_name, same", [
    ("bob", "robert", True), ("jan", "johannes", True), ("rafa", "rafael", True),
    ("venus", "serena", False), ("jo", "joseph", False), ("edward", "theodore", False),
])
def test_given_name_forms(answer_name: str, gold_name: str, same: bool) -> None:
    assert same_given_name(answer_name, gold_name) is same


def test_patronymics_are_not_namesakes() -> None:
    assert is_patronymic("sergeyevich") and is_patronymic("harmenszoon")
    assert not is_patronymic("quincy")


@pytest.mark.parametrize("question, gold, answer, grade", [
    ("Who wrote War and Peace?", "Leo Tolstoy", "Leo Nikolayevich Tolstoy", Grade.CORRECT),
    ("Who was the second US president?", "John Adams", "John Quincy Adams", Grade.UNGRADED),
    ("Who discovered Neptune's moon Triton?", "William Lassell", "Lassell's assistant", Grade.INCORRECT),
    ("Who discovered Neptune's moon Triton?", "William Lassell", "Not Galle — it was Lassell's telescope.",
     Grade.CORRECT),
    ("Which driver won the 1976 Formula One title?", "James Hunt", "Hunt", Grade.CORRECT),
    ("Who built the first telescope?", "Hans Lipperhey", "It's a Dutch invention, but I can't name the maker.",
     Grade.NOT_ATTEMPTED),
    ("Who built the first telescope?", "Hans Lipperhey", "I can't be certain. It's the Galileo design, I think.",
     Grade.INCORRECT),
    ("Who built the first telescope?", "Hans Lipperhey", "I can't be certain. It's Galileo, I think.",
     Grade.INCORRECT),
    ("Who built the first telescope?", "Hans Lipperhey", "I'm not sure, but it was the Dutch maker named Lipperhey.",
     Grade.CORRECT),
])
def test_person_and_refusal_shapes(question: str, gold: str, answer: str, grade: Grade) -> None:
    assert _grade(question, gold, answer) is grade


@pytest.mark.parametrize("question, gold, answer, grade", [
    ("How deep is Lake Baikal?", "1,642 m", "1,642 m (5,387 ft)", Grade.CORRECT),
    ("How deep is Lake Baikal?", "1,642 m", "1,642 m (4,000 ft)", Grade.UNGRADED),
    ("How deep is Lake Baikal?", "1,642 m", "About 1,000 m (5,387 ft)", Grade.UNGRADED),
    ("What is the coldest temperature recorded in Antarctica?", "−89.2 °C", "minus 89.2 °C", Grade.CORRECT),
    ("Roughly how many islands does Finland have?", "179,000", "About 179 thousand", Grade.CORRECT),
    ("How many islands does Finland have?", "179,000", "About 179 thousand", Grade.NOT_ATTEMPTED),
    ("What is the largest 8-bit unsigned value?", "255", "0xFF, that is 255", Grade.CORRECT),
])
def test_number_shapes(question: str, gold: str, answer: str, grade: Grade) -> None:
    assert _grade(question, gold, answer) is grade


def test_fixed_holidays_read_as_dates() -> None:
    (mention,) = find_dates("on Halloween, 1926")
    assert (mention.readings[0].year, mention.readings[0].month, mention.readings[0].day) == (1926, 10, 31)


@pytest.mark.parametrize("question, gold, answer, grade", [
    ("When did the Eiffel Tower open?", "31 March 1889", "In 1889 — on March 31.", Grade.CORRECT),
    ("When did the Eiffel Tower open?", "1889", "1889; the public came in on May 15.", Grade.CORRECT),
    ("When was the treaty signed?", "1 January 1801", "New Year's Day 1801", Grade.CORRECT),
    ("When was the treaty signed?", "1 January 1801", "New Year's Eve 1801", Grade.INCORRECT),
])
def test_date_shapes(question: str, gold: str, answer: str, grade: Grade) -> None:
    assert _grade(question, gold, answer) is grade


def test_answer_field_picks_the_asked_label() -> None:
    items = ["Painter: Johannes Vermeer", "Year: 1665"]
    assert answer_field(items, "Who painted it?") == ["Johannes Vermeer"]
    assert answer_field(items, "Where is it kept?") == items


@pytest.mark.parametrize("question, gold, answer, grade", [
    ("Which team won the 1966 Stanley Cup?", "Montreal Canadiens", "The Canadiens", Grade.CORRECT),
    ("Which team won the 1966 Stanley Cup?", "Montreal Canadiens", "Montreal", Grade.UNGRADED),
    ("Which team won the 1966 Stanley Cup?", "Montreal Canadiens", "The Red Wings", Grade.INCORRECT),
    ("Which moon did the probe visit?", "Titan moon", "The Titan moon", Grade.CORRECT),
    ("Which comet did the probe visit?", "Tempel 1", "A small comet", Grade.NOT_ATTEMPTED),
    ("In which country is most of Lake Victoria?", "Tanzania", "Mostly Uganda, with a share in Tanzania",
     Grade.UNGRADED),
    ("Who wrote the Alice books?", "Lewis Carroll", "Charles Dodgson, better known as Lewis Carroll",
     Grade.CORRECT),
])
def test_named_shapes(question: str, gold: str, answer: str, grade: Grade) -> None:
    assert _grade(question, gold, answer) is grade
