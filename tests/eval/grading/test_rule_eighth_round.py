"""The eighth session's shapes, on made-up questions. First round: the `formula` kind, units outside
the number kind's table (read by pint), a unit's quotient after a figure, a year with an apostrophe,
a century for a year before 1000, a bound before "a" and a unit, a measure in brackets after a
count, heights above sea level, "degrees" with the gold's unit, a middle name before a detail.
Second round: the gold in brackets after a rounder figure, a year in brackets after a count, a
symbol before a figure, bonds in a formula, a tie said as "all", a modifier letter, a title. Third
round: one letter off as a spelling only in a name, "part of", a unit with brackets, a unit asked after
a capitalised word, a small power, a plural scale. Fourth round: "not sure" then a clause that names
nothing, a former country where a city is asked, a superscript exponent, an expansion spelt exactly,
a work's title with a foreign article."""

from __future__ import annotations

import pytest

from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.rules import RuleGrader


def _grade(question: str, gold: str, answer: str) -> Grade:
    return RuleGrader().grade_sync(Question(id="q", question=question, answer=gold), answer).grade


def _note(question: str, gold: str, answer: str) -> str:
    return RuleGrader().grade_sync(Question(id="q", question=question, answer=gold), answer).note


FORMULA = "What is the chemical formula of the salt the plant sells?"


@pytest.mark.parametrize("gold, answer, grade", [
    ("MgSO4·7H2O", "MgSO4·7H2O", Grade.CORRECT),
    ("MgSO4·7H2O", "MgSO₄ • 7H₂O", Grade.CORRECT),               # subscripts, another dot, spaces
    ("MgSO4·7H2O", "MgSO4", Grade.INCORRECT),                      # the anhydrous salt for a hydrate
    ("KNO3", "KNO2", Grade.INCORRECT),                             # a neighbouring compound
    ("KNO3", "K2NO3", Grade.INCORRECT),                            # the gold inside a longer formula
    ("HCOOCH3", "C2H4O2", Grade.CORRECT),                          # a molecular formula for a structural one
    ("CH3CH2CH2OH", "CH3CH(OH)CH3", Grade.UNGRADED),               # two structures, same atoms: maybe isomers
    ("KNO3", "potassium nitrate", Grade.UNGRADED),                 # a name where the formula is asked
])
def test_formulas_are_compared_atom_by_atom(gold: str, answer: str, grade: Grade) -> None:
    assert _grade(FORMULA, gold, answer) is grade


def test_a_formula_decision_names_its_kind() -> None:
    assert _note(FORMULA, "KNO3", "KNO2").startswith("formula:")


def test_formulas_are_read_only_where_a_formula_is_asked() -> None:
    assert _grade("Which company makes the valve?", "KNO3", "KNO2") is not Grade.CORRECT


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
    assert _grade(question, gold, answer) is grade


def test_a_unit_quotient_is_not_two_candidates() -> None:
    assert "candidates" not in _note("What is the density of the alloy?", "7.9 g/cm³", "7.9 kg/m³")
    assert _grade("Which town hosted the fair?", "Brenn", "Brenn/Ollaby") is Grade.INCORRECT  # still candidates


@pytest.mark.parametrize("answer, grade", [
    ("'71", Grade.CORRECT),
    ("'72", Grade.INCORRECT),
    ("the '70s", Grade.NOT_ATTEMPTED),
])
def test_a_year_written_with_an_apostrophe(answer: str, grade: Grade) -> None:
    assert _grade("In which year did the ferry line open?", "1971", answer) is grade


@pytest.mark.parametrize("answer, grade", [
    ("the 8th century", Grade.NOT_ATTEMPTED),
    ("the 9th century", Grade.INCORRECT),
    ("mid 8th century", Grade.NOT_ATTEMPTED),
    ("late 8th century", Grade.UNGRADED),  # outside the part it names, inside the century: the judge's
    ("736", Grade.CORRECT),
    ("737", Grade.INCORRECT),
])
def test_a_century_for_a_year_before_1000(answer: str, grade: Grade) -> None:
    assert _grade("In which year was the abbey founded?", "736", answer) is grade


@pytest.mark.parametrize("gold, answer, grade", [
    ("420 m", "Under a kilometre", Grade.NOT_ATTEMPTED),
    ("2,300 m", "Under a kilometre", Grade.INCORRECT),
    ("2,300 m", "More than a kilometre", Grade.NOT_ATTEMPTED),
    ("2,300 m", "About a kilometre", Grade.UNGRADED),          # "about a" says no precision
    ("1,150 m", "A little over a kilometre", Grade.UNGRADED),  # nor does "a little over a"
])
def test_a_bound_before_a_and_a_unit(gold: str, answer: str, grade: Grade) -> None:
    assert _grade("How long is the causeway?", gold, answer) is grade


@pytest.mark.parametrize("answer, grade", [
    ("Twelve rods (66 yards)", Grade.CORRECT),      # a measure in brackets restates a count
    ("Twelve rods (14 rods)", Grade.UNGRADED),      # another count in brackets may say otherwise
])
def test_a_measure_in_brackets_after_a_count(answer: str, grade: Grade) -> None:
    assert _grade("How many rods make the old field's side?", "12", answer) is grade


def test_a_height_above_sea_level_and_degrees() -> None:
    assert _grade("How high is the pass?", "2,410 m", "2,410 metres above sea level") is Grade.CORRECT
    assert _grade("How high is the pass?", "2,410 m", "2,140 metres above sea level") is Grade.INCORRECT
    assert _grade("What is each angle of the tile?", "72°", "72 degrees") is Grade.CORRECT
    assert _grade("At what temperature does the wax melt?", "140 °F", "140 degrees") is Grade.CORRECT


@pytest.mark.parametrize("answer, grade", [
    ("Odile M. Varga, at the institute in 1911", Grade.CORRECT),
    ("Odile Marta Varga, her granddaughter", Grade.UNGRADED),  # the detail speaks of a relative
])
def test_a_middle_name_before_a_detail(answer: str, grade: Grade) -> None:
    assert _grade("Who founded the laboratory?", "Odile Varga", answer) is grade


# The session's second round.


@pytest.mark.parametrize("answer, grade", [
    ("3 miles (4.83 km)", Grade.CORRECT),     # a rounder figure in another unit, then the gold in brackets
    ("3 miles (5.1 km)", Grade.UNGRADED),     # the bracket says otherwise
])
def test_the_gold_in_brackets_after_a_rounder_figure(answer: str, grade: Grade) -> None:
    assert _grade("How long is the canal?", "4.83 km", answer) is grade


@pytest.mark.parametrize("answer, grade", [
    ("64 (since 1931)", Grade.CORRECT),             # a year in brackets is a date, not another count
    ("64 (before 1931: 58)", Grade.UNGRADED),       # a year and another count: it may say otherwise
])
def test_a_year_in_brackets_after_a_count(answer: str, grade: Grade) -> None:
    assert _grade("How many members does the guild have?", "64", answer) is grade


@pytest.mark.parametrize("answer, grade", [("k = 14", Grade.CORRECT), ("k = 15", Grade.INCORRECT)])
def test_a_symbol_before_the_figure(answer: str, grade: Grade) -> None:
    assert _grade("What is the constant in the model?", "14", answer) is grade


@pytest.mark.parametrize("answer, grade", [
    ("H3C–CH3", Grade.CORRECT),      # bonds written out
    ("H3C–CH2–OH", Grade.INCORRECT),
])
def test_a_structure_written_with_bonds(answer: str, grade: Grade) -> None:
    assert _grade("What is the chemical formula of the gas in the tank?", "C2H6", answer) is grade


@pytest.mark.parametrize("answer, grade", [("Four all", Grade.CORRECT), ("Five all", Grade.INCORRECT)])
def test_a_tie_said_as_all(answer: str, grade: Grade) -> None:
    assert _grade("What was the score when the match was abandoned?", "4–4", answer) is grade


def test_a_modifier_letter_and_a_title() -> None:
    assert _grade("Who ruled the atoll?", "Teʻiva", "Teiva") is Grade.CORRECT
    assert _grade("Who ruled the atoll?", "Teʻiva", "King Teiva") is Grade.CORRECT
    assert _grade("Who ruled the atoll?", "Teʻiva", "King Tamatoa") is Grade.INCORRECT


# The session's third round.


def test_one_letter_off_is_a_spelling_only_in_a_name() -> None:
    assert _grade("Who built the mill?", "Hendrik Ostervelt", "Hendrik Oostervelt") is Grade.CORRECT
    # two common words one letter apart are two words (a chemical name's ending), not one misspelt
    assert _grade("What is the systematic name of the salt?", "potassium chlorate", "potassium chlorite") \
        is Grade.UNGRADED


def test_part_of_a_larger_thing_describes_rather_than_names() -> None:
    assert _grade("Which bay lies west of the cape?", "Ardmore Bay", "part of the Celtic Sea") is Grade.UNGRADED


@pytest.mark.parametrize("answer, grade", [
    ("0.5 J/(g·K)", Grade.CORRECT),              # the gold as written, a unit with brackets
    ("500 J/(kg·K)", Grade.CORRECT),             # converted by pint
    ("0.12 cal/(g·K)", Grade.CORRECT),
    ("5 J/(g·K)", Grade.INCORRECT),
])
def test_a_unit_with_brackets(answer: str, grade: Grade) -> None:
    assert _grade("What is the specific heat of the ceramic?", "0.5 J/(g·K)", answer) is grade


@pytest.mark.parametrize("answer, grade", [
    ("about 88 days, going east", Grade.CORRECT),   # "How many <Word> days": the unit asked
    ("fewer than 100 days", Grade.NOT_ATTEMPTED),
])
def test_a_unit_asked_after_a_capitalised_word(answer: str, grade: Grade) -> None:
    assert _grade("How many Martian days does the rover's loop take?", "88", answer) is grade


@pytest.mark.parametrize("answer, grade", [("3^4 tiles", Grade.CORRECT), ("3^5", Grade.INCORRECT)])
def test_a_small_power(answer: str, grade: Grade) -> None:
    assert _grade("How many tiles are in the square?", "81", answer) is grade


@pytest.mark.parametrize("answer, grade", [
    ("dozens of kilometres", Grade.UNGRADED),           # no scale read from "dozens": left alone
    ("hundreds of kilometres", Grade.NOT_ATTEMPTED),    # 200 to 999 hold 640
    ("thousands of kilometres", Grade.INCORRECT),       # 640 is under half of 2,000
    ("tens of kilometres", Grade.UNGRADED),             # a plural scale sets no upper bound
])
def test_a_plural_scale(answer: str, grade: Grade) -> None:
    assert _grade("How long is the railway?", "640 km", answer) is grade


# The session's fourth round.


@pytest.mark.parametrize("answer, grade", [
    ("Not certain; it is in the Mourne range.", Grade.UNGRADED),      # a clause about it: no committed guess
    ("Not sure; the band came from the Leeds area.", Grade.UNGRADED),
    ("Not sure; it was Errigal, I think", Grade.INCORRECT),   # a hedged guess stays one
])
def test_not_sure_then_a_clause(answer: str, grade: Grade) -> None:
    assert _grade("What is the highest peak in the county?", "Slieve Donard", answer) is grade


def test_a_former_country_where_a_city_is_asked() -> None:
    assert _grade("In which city was the accord signed?", "Gitega", "Zaire") is Grade.UNGRADED
    assert _grade("In which city was the accord signed?", "Gitega", "Kigali") is Grade.INCORRECT


@pytest.mark.parametrize("answer, grade", [
    ("4.1×10⁻⁷", Grade.UNGRADED),       # coarser than the gold
    ("4.135×10⁻⁷", Grade.CORRECT),
    ("4.153×10⁻⁷", Grade.INCORRECT),
])
def test_a_superscript_exponent(answer: str, grade: Grade) -> None:
    assert _grade("What is the measured constant?", "4.135×10⁻⁷", answer) is grade


def test_an_expansion_is_spelt_exactly() -> None:
    question = "What does the acronym of the survey stand for?"
    assert _grade(question, "Northern Lakes Monitoring Programme", "Northern Lakes Monitoring Programme") \
        is Grade.CORRECT
    assert _grade(question, "Northern Lakes Monitoring Programme", "Northern Lakes Monitoring Programs") \
        is not Grade.CORRECT


def test_a_title_with_a_foreign_article() -> None:
    question = "Which opera by the composer opens in a forest?"
    assert _grade(question, "The Hunter's Bride", "Die Jägersbraut") is Grade.UNGRADED  # maybe the same title
    assert _grade(question, "The Hunter's Bride", "Orlando") is Grade.INCORRECT
