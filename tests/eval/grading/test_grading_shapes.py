"""Answer shapes the rule grader decides: given-name forms, context beside a refusal, conversions, holidays."""

from __future__ import annotations

import pytest

from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.rules import RuleGrader


def _grade(question: str, gold: str, answer: str) -> Grade:
    return RuleGrader().grade_sync(Question(id="s", question=question, answer=gold), answer).grade


@pytest.mark.parametrize("question, gold, answer, grade", [
    ("Who wrote War and Peace?", "Leo Tolstoy", "Leo Nikolayevich Tolstoy", Grade.CORRECT),  # a middle name added
    ("Who wrote War and Peace?", "Leo Tolstoy", "Leo Nikolayevich Tolstoy, his son", Grade.UNGRADED),
    ("Who discovered Neptune's moon Triton?", "William Lassell", "Lassell's assistant", Grade.UNGRADED),
    ("Who discovered Neptune's moon Triton?", "William Lassell", "Not Galle — it was Lassell's telescope.",
     Grade.UNGRADED),
    ("Which driver won the 1976 Formula One title?", "James Hunt", "Hunt", Grade.CORRECT),  # a surname alone
    ("Who built the first telescope?", "Hans Lipperhey", "It's a Dutch invention, but I can't name the maker.",
     Grade.NOT_ATTEMPTED),                         # declines the asked thing; the rest offers no candidate
    ("Who built the first telescope?", "Hans Lipperhey", "I can't be certain. It's the Galileo design, I think.",
     Grade.UNGRADED),
    ("Who built the first telescope?", "Hans Lipperhey", "I can't be certain. It's Galileo, I think.",
     Grade.UNGRADED),
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
    ("What is the largest 8-bit unsigned value?", "255", "0xFF, that is 255", Grade.UNGRADED),
])
def test_number_shapes(question: str, gold: str, answer: str, grade: Grade) -> None:
    assert _grade(question, gold, answer) is grade


@pytest.mark.parametrize("question, gold, answer, grade", [
    ("When did the Eiffel Tower open?", "31 March 1889", "In 1889 — on March 31.", Grade.UNGRADED),
    ("When did the Eiffel Tower open?", "1889", "1889; the public came in on May 15.", Grade.UNGRADED),
    ("When was the treaty signed?", "1 January 1801", "New Year's Day 1801", Grade.UNGRADED),
    ("When was the treaty signed?", "1 January 1801", "New Year's Eve 1801", Grade.UNGRADED),
])
def test_date_shapes(question: str, gold: str, answer: str, grade: Grade) -> None:
    assert _grade(question, gold, answer) is grade


@pytest.mark.parametrize("question, gold, answer, grade", [
    ("Which team won the 1966 Stanley Cup?", "Montreal Canadiens", "The Canadiens", Grade.UNGRADED),
    ("Which team won the 1966 Stanley Cup?", "Montreal Canadiens", "Montreal", Grade.UNGRADED),
    ("Which team won the 1966 Stanley Cup?", "Montreal Canadiens", "The Red Wings", Grade.INCORRECT),
    ("Which moon did the probe visit?", "Titan moon", "The Titan moon", Grade.CORRECT),
    ("Which comet did the probe visit?", "Tempel 1", "A small comet", Grade.UNGRADED),
    ("In which country is most of Lake Victoria?", "Tanzania", "Mostly Uganda, with a share in Tanzania",
     Grade.UNGRADED),
    ("Who wrote the Alice books?", "Lewis Carroll", "Charles Dodgson, better known as Lewis Carroll",
     Grade.CORRECT),                                                          # the gold as its other name
])
def test_named_shapes(question: str, gold: str, answer: str, grade: Grade) -> None:
    assert _grade(question, gold, answer) is grade


@pytest.mark.parametrize("question, gold, answer, grade", [
    # refusals in other words, and a description beside one
    ("Who discovered penicillin?", "Alexander Fleming", "Nothing comes to mind for that one.", Grade.NOT_ATTEMPTED),
    ("Who discovered penicillin?", "Alexander Fleming", "I can't place the scientist's name.", Grade.NOT_ATTEMPTED),
    ("Who discovered penicillin?", "Alexander Fleming", "I'd only be guessing, so I'll pass.", Grade.NOT_ATTEMPTED),
    ("Which Georgia has Tbilisi as its capital?", "The country", "Could you say which Georgia you mean?",
     Grade.NOT_ATTEMPTED),
    ("In which museum is Guernica shown?", "Museo Reina Sofía", "It's in a big Spanish museum, but I can't say which.",
     Grade.NOT_ATTEMPTED),
    ("Who was the first Roman emperor?", "Augustus", "One of the Julio-Claudian rulers, but I can't name him.",
     Grade.UNGRADED),
    ("Who discovered penicillin?", "Alexander Fleming", "No name comes to mind, maybe Pasteur", Grade.UNGRADED),
])
def test_refusal_shapes(question: str, gold: str, answer: str, grade: Grade) -> None:
    assert _grade(question, gold, answer) is grade


@pytest.mark.parametrize("question, gold, answer, grade", [
    ("What is the speed of sound in dry air at 20 °C?", "343 m/s", "About 343 m/s.", Grade.CORRECT),
    ("What is the speed of sound in dry air at 20 °C?", "343 m/s", "Roughly 343 ± 1 m/s", Grade.UNGRADED),
    ("What is the speed of sound in dry air at 20 °C?", "343 m/s", "About 340 m/s", Grade.NOT_ATTEMPTED),
    ("How many squares does a chessboard have?", "64", "64 — 32 light and 32 dark", Grade.CORRECT),  # its parts
    ("How many squares does a chessboard have?", "64", "64 — 30 light and 32 dark", Grade.UNGRADED),
    ("How many squares does a chessboard have?", "64", "64 — 30 light and 30 dark", Grade.UNGRADED),
    ("How many ribs does an adult human have?", "24", "24 (in twelve pairs)", Grade.CORRECT),
    ("How many ribs does an adult human have?", "24", "24 (some people have 26)", Grade.UNGRADED),
    ("How many ribs does an adult human have?", "24", "12 pairs", Grade.CORRECT),  # pairs count twice
    ("How many pairs of ribs does an adult human have?", "12", "12 pairs", Grade.CORRECT),
    ("How far is Mars from the Sun on average?", "228 million km",
     "A few hundred million km; I can't recall the exact figure.", Grade.NOT_ATTEMPTED),  # a bound beside a refusal
    ("How many players are on a volleyball team on court?", "6", "6, one of whom may be the libero",
     Grade.CORRECT),
    ("In what year did the Berlin Wall fall?", "1989",
     "Hungary opened its border earlier that summer.\n\nFinal answer: 1989", Grade.CORRECT),
    ("In what year did the Berlin Wall fall?", "1989", "It fell in 1989.\nFinal answer: 1990", Grade.INCORRECT),
])
def test_figure_detail_shapes(question: str, gold: str, answer: str, grade: Grade) -> None:
    assert _grade(question, gold, answer) is grade


@pytest.mark.parametrize("question, gold, answer, grade", [
    ("Who led the Union during the American Civil War?", "Abraham Lincoln", "Abe Lincoln", Grade.UNGRADED),
    ("Who wrote 'The Brothers Karamazov'?", "Fyodor Dostoevsky", "Fedor Mikhailovich Dostoevsky", Grade.UNGRADED),
    ("Who led the Lakers' Showtime teams?", "Earvin Johnson", "Earvin “Magic” Johnson", Grade.UNGRADED),  # an added name
    ("Who wrote 'Anna Karenina'?", "Leo Tolstoy", "Tolstoi", Grade.CORRECT),
    ("Who wrote 'Anna Karenina'?", "Leo Tolstoy", "Tolstaya", Grade.UNGRADED),
    ("Who painted 'Water Lilies'?", "Claude Monet", "Manet", Grade.UNGRADED),
    ("What was the birth name of the author called Mark Twain?", "Samuel Langhorne Clemens", "Samuel Clemens",
     Grade.CORRECT),                                                          # a middle name dropped
    ("Which element has atomic number 79?", "Gold", "Au", Grade.CORRECT),   # the `code` kind: its symbol
    ("Which gas do plants take in for photosynthesis?", "Carbon dioxide", "CO₂", Grade.UNGRADED),
    ("What is the SI unit of power?", "Watt", "watts", Grade.CORRECT),
    ("Which amendment ended Prohibition?", "21st Amendment", "Amendment XXI", Grade.UNGRADED),
    ("Which amendment ended Prohibition?", "21st Amendment", "Amendment XVIII", Grade.UNGRADED),
    ("What is the capital of Austria?", "Vienna", "Wien", Grade.UNGRADED),
    ("Which two countries share Hispaniola?", "Haiti and the Dominican Republic", "- Dominican Republic\n- Haiti",
     Grade.UNGRADED),
    ("Which two countries share Hispaniola?", "Haiti and the Dominican Republic", "- Haiti\n- Cuba", Grade.UNGRADED),
    ("Which two countries share Hispaniola?", "Haiti and the Dominican Republic", "Haiti or the Dominican Republic",
     Grade.UNGRADED),
])
def test_other_spelling_shapes(question: str, gold: str, answer: str, grade: Grade) -> None:
    assert _grade(question, gold, answer) is grade


@pytest.mark.parametrize("question, gold, answer, grade", [
    # a symbol that is also a word is the gold only when it is the whole answer
    ("Which element has atomic number 53?", "Iodine", "I think it's chlorine", Grade.INCORRECT),
    ("Which element has atomic number 53?", "Iodine", "I would say bromine", Grade.INCORRECT),  # another element
    ("Which element has atomic number 53?", "Iodine", "Iodine (I)", Grade.CORRECT),
    ("Which element is the lightest noble gas?", "Helium", "He was the first to find it: neon", Grade.UNGRADED),
    ("Which element has the chemical symbol W?", "Tungsten", "**W**", Grade.UNGRADED),
    # a possessive followed by another person's name names that person
    ("Who wrote Hamlet?", "William Shakespeare", "Shakespeare's contemporary Christopher Marlowe", Grade.UNGRADED),
    ("Who wrote Hamlet?", "William Shakespeare", "Shakespeare's Hamlet is his own", Grade.UNGRADED),
])
def test_wordlike_symbols_and_possessives(question: str, gold: str, answer: str, grade: Grade) -> None:
    assert _grade(question, gold, answer) is grade
