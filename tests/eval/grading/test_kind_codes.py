"""The `code` match kind (ISO 4217 currencies from pycountry, element symbols from periodictable, units
named by their symbols or base units) and the `formula` kind (chemical formulas compared atom by atom)."""

from __future__ import annotations

import pytest

from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.rules import RuleGrader
from tests.eval.grading.conftest import rule_grade, rule_note, rule_outcome

FORMULA_ASKED = "What is the chemical formula of the salt the plant sells?"
VELORIC_ACID = Question(id="x", question="What is the formula of veloric acid?", answer="H3VO4")


@pytest.mark.parametrize("question, gold, answer, grade", [
    ("Which currency does Denmark issue?", "Danish krone", "DKK", Grade.CORRECT),
    ("Which currency does Denmark issue?", "Danish krone", "Danish Krone", Grade.CORRECT),
    ("Which currency does Denmark issue?", "Danish krone", "SEK", Grade.INCORRECT),
    ("Which currency does Denmark issue?", "Danish krone", "The forint", Grade.INCORRECT),
    ("Which currency does Hungary issue?", "Hungarian forint", "Forint", Grade.CORRECT),
    ("What is the ISO 4217 code of Hungary's currency?", "HUF", "HUF", Grade.CORRECT),
    ("What is the ISO 4217 code of Hungary's currency?", "HUF", "HUN", Grade.UNGRADED),  # no currency code
    ("Which element has atomic number 47?", "Silver", "Ag", Grade.CORRECT),
    ("What is the chemical symbol of element 47?", "Ag", "Silver", Grade.CORRECT),
    ("Which element has the chemical symbol Ag?", "Silver", "Ag", Grade.UNGRADED),  # the question's own words
    ("What is the chemical symbol of silver?", "Ag", "Au", Grade.INCORRECT),
    ("What is the chemical symbol of silver?", "Ag", "Si", Grade.INCORRECT),
])
def test_codes_of_currencies_and_elements(question: str, gold: str, answer: str, grade: Grade) -> None:
    outcome = rule_outcome(question, gold, answer)
    assert outcome.grade is grade, (outcome.note or "")
    if grade is not Grade.UNGRADED:
        assert (outcome.note or "").startswith("code:") or (outcome.note or "").startswith("text:")


@pytest.mark.parametrize("question, gold, answer, grade", [
    ("Which element has atomic number 79?", "Gold", "Au", Grade.CORRECT),   # the `code` kind: its symbol
    ("Which gas do plants take in for photosynthesis?", "Carbon dioxide", "CO₂", Grade.UNGRADED),
    ("What is the SI unit of power?", "Watt", "watts", Grade.CORRECT),
])
def test_an_elements_symbol_a_gases_formula_and_a_units_plural(question: str, gold: str, answer: str,
                                                               grade: Grade) -> None:
    assert rule_grade(question, gold, answer) is grade


@pytest.mark.parametrize("question, gold, answer, grade", [
    # a symbol that is also a word is the gold only when it is the whole answer
    ("Which element has atomic number 53?", "Iodine", "I think it's chlorine", Grade.INCORRECT),
    ("Which element has atomic number 53?", "Iodine", "I would say bromine", Grade.INCORRECT),  # another element
    ("Which element has atomic number 53?", "Iodine", "Iodine (I)", Grade.CORRECT),
    ("Which element is the lightest noble gas?", "Helium", "He was the first to find it: neon", Grade.UNGRADED),
    ("Which element has the chemical symbol W?", "Tungsten", "**W**", Grade.UNGRADED),
])
def test_an_element_symbol_that_is_also_a_word(question: str, gold: str, answer: str, grade: Grade) -> None:
    assert rule_grade(question, gold, answer) is grade


def test_a_currency_word_several_currencies_end_in_is_left_to_the_judge() -> None:
    """"Krone" ends the Danish and the Norwegian names: neither a match nor a conflict by the code kind."""
    assert rule_outcome("Which currency does Denmark issue?", "Danish krone", "SEK").note.startswith("code:")
    assert not rule_outcome("Which currency does Norway issue?", "Norwegian krone", "the krone").note.startswith(
        "code: another")


@pytest.mark.parametrize("answer", ["Danish krone", "DKK"])
def test_a_former_currency_is_not_read_as_the_current_one_of_its_word(answer: str) -> None:
    """A former currency (a made-up one here, in no ISO 4217 list) resolves to nothing, so a
    current currency ending in the same word is neither matched nor contradicted by the code kind."""
    outcome = rule_outcome("Which currency did the islands use?", "Vennish kroner", answer)
    assert outcome.grade is not Grade.CORRECT


def test_a_currency_whose_detail_names_another_of_its_word_is_the_judges() -> None:
    outcome = rule_outcome("What is the currency of the republic?", "Hungarian forint", "forint (the Vennish Forint)")
    assert outcome.grade is Grade.UNGRADED


def test_its_own_thing_is_a_description() -> None:
    outcome = rule_outcome("Which currency did the islands use?", "Vennish kroner", "its own local currency")
    assert outcome.grade is not Grade.INCORRECT


def test_a_symbol_is_read_as_an_element_only_where_an_element_is_asked() -> None:
    """A planet's name is no element there: its chemical symbol is not the planet."""
    outcome = rule_outcome("Which planet is closest to the Sun?", "Mercury", "Hg")
    assert outcome.grade is not Grade.CORRECT


@pytest.mark.parametrize("question, gold, answer, grade", [
    ("Which SI unit measures magnetic flux?", "weber", "Wb", Grade.CORRECT),
    ("Which SI unit measures magnetic flux?", "weber", "the tesla", Grade.INCORRECT),
    ("Which SI unit measures magnetic flux?", "Wb", "Weber", Grade.CORRECT),
    ("Which unit of pressure is named after Pascal?", "pascal", "Pa", Grade.CORRECT),
])
def test_units_named_by_their_symbols(question: str, gold: str, answer: str, grade: Grade) -> None:
    outcome = rule_outcome(question, gold, answer)
    assert outcome.grade is grade and (outcome.note or "").startswith(("code:", "text:"))


@pytest.mark.parametrize("answer", ["kg·m/s²", "kg m/s^2"])
def test_a_unit_written_in_base_units_is_the_unit(answer: str) -> None:
    assert rule_outcome("Which SI unit measures force?", "newton", answer).grade is Grade.CORRECT


def test_a_multiple_of_the_unit_is_another_unit() -> None:
    assert rule_outcome("Which SI unit measures force?", "newton", "kN").grade is Grade.INCORRECT


@pytest.mark.parametrize("answer, grade", [("Gy", Grade.INCORRECT), ("Sv", Grade.CORRECT)])
def test_two_named_units_of_the_same_base_units_are_two_units(answer: str, grade: Grade) -> None:
    assert rule_outcome("Which SI unit is used for equivalent dose?", "sievert", answer).grade is grade


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
    assert rule_grade(FORMULA_ASKED, gold, answer) is grade


def test_a_formula_decision_names_its_kind() -> None:
    assert rule_note(FORMULA_ASKED, "KNO3", "KNO2").startswith("formula:")


def test_formulas_are_read_only_where_a_formula_is_asked() -> None:
    assert rule_grade("Which company makes the valve?", "KNO3", "KNO2") is not Grade.CORRECT


@pytest.mark.parametrize("answer, grade", [
    ("H3C–CH3", Grade.CORRECT),      # bonds written out
    ("H3C–CH2–OH", Grade.INCORRECT),
])
def test_a_structure_written_with_bonds(answer: str, grade: Grade) -> None:
    assert rule_grade("What is the chemical formula of the gas in the tank?", "C2H6", answer) is grade


@pytest.mark.parametrize("answer, grade", [
    ("H3VO4", Grade.CORRECT),
    ("H₃VO₄", Grade.CORRECT),               # subscripts are the same figures
    ("H2VO4", Grade.INCORRECT),              # another code of letters and figures
    ("H3VO4Cl", Grade.INCORRECT),            # the gold inside a longer formula
    ("Veloric acid", Grade.UNGRADED),        # a name for a formula: knowledge
])
def test_a_formula_as_a_code_of_letters_and_figures(answer: str, grade: Grade) -> None:
    assert RuleGrader().grade_sync(VELORIC_ACID, answer).grade is grade
