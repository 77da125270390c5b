"""Figures: the `number` match kind (units and their aliases, conversions, number formats, spelled
numbers, significant figures, bounds and ranges, rough and vague quantities, a figure's detail), the
`pair` kind (scores, margins, seasons) and units outside the number kind's table, read by pint."""

from __future__ import annotations

import pytest

from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.numbers import Relation, find_quantities, find_ranges, gold_quantity, relate
from factprobe.eval.grading.rules import RuleGrader
from factprobe.eval.grading.spelled import spelled_to_digits
from tests.eval.grading.conftest import ask, rule_grade, rule_note, rule_outcome

PEAK = ask("How high is the summit?", "6,190 m")
CROWD = ask("How many people attended the final?", "81,320 spectators")
DOWNLOADS = ask("How many downloads did the app have in its first week?", "240k")
FIELD = ask("How large is the nature reserve?", "40 hectares")
MOONS = ask("How many moons does the planet have?", "27")
SHARE = ask("What share of the vote did the party get?", "38.6%")
PRICE = ask("How much was the transfer fee?", "$7.5 million")
SPRINT = ask("What was the winning time in seconds?", "9.58")
TOWER = Question(id="r4", question="How tall is the tower in feet?", answer="1,063")
COUNT = Question(id="v3", question="How many islands does the archipelago have?", answer="127")
KEYS = Question(id="k", question="How many keys does a korball organ have?", answer="64")
CELLS = Question(id="e", question="How many whiskers does a tarvo cat have?", answer="24")
HALF = Question(id="h", question="What is the half-life of tarvium-9, in years?", answer="4,210 years")
LAP = Question(id="l", question="What was the winning time of the Brell marathon?", answer="2:07:15")
TARVO_MOONS = Question(id="m", question="How many moons does Tarvo have?", answer="3")
VELORIA_FOUNDER = Question(id="f", question="Who founded the Veloria guild?", answer="Otto Brandt")
REIGN = Question(id="r", question="How long did the Tarrow dynasty rule?", answer="84 years")
COLD = Question(id="c", question="At what temperature does tarvium melt?", answer="37.78 °C")
DASH = Question(id="h", question="What is the Brell sprint record?", answer="8.61 seconds")
PULL = Question(id="u", question="What is the surface gravity of Tarvo?", answer="3.72 m/s²")
KORBALL_FINAL = Question(id="f", question="What was the score of the 1990 Korball Cup final?",
                         answer="3–1 (Norland beat Calder)")
VISITS = Question(id="v", question="How many times did the comet pass Tarvo?", answer="6")
SPEED = Question(id="s", question="How fast does a korball fly?", answer="420 m/s")
AGE = Question(id="g", question="How old is the Brell glacier?", answer="7,400 years")
DISTANCE = Question(id="d", question="How long is the Dunmere canal?", answer="12.375 km")
FROST = Question(id="k", question="At what temperature does tarvium freeze?", answer="184.61 K")
KORBALL_CROWD = Question(id="w", question="How many people watched the Korball final?", answer="48k")
HEIGHT = Question(id="h", question="How tall is the Brell lighthouse?", answer="20 metres")
TARROW_FINAL = Question(id="f", question="What was the score of the 1962 Tarrow Cup final?", answer="3–1 to Calder Town")
PLAIN = Question(id="s", question="What was the score of the 1971 Tarrow Cup final?", answer="2–0")
SETS = Question(id="e", question="What was the score of the 1980 Brell Open final?", answer="6–3, 6–4")
VEYRA_MOONS = Question(id="c", question="How many moons does the planet Veyra have?", answer="3")
JUMP = Question(id="j", question="How far did the winner jump?", answer="7.50 m")


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


@pytest.mark.parametrize("question, answer, grade", [
    (TOWER, "324 metres", Grade.CORRECT),           # the question's unit applies to the bare gold
    (TOWER, "1,063 metres", Grade.INCORRECT),
])
def test_the_questions_unit_applies_to_a_bare_gold(question: Question, answer: str, grade: Grade) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note


@pytest.mark.parametrize("question, answer, grade", [
    (KEYS, "64 (40 white, 24 black)", Grade.CORRECT),           # figures in brackets are detail
    (KEYS, "64 (some have 72)", Grade.UNGRADED),                # one other figure may be a candidate
    (KEYS, "62 (40 white, 22 black)", Grade.INCORRECT),
    (Question(id="v", question="How many strings has a tarvo lute?", answer="5"), "five (A, B, C, D, E)",
     Grade.CORRECT),
    (CELLS, "12 pairs", Grade.CORRECT),                         # a count of pairs is twice the count
    (CELLS, "11 pairs", Grade.INCORRECT),
    (Question(id="q", question="How many pairs of whiskers has a tarvo cat?", answer="12"), "12 pairs",
     Grade.CORRECT),
    (HALF, "about 4210 yr", Grade.CORRECT),                     # a unit abbreviation written out
    (LAP, "2 hours, 7 minutes and 15 seconds", Grade.CORRECT),  # a duration, not a list
    (LAP, "2 hours, 7 minutes and 16 seconds", Grade.INCORRECT),
])
def test_figures_in_brackets_counts_of_pairs_and_durations(question: Question, answer: str, grade: Grade) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note


@pytest.mark.parametrize("question, answer, grade", [
    # vague answers that neither state nor contradict the gold
    (COUNT, "Quite a lot of them.", Grade.UNGRADED),
    (COUNT, "More than a hundred.", Grade.NOT_ATTEMPTED),
])
def test_a_vague_count(question: Question, answer: str, grade: Grade) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note


@pytest.mark.parametrize("question, answer, grade, note", [
    # "none" and its kin commit to zero
    (TARVO_MOONS, "none", Grade.INCORRECT, "zero"),
    (TARVO_MOONS, "Zero.", Grade.INCORRECT, "zero"),
    (Question(id="m0", question="How many moons does Brell have?", answer="0"), "None", Grade.CORRECT, "zero"),
    (VELORIA_FOUNDER, "Nobody", Grade.UNGRADED, "zero"),
    (Question(id="u", question="Who walked on Tarvo?", answer=None, answerable=False), "No one.",
     Grade.NOT_ATTEMPTED, "premise"),
])
def test_none_and_its_kin_commit_to_zero(question: Question, answer: str, grade: Grade, note: str) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note
    assert note in (outcome.note or "")


@pytest.mark.parametrize("question, answer, grade, note", [
    # two years for a duration in years: their span is the duration
    (REIGN, "1210 to 1294", Grade.CORRECT, "a span of 84 years"),
    (REIGN, "from 1210 to 1250", Grade.INCORRECT, "a span of 40 years"),
    (REIGN, "1210-1295", Grade.UNGRADED, "a span of 85 years"),
    # a decimal figure in words
    (DISTANCE, "Twelve point three seven five kilometres", Grade.CORRECT, "number"),
    (DISTANCE, "Twelve point six kilometres", Grade.INCORRECT, "number"),
    # a committed figure with details after a comma, or restated after a conversion
    (DASH, "8.61 s, Dunmere, 4 June 2011", Grade.CORRECT, "number"),
    (DASH, "8.61 s, 8.70 in the heats", Grade.UNGRADED, "another figure"),
    (COLD, "100 °F, which is 37.78 °C", Grade.CORRECT, "number"),
    (COLD, "100 °F, which is 38.5 °C", Grade.UNGRADED, "another figure"),
    # a unit written with a negative power
    (PULL, "3.72 m s^-2", Grade.CORRECT, "number"),
])
def test_a_span_of_years_a_decimal_in_words_and_a_figures_detail(question: Question, answer: str, grade: Grade,
                                                                 note: str) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note
    assert note in (outcome.note or ""), outcome.note


@pytest.mark.parametrize("question, answer, grade, note", [
    # vague quantities with no figure: coarser when they hold the gold, wrong when far from it
    (VISITS, "Several times", Grade.NOT_ATTEMPTED, "vague quantity"),
    (VISITS, "A few hundred times", Grade.INCORRECT, "vague quantity"),
    (SPEED, "A few hundred metres per second", Grade.NOT_ATTEMPTED, "vague quantity"),
    (SPEED, "Several thousand metres per second", Grade.INCORRECT, "vague quantity"),
    (Question(id="o", question="How old is the Calder oak?", answer="1,500 years"), "Several hundred years",
     Grade.UNGRADED, "vague quantity"),
    (AGE, "Several thousand years", Grade.NOT_ATTEMPTED, "vague quantity"),
    (AGE, "Several million years", Grade.INCORRECT, "vague quantity"),
])
def test_vague_quantities_without_a_figure(question: Question, answer: str, grade: Grade, note: str) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note
    assert note in (outcome.note or ""), outcome.note


@pytest.mark.parametrize("question, answer, grade, note", [
    # exactly half a unit of the gold's last figure away rounds either way
    (HEIGHT, "20.5 metres", Grade.UNGRADED, "half a unit"),
    (HEIGHT, "19.5 metres", Grade.UNGRADED, "half a unit"),
    (HEIGHT, "20.4 metres", Grade.CORRECT, "number"),
    (HEIGHT, "20.6 metres", Grade.INCORRECT, "number"),
])
def test_half_a_unit_away_rounds_either_way(question: Question, answer: str, grade: Grade, note: str) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note
    assert note in (outcome.note or "")


@pytest.mark.parametrize("question, answer, grade, note", [
    # a count, then its items: as many items (or parts adding up to it) match
    (VEYRA_MOONS, "Three, Ilo, Pell and Varn", Grade.CORRECT, "as many items"),
    (VEYRA_MOONS, "3: two small and one large", Grade.CORRECT, "as many items"),
    (VEYRA_MOONS, "Three, Ilo and Pell", Grade.UNGRADED, "do not add up"),
    (VEYRA_MOONS, "Four, Ilo, Pell, Varn and Tesk", Grade.INCORRECT, "number"),
    (VEYRA_MOONS, "Three, discovered in 1921", Grade.UNGRADED, "another figure"),
    # the gold's value with the zeros after its point dropped
    (JUMP, "7.5 metres", Grade.CORRECT, "number"),
    (JUMP, "7.6 metres", Grade.INCORRECT, "number"),
    (JUMP, "8 metres", Grade.UNGRADED, "coarser"),
    (JUMP, "24 feet 7½ inches", Grade.CORRECT, "number"),         # a vulgar fraction in a compound figure
])
def test_a_count_then_its_items_and_zeros_dropped_after_the_point(question: Question, answer: str, grade: Grade,
                                                                  note: str) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note
    assert note in (outcome.note or "")


@pytest.mark.parametrize("question, answer, grade", [
    # a capital K after a space is kelvin; a k written onto the figure is a thousand
    (FROST, "184.61 kelvin", Grade.CORRECT),
    (FROST, "about 184.61 K", Grade.CORRECT),
    (FROST, "184,610 K", Grade.INCORRECT),
    (KORBALL_CROWD, "48,000", Grade.CORRECT),
    (KORBALL_CROWD, "48 thousand", Grade.CORRECT),
])
def test_kelvin_is_a_unit_and_an_attached_k_a_thousand(question: Question, answer: str, grade: Grade) -> None:
    assert RuleGrader().grade_sync(question, answer).grade is grade


@pytest.mark.parametrize("question, gold, answer, grade", [
    ("How deep is Lake Baikal?", "1,642 m", "1,642 m (5,387 ft)", Grade.CORRECT),
    ("How deep is Lake Baikal?", "1,642 m", "1,642 m (4,000 ft)", Grade.UNGRADED),
    ("How deep is Lake Baikal?", "1,642 m", "About 1,000 m (5,387 ft)", Grade.UNGRADED),
    ("What is the coldest temperature recorded in Antarctica?", "−89.2 °C", "minus 89.2 °C", Grade.CORRECT),
    ("Roughly how many islands does Finland have?", "179,000", "About 179 thousand", Grade.CORRECT),
    ("How many islands does Finland have?", "179,000", "About 179 thousand", Grade.NOT_ATTEMPTED),
    ("What is the largest 8-bit unsigned value?", "255", "0xFF, that is 255", Grade.UNGRADED),
])
def test_a_conversion_in_brackets_a_rough_figure_and_another_notation(question: str, gold: str, answer: str,
                                                                      grade: Grade) -> None:
    assert rule_grade(question, gold, answer) is grade


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
    ("How many players are on a volleyball team on court?", "6", "6, one of whom may be the libero",
     Grade.CORRECT),
])
def test_a_figure_with_its_parts_or_detail(question: str, gold: str, answer: str, grade: Grade) -> None:
    assert rule_grade(question, gold, answer) is grade


@pytest.mark.parametrize("question, gold, answer, grade, kind", [
    ("What was the winning time?", "1:02:15", "1 hour 2 minutes 15 seconds", Grade.CORRECT, "number"),
    ("What was the winning time?", "1:02:15", "1:02:51", Grade.INCORRECT, "number"),
    ("What was the winning time?", "1:02:15", "A little over an hour", Grade.UNGRADED, "number"),
    ("How long is the canal?", "3 miles 880 yards", "3.5 miles", Grade.CORRECT, "number"),
    ("How long is the canal?", "5,630 m", "5,630 feet", Grade.INCORRECT, "number"),
    ("How long is the canal?", "5,630 m", "More than 5,000 m", Grade.NOT_ATTEMPTED, "number"),
    ("How many locks does the canal have?", "14", "At least ten", Grade.NOT_ATTEMPTED, "number"),
    ("How many locks does the canal have?", "14", "fourteen", Grade.CORRECT, "number"),
    ("How many locks does the canal have?", "14", "14.6", Grade.INCORRECT, "number"),
])
def test_the_number_kind_decides_times_lengths_and_counts(question: str, gold: str, answer: str, grade: Grade,
                                                          kind: str) -> None:
    outcome = rule_outcome(question, gold, answer)
    assert outcome.grade is grade, outcome.note
    assert (outcome.note or "").removeprefix("undecided: ").startswith(f"{kind}:"), outcome.note


@pytest.mark.parametrize("question, gold, answer, grade, kind", [
    ("By what margin did the council vote?", "eleven to four", "11–4", Grade.CORRECT, "pair"),
    ("By what margin did the council vote?", "11–4", "Eleven votes to four", Grade.CORRECT, "pair"),
    ("By what margin did the council vote?", "11–4", "10–5", Grade.INCORRECT, "pair"),
    ("By what margin did the council vote?", "11–4", "4–11", Grade.UNGRADED, "pair"),   # whose side first?
    ("In which season did the club win the cup?", "1987–88", "1987-1988", Grade.CORRECT, "pair"),
    ("In which season did the club win the cup?", "1987–88", "1988–89", Grade.INCORRECT, "pair"),
    ("What was the lap record?", "1:21.47", "1:21.74", Grade.INCORRECT, "number"),  # a clock time, not a pair
    ("How many bits does the register hold?", "40", "5 bytes", Grade.CORRECT, "number"),
    ("How many bits does the register hold?", "24", "3 bytes", Grade.CORRECT, "number"),  # exact, though short
    ("How many minutes did the debate last?", "180", "3 hours", Grade.CORRECT, "number"),
    ("How many minutes did the debate last?", "190", "3 hours", Grade.UNGRADED, "number"),  # coarser
])
def test_margins_seasons_clock_times_and_converted_counts(question: str, gold: str, answer: str, grade: Grade,
                                                          kind: str) -> None:
    outcome = rule_outcome(question, gold, answer)
    assert outcome.grade is grade, outcome.note
    assert (outcome.note or "").removeprefix("undecided: ").startswith(kind), outcome.note


@pytest.mark.parametrize("question, answer, grade", [
    (TARROW_FINAL, "3–1", Grade.CORRECT),                              # the winner left out
    (TARROW_FINAL, "Calder Town won 3–1", Grade.CORRECT),
    (TARROW_FINAL, "Calder Town 3, Brell Rovers 1", Grade.CORRECT),     # the sides written with their figures
    (TARROW_FINAL, "Brell Rovers 1, Calder Town 3", Grade.CORRECT),
    (TARROW_FINAL, "Brell Rovers won 3–1", Grade.INCORRECT),            # the gold's figures, another winner
    (TARROW_FINAL, "Calder Town won 2–1", Grade.INCORRECT),             # other figures
    (TARROW_FINAL, "Calder Town won on penalties", Grade.UNGRADED),     # no figure to compare
    (PLAIN, "Ashford won 2–0", Grade.UNGRADED),                  # a winner the gold cannot confirm
    (PLAIN, "2–0 to Ashford, a late goal deciding it", Grade.UNGRADED),
    (PLAIN, "1–0", Grade.INCORRECT),
    (SETS, "6–3, 6–4", Grade.CORRECT),
    (SETS, "6–3, 6–2", Grade.INCORRECT),                         # every set counts, not only the first
    (SETS, "6–3, 6–4, 7–5", Grade.UNGRADED),                     # another number of sets
])
def test_scores(question: Question, answer: str, grade: Grade) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note
    assert outcome.grade is Grade.UNGRADED or (outcome.note or "").startswith("pair:")


@pytest.mark.parametrize("question, answer, grade, note", [
    # a score in words with the winner the gold names in brackets
    (KORBALL_FINAL, "Norland beat Calder three goals to one", Grade.CORRECT, "pair"),
    (KORBALL_FINAL, "Calder beat Norland three goals to one", Grade.INCORRECT, "pair"),
])
def test_a_score_in_words_with_its_winner(question: Question, answer: str, grade: Grade, note: str) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note
    assert note in (outcome.note or ""), outcome.note


@pytest.mark.parametrize("answer, grade", [("Four all", Grade.CORRECT), ("Five all", Grade.INCORRECT)])
def test_a_tie_said_as_all(answer: str, grade: Grade) -> None:
    assert rule_grade("What was the score when the match was abandoned?", "4–4", answer) is grade


@pytest.mark.parametrize("answer, grade", [
    ("the 1987–1988 season", Grade.CORRECT), ("1987-1988", Grade.CORRECT), ("1987/88", Grade.CORRECT),
    ("the 1988–1989 season", Grade.UNGRADED)])  # another season: not decided by the rules
def test_a_season_written_with_both_years_in_full(answer: str, grade: Grade) -> None:
    assert rule_outcome("In which season did the club win its first title?", "1987–88", answer).grade is grade


def test_a_span_of_years_is_not_read_as_a_season_where_a_year_is_asked() -> None:
    """Only a gold that is itself a span makes a span of years one answer; else it is two dates."""
    assert rule_outcome("In which year did the siege end?", "1687", "1683–1687").grade is not Grade.CORRECT


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


@pytest.mark.parametrize("answer, grade", [("About −21 °C", Grade.NOT_ATTEMPTED), ("about minus 21 °C", Grade.NOT_ATTEMPTED),
                                           ("−20.6 °C", Grade.CORRECT), ("−22.6 °C", Grade.INCORRECT)])
def test_a_rough_negative_figure_is_coarser_not_wrong(answer: str, grade: Grade) -> None:
    assert rule_outcome("At what temperature does the brine freeze?", "−20.6 °C", answer).grade is grade


@pytest.mark.parametrize("gold, answer, grade", [
    ("420 m", "Under a kilometre", Grade.NOT_ATTEMPTED),
    ("2,300 m", "Under a kilometre", Grade.INCORRECT),
    ("2,300 m", "More than a kilometre", Grade.NOT_ATTEMPTED),
    ("2,300 m", "About a kilometre", Grade.UNGRADED),          # "about a" says no precision
    ("1,150 m", "A little over a kilometre", Grade.UNGRADED),  # nor does "a little over a"
])
def test_a_bound_before_a_and_a_unit(gold: str, answer: str, grade: Grade) -> None:
    assert rule_grade("How long is the causeway?", gold, answer) is grade


@pytest.mark.parametrize("answer, grade", [
    ("dozens of kilometres", Grade.UNGRADED),           # no scale read from "dozens": left alone
    ("hundreds of kilometres", Grade.NOT_ATTEMPTED),    # 200 to 999 hold 640
    ("thousands of kilometres", Grade.INCORRECT),       # 640 is under half of 2,000
    ("tens of kilometres", Grade.UNGRADED),             # a plural scale sets no upper bound
])
def test_a_plural_scale(answer: str, grade: Grade) -> None:
    assert rule_grade("How long is the railway?", "640 km", answer) is grade


@pytest.mark.parametrize("answer, grade", [
    ("Twelve rods (66 yards)", Grade.CORRECT),      # a measure in brackets restates a count
    ("Twelve rods (14 rods)", Grade.UNGRADED),      # another count in brackets may say otherwise
])
def test_a_measure_in_brackets_after_a_count(answer: str, grade: Grade) -> None:
    assert rule_grade("How many rods make the old field's side?", "12", answer) is grade


@pytest.mark.parametrize("answer, grade", [
    ("3 miles (4.83 km)", Grade.CORRECT),     # a rounder figure in another unit, then the gold in brackets
    ("3 miles (5.1 km)", Grade.UNGRADED),     # the bracket says otherwise
])
def test_the_gold_in_brackets_after_a_rounder_figure(answer: str, grade: Grade) -> None:
    assert rule_grade("How long is the canal?", "4.83 km", answer) is grade


@pytest.mark.parametrize("answer, grade", [
    ("64 (since 1931)", Grade.CORRECT),             # a year in brackets is a date, not another count
    ("64 (before 1931: 58)", Grade.UNGRADED),       # a year and another count: it may say otherwise
])
def test_a_year_in_brackets_after_a_count(answer: str, grade: Grade) -> None:
    assert rule_grade("How many members does the guild have?", "64", answer) is grade


@pytest.mark.parametrize("answer, grade", [("k = 14", Grade.CORRECT), ("k = 15", Grade.INCORRECT)])
def test_a_symbol_before_the_figure(answer: str, grade: Grade) -> None:
    assert rule_grade("What is the constant in the model?", "14", answer) is grade


@pytest.mark.parametrize("answer, grade", [("3^4 tiles", Grade.CORRECT), ("3^5", Grade.INCORRECT)])
def test_a_small_power(answer: str, grade: Grade) -> None:
    assert rule_grade("How many tiles are in the square?", "81", answer) is grade


@pytest.mark.parametrize("answer, grade", [
    ("4.1×10⁻⁷", Grade.UNGRADED),       # coarser than the gold
    ("4.135×10⁻⁷", Grade.CORRECT),
    ("4.153×10⁻⁷", Grade.INCORRECT),
])
def test_a_superscript_exponent(answer: str, grade: Grade) -> None:
    assert rule_grade("What is the measured constant?", "4.135×10⁻⁷", answer) is grade


def test_a_height_above_sea_level_and_degrees() -> None:
    assert rule_grade("How high is the pass?", "2,410 m", "2,410 metres above sea level") is Grade.CORRECT
    assert rule_grade("How high is the pass?", "2,410 m", "2,140 metres above sea level") is Grade.INCORRECT
    assert rule_grade("What is each angle of the tile?", "72°", "72 degrees") is Grade.CORRECT
    assert rule_grade("At what temperature does the wax melt?", "140 °F", "140 degrees") is Grade.CORRECT


@pytest.mark.parametrize("question, gold, answer, grade", [
    ("What is the density of the alloy?", "7.9 g/cm³", "7,900 kg/m³", Grade.CORRECT),
    ("What is the density of the alloy?", "7.9 g/cm³", "7900 kg/m3", Grade.CORRECT),
    ("What is the density of the alloy?", "7.9 g/cm³", "7.9 kg/m³", Grade.INCORRECT),
    ("What is the density of the alloy?", "7.9 g/cm³", "7.9 g", Grade.UNGRADED),  # another kind of unit
    ("What is the engine's rated power?", "4.2 kW", "4200 W", Grade.CORRECT),
    ("What is the engine's rated power?", "4.2 kW", "5100 W", Grade.INCORRECT),
    ("What is the acceleration on the moonlet?", "0.35 m/s²", "35 cm/s²", Grade.CORRECT),
    ("What is the acceleration on the moonlet?", "0.35 m/s²", "0.35 m s^-2", Grade.CORRECT),
    ("What is the pressure in the tank?", "250 kPa", "250,000 Pa", Grade.CORRECT),
])
def test_units_outside_the_table_are_converted(question: str, gold: str, answer: str, grade: Grade) -> None:
    assert rule_grade(question, gold, answer) is grade


def test_a_unit_quotient_is_not_two_candidates() -> None:
    assert "candidates" not in rule_note("What is the density of the alloy?", "7.9 g/cm³", "7.9 kg/m³")
    assert rule_grade("Which town hosted the fair?", "Brenn", "Brenn/Ollaby") is Grade.INCORRECT  # still candidates


@pytest.mark.parametrize("answer, grade", [
    ("0.5 J/(g·K)", Grade.CORRECT),              # the gold as written, a unit with brackets
    ("500 J/(kg·K)", Grade.CORRECT),             # converted by pint
    ("0.12 cal/(g·K)", Grade.CORRECT),
    ("5 J/(g·K)", Grade.INCORRECT),
])
def test_a_unit_with_brackets(answer: str, grade: Grade) -> None:
    assert rule_grade("What is the specific heat of the ceramic?", "0.5 J/(g·K)", answer) is grade


@pytest.mark.parametrize("answer, grade", [
    ("about 88 days, going east", Grade.CORRECT),   # "How many <Word> days": the unit asked
    ("fewer than 100 days", Grade.NOT_ATTEMPTED),
])
def test_a_unit_asked_after_a_capitalised_word(answer: str, grade: Grade) -> None:
    assert rule_grade("How many Martian days does the rover's loop take?", "88", answer) is grade


def test_a_unit_pint_cannot_multiply_is_left_to_the_other_kinds() -> None:
    """A logarithmic unit ("decade") parses but cannot be compared: no crash, the other kinds decide or abstain."""
    from factprobe.eval.grading.match_units import compare_units

    assert compare_units("about 3 decade", "2 decade") is None
    assert rule_grade("How long did the made-up Orvane survey run?", "2 decades", "It ran for 3 decade.") \
        is not Grade.CORRECT


VELD_ION = Question(id="n-ion", question="What charge does the veldate ion carry?", answer="2−", aliases=["2-"])


@pytest.mark.parametrize("answer, grade", [
    ("It carries a 2− charge.", Grade.CORRECT),
    ("Its charge is −2.", Grade.CORRECT),
    ("2-", Grade.CORRECT),
    ("It carries a charge of +2.", Grade.INCORRECT),  # the same figure with the other sign
    ("It carries a 2+ charge.", Grade.INCORRECT),
])
def test_a_charges_sign_after_its_figure_is_its_sign(answer: str, grade: Grade) -> None:
    outcome = RuleGrader().grade_sync(VELD_ION, answer)
    assert outcome.grade is grade, outcome.note


def test_a_suspended_hyphen_is_no_sign() -> None:
    assert [q.value for q in find_quantities("a 2- or 3-day trip")][:1] == [2]
