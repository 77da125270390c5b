"""Regnal numbers, symbols in names, written-out lists, added given names, sentence capitals, modifiers."""

from __future__ import annotations

import pytest

from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.match_text import words
from factprobe.eval.grading.rules import RuleGrader


def _grade(question: str, gold: str, answer: str) -> Grade:
    outcome = RuleGrader().grade_sync(Question(id="r", question=question, answer=gold), answer)
    return outcome.grade


@pytest.mark.parametrize("gold, answer, grade", [
    ("Catherine II", "Catherine I", Grade.INCORRECT),
    ("Catherine II", "Empress Catherine II", Grade.CORRECT),
    ("Louis XIV", "Louis XV", Grade.INCORRECT),
    ("Louis XIV", "Louis XIV", Grade.CORRECT),
    ("Louis XIV", "Louis", Grade.UNGRADED),                         # the regnal number left out
    ("Henry the Eighth", "Henry the Seventh", Grade.INCORRECT),
    ("Frederick I", "Frederick II", Grade.INCORRECT),
    ("Frederick I", "Frederick I, I believe", Grade.CORRECT),
])
def test_regnal_numbers_must_agree(gold: str, answer: str, grade: Grade) -> None:
    assert _grade("Who signed the treaty?", gold, answer) is grade


@pytest.mark.parametrize("gold, answer, grade", [
    ("Hank Tulley Jr.", "Hank Tulley Sr.", Grade.UNGRADED),
    ("Hank Tulley Jr.", "Hank Tulley Jr.", Grade.CORRECT),
    ("Hank Tulley Jr.", "Hank Tulley", Grade.UNGRADED),              # a generation word is often dropped
    ("Cato the Younger", "Cato the Elder", Grade.UNGRADED),
    ("Cato the Younger", "Cato the Younger", Grade.CORRECT),
])
def test_generation_words_must_agree(gold: str, answer: str, grade: Grade) -> None:
    assert _grade("Who gave the speech?", gold, answer) is grade


@pytest.mark.parametrize("gold, answer, grade", [
    ("F#", "F", Grade.UNGRADED),
    ("F#", "F#", Grade.CORRECT),
    ("F#", "Fb", Grade.INCORRECT),
    ("Notepad++", "Notepad", Grade.UNGRADED),
    ("Notepad++", "It was written in Notepad++.", Grade.UNGRADED),
])
def test_symbols_are_part_of_a_name(gold: str, answer: str, grade: Grade) -> None:
    assert _grade("Which one was used?", gold, answer) is grade


def test_symbols_do_not_break_signed_numbers() -> None:
    assert words("C# and +7") == ["c#", "and", "7"]
    assert _grade("By how many points did the score change?", "+7", "+7") is Grade.CORRECT


@pytest.mark.parametrize("answer, grade", [
    ("Verdi; Puccini", Grade.UNGRADED),
    ("* Verdi\n* Puccini", Grade.UNGRADED),
    ("1) Verdi\n2) Puccini", Grade.UNGRADED),
    ("Possible composers:\n- Verdi\n- Puccini", Grade.UNGRADED),
    ("Verdi\nPuccini", Grade.UNGRADED),
    ("Verdi\nConfidence: 70", Grade.CORRECT),
    ("Answer: Verdi\nConfidence: 70", Grade.CORRECT),
    ("Verdi.\nHe wrote it in his sixties.", Grade.CORRECT),
    ("- Verdi\n- Verdi", Grade.UNGRADED),
])
def test_written_out_lists_are_candidates(answer: str, grade: Grade) -> None:
    assert _grade("Who composed the opera?", "Giuseppe Verdi", answer) is grade


@pytest.mark.parametrize("answer, grade", [
    ("Henry Walter Brandt", Grade.CORRECT),                        # a middle name added (a small risk: a relative)
    ("Henry W. Brandt", Grade.CORRECT),                             # an initial only
    ("Henry Brandt", Grade.CORRECT),
    ("Walter Brandt", Grade.UNGRADED),
    ("Walter Henry Brandt", Grade.UNGRADED),                       # a given name added before the gold's
    ("Henry Walter Brandt, his grandson", Grade.UNGRADED),          # a detail beside it may say who it is
])
def test_an_added_given_name(answer: str, grade: Grade) -> None:
    assert _grade("Who founded the shipyard?", "Henry Brandt", answer) is grade


@pytest.mark.parametrize("question, gold, answer, grade", [
    ("What do bees make?", "honey", "Sweet sticky food stored in the comb", Grade.UNGRADED),
    ("What do bees make?", "honey", "Answer: Sweet sticky food stored in the comb", Grade.UNGRADED),
    ("What do bees make?", "honey", "Wax", Grade.INCORRECT),
    ("Which city hosted the games?", "Peshawar", "Peshaawur", Grade.UNGRADED),  # same consonants
    ("Which city hosted the games?", "Marrakesh", "Marrakech", Grade.CORRECT),  # within the typo rule
    ("Which instrument did he play?", "bassoon", "The contrabassoon", Grade.UNGRADED),
    ("Which instrument did he play?", "bassoon", "Oboe", Grade.INCORRECT),
])
def test_sentence_capitals_and_spelling_variants(question: str, gold: str, answer: str, grade: Grade) -> None:
    assert _grade(question, gold, answer) is grade


@pytest.mark.parametrize("answer, grade", [
    ("Brown bear", Grade.UNGRADED),
    ("the brown bear", Grade.UNGRADED),
    ("The polar bear", Grade.CORRECT),
    ("A bear", Grade.UNGRADED),                                  # only the head noun: undecided
])
def test_head_noun_with_another_modifier(answer: str, grade: Grade) -> None:
    assert _grade("Which animal lives on the sea ice?", "polar bear", answer) is grade
