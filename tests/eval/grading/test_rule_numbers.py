"""Figures: units and their aliases, conversions, number formats, spelled numbers, significant figures."""

from __future__ import annotations

import pytest

from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.numbers import Relation, find_quantities, find_ranges, gold_quantity, relate
from factprobe.eval.grading.rules import RuleGrader
from factprobe.eval.grading.spelled import spelled_to_digits


def ask(question: str, gold: str) -> Question:
    return Question(id="n", question=question, answer=gold)


PEAK = ask("How high is the summit?", "6,190 m")
CROWD = ask("How many people attended the final?", "81,320 spectators")
DOWNLOADS = ask("How many downloads did the app have in its first week?", "240k")
FIELD = ask("How large is the nature reserve?", "40 hectares")
MOONS = ask("How many moons does the planet have?", "27")
SHARE = ask("What share of the vote did the party get?", "38.6%")
PRICE = ask("How much was the transfer fee?", "$7.5 million")
SPRINT = ask("What was the winning time in seconds?", "9.58")


@pytest.mark.parametrize("question, answer, grade", [
    (PEAK, "6190 meters", Grade.CORRECT),                     # unit alias, no thousands comma
    (PEAK, "6,190 metres", Grade.CORRECT),
    (PEAK, "6.19 km", Grade.CORRECT),                         # converted, same precision
    (PEAK, "20,308 feet", Grade.CORRECT),                     # converted from feet
    (PEAK, "6,180 m", Grade.INCORRECT),
    (PEAK, "6,200 m", Grade.INCORRECT),                       # coarser than the gold, not hedged
    (PEAK, "roughly 6,200 m", Grade.NOT_ATTEMPTED),           # approximate, agrees as far as it goes
    (PEAK, "about 7,000 m", Grade.INCORRECT),                 # approximate and wrong
    (CROWD, "81,320", Grade.UNGRADED),                         # the gold's label word left out
    (CROWD, "A crowd of 81320 watched in 1994.", Grade.UNGRADED),  # a year as context
    (CROWD, "81,230", Grade.UNGRADED),
    (CROWD, "eighty-one thousand", Grade.UNGRADED),          # a plain figure is exact
    (DOWNLOADS, "244k", Grade.CORRECT),                       # rounds to the gold's last significant figure
    (DOWNLOADS, "236,000", Grade.CORRECT),
    (DOWNLOADS, "233k", Grade.INCORRECT),
    (DOWNLOADS, "200k", Grade.UNGRADED),
    (DOWNLOADS, "more than 100k", Grade.NOT_ATTEMPTED),       # a bound the gold satisfies
    (DOWNLOADS, "fewer than 100k", Grade.INCORRECT),          # a bound the gold breaks
    (PEAK, "6,190 m, first climbed in 1952", Grade.CORRECT),  # a year in the detail is no measure
    (PEAK, "6,190 m, of which 2,000 m is glacier", Grade.UNGRADED),
    (DOWNLOADS, "between 200k and 300k", Grade.NOT_ATTEMPTED),
    (DOWNLOADS, "between 100k and 150k", Grade.INCORRECT),
    (FIELD, "99 acres", Grade.CORRECT),                       # 40 ha is about 98.8 acres
    (FIELD, "40 acres", Grade.INCORRECT),                     # the gold's number, the wrong unit
    (FIELD, "16 hectares (about 40 acres)", Grade.INCORRECT), # a conversion that mentions the gold number
    (MOONS, "twenty-seven", Grade.CORRECT),                   # compound spelled number
    (MOONS, "It has 27 known moons.", Grade.UNGRADED),
    (MOONS, "26 or 27", Grade.INCORRECT),                     # candidates, one wrong
    (MOONS, "twenty-eight", Grade.INCORRECT),
    (SHARE, "38.6 per cent", Grade.CORRECT),
    (SHARE, "39%", Grade.UNGRADED),
    (PRICE, "7.5 million dollars", Grade.CORRECT),
    (PRICE, "$7,500,000", Grade.CORRECT),
    (PRICE, "$7.2m", Grade.INCORRECT),
    (SPRINT, "9.58 seconds", Grade.CORRECT),
    (SPRINT, "9.6", Grade.UNGRADED),
])
def test_figures(question: Question, answer: str, grade: Grade) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note


@pytest.mark.parametrize("text, digits", [
    ("forty-two", "42"),
    ("one hundred and six", "106"),
    ("nineteen eighty-four", "1984"),
    ("twenty twenty", "2020"),
    ("three million people", "3000000 people"),
    ("nothing to convert", "nothing to convert"),
])
def test_spelled_numbers_become_digits(text: str, digits: str) -> None:
    assert spelled_to_digits(text) == digits


def test_gold_precision_follows_its_last_significant_figure() -> None:
    thousands = gold_quantity("240k")
    exact = gold_quantity("240,000")
    assert thousands is not None and exact is not None
    assert thousands.step == 10_000 and exact.step == 1
    assert gold_quantity("1.50 kg").step == gold_quantity("0.01").step  # trailing decimal zero counts


def test_names_with_numbers_are_not_figures() -> None:
    assert gold_quantity("Apollo 13") is None
    assert gold_quantity("Season 4, Episode 12") is None


def test_relation_of_converted_values() -> None:
    gold = gold_quantity("10 km")
    miles = find_quantities("6.2 miles")[0]
    litres = find_quantities("10 litres")[0]
    assert relate(gold, miles) is Relation.MATCH
    assert relate(gold, litres) is Relation.INCOMPARABLE


def test_ranges_are_found_in_either_spelling() -> None:
    assert len(find_ranges("between 12 and 15 metres")) == 1
    assert len(find_ranges("from 12-15 metres")) == 1
    assert find_ranges("12 metres and 15 floors") == []


@pytest.mark.parametrize("gold, answer, grade", [
    ("340 m/s", "1,224 km/h", Grade.CORRECT),                 # a speed converted between units
    ("6.022e23", "6.022 × 10^23", Grade.CORRECT),             # scientific notation
    ("6.022e23", "6.2e23", Grade.INCORRECT),
    ("206", "300 at birth, 206 in adults", Grade.UNGRADED),   # two figures, one the gold's; "in" is not inches
])
def test_other_figure_shapes(gold: str, answer: str, grade: Grade) -> None:
    outcome = RuleGrader().grade_sync(ask("What is the value?", gold), answer)
    assert outcome.grade is grade, outcome.note


@pytest.mark.parametrize("gold, answer, grade", [
    ("48 750 m", "48,750 metres", Grade.CORRECT),                 # thousands grouped with a space
    ("12,204 m", "12 204 m", Grade.CORRECT),
    ("2.71828", "2,71828", Grade.CORRECT),                        # a decimal comma
    ("20 °C", "68 °F", Grade.CORRECT),                            # temperatures convert with their offset
    ("20 °C", "20 °F", Grade.INCORRECT),
    ("-40 °C", "-40 °F", Grade.CORRECT),
    ("152,300 km", "152,289 km", Grade.CORRECT),                  # a measured gold's trailing zeros are rounding
    ("152,300 km", "152,400 km", Grade.INCORRECT),
    ("52,000 spectators", "52,010", Grade.UNGRADED),             # a count stays exact
    ("24", "two dozen", Grade.CORRECT),
])
def test_number_formats_and_conversions(gold: str, answer: str, grade: Grade) -> None:
    outcome = RuleGrader().grade_sync(ask("What is the value?", gold), answer)
    assert outcome.grade is grade, outcome.note
