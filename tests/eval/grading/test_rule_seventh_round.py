"""The shapes the rule grader's last rounds decide, and the ones they leave to the judge.

The `code` match kind (ISO 4217 currencies from pycountry, element symbols from periodictable), a
surname alone wherever a person is asked, spans of years read the short way, British spellings, the
gold followed by where it is, refusals that name what they decline or tell a past event, and a
country named where a city is asked. Examples are made up for these tests.
"""

from __future__ import annotations

import pytest

from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.base import GradeOutcome
from factprobe.eval.grading.match_text import words
from factprobe.eval.grading.rules import RuleGrader


def _outcome(question: str, gold: str | list[str], answer: str) -> GradeOutcome:
    golds = [gold] if isinstance(gold, str) else gold
    asked = Question(id="r", question=question, answer=golds[0], aliases=golds[1:])
    return RuleGrader().grade_sync(asked, answer)


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
    outcome = _outcome(question, gold, answer)
    assert outcome.grade is grade, (outcome.note or "")
    if grade is not Grade.UNGRADED:
        assert (outcome.note or "").startswith("code:") or (outcome.note or "").startswith("text:")


def test_a_currency_word_several_currencies_end_in_is_left_to_the_judge() -> None:
    """"Krone" ends the Danish and the Norwegian names: neither a match nor a conflict by the code kind."""
    assert _outcome("Which currency does Denmark issue?", "Danish krone", "SEK").note.startswith("code:")
    assert not _outcome("Which currency does Norway issue?", "Norwegian krone", "the krone").note.startswith(
        "code: another")


def test_a_symbol_is_read_as_an_element_only_where_an_element_is_asked() -> None:
    """A planet's name is no element there: its chemical symbol is not the planet."""
    outcome = _outcome("Which planet is closest to the Sun?", "Mercury", "Hg")
    assert outcome.grade is not Grade.CORRECT


@pytest.mark.parametrize("question", ["Who composed the oratorio?", "Which composer wrote the oratorio?",
                                      "Which physicist proposed the model?"])
def test_a_surname_alone_names_the_person_wherever_a_person_is_asked(question: str) -> None:
    outcome = _outcome(question, "Ottavio Bellandi", "Bellandi")
    assert (outcome.grade, (outcome.note or "")) == (Grade.CORRECT, "name: the surname alone")


def test_a_surname_the_question_already_says_answers_nothing() -> None:
    outcome = _outcome("Which member of the Bellandi family composed the oratorio?", "Ottavio Bellandi", "Bellandi")
    assert outcome.grade is Grade.UNGRADED


@pytest.mark.parametrize("answer, grade", [
    ("the 1987–1988 season", Grade.CORRECT), ("1987-1988", Grade.CORRECT), ("1987/88", Grade.CORRECT),
    ("the 1988–1989 season", Grade.UNGRADED)])  # another season: not decided by the rules
def test_a_season_written_with_both_years_in_full(answer: str, grade: Grade) -> None:
    assert _outcome("In which season did the club win its first title?", "1987–88", answer).grade is grade


def test_a_span_of_years_is_not_read_as_a_season_where_a_year_is_asked() -> None:
    """Only a gold that is itself a span makes a span of years one answer; else it is two dates."""
    assert _outcome("In which year did the siege end?", "1687", "1683–1687").grade is not Grade.CORRECT


def test_british_and_american_spellings_are_one_word() -> None:
    assert words("organisation centre colour catalogue") == words("organization center color catalog")
    assert words("tour four rise") == ["tour", "4", "rise"]  # too short for an ending to be a spelling
    outcome = _outcome("Which body runs the games?", "International Sports Organization",
                       "International Sports Organisation")
    assert outcome.grade is Grade.CORRECT


def test_the_gold_then_where_it_is() -> None:
    outcome = _outcome("Which body awards the medal?", "Royal Society of Cartographers",
                       "The Royal Society of Cartographers in Edinburgh")
    assert outcome.grade is Grade.CORRECT and "where it is" in (outcome.note or "")
    # where a city is asked, a place after "in" may be a namesake elsewhere: not read as detail
    city = _outcome("Which city hosts the fair?", "Valmont", "Valmont in Quebec")
    assert "where it is" not in (city.note or "")


def test_a_bracket_inside_a_name_is_not_detail() -> None:
    """A name with a bracket glued into it ("X(II) chloride") names a compound, not the element X."""
    outcome = _outcome("Which metal is used in the alloy?", "Iron", "Iron(III) chloride")
    assert outcome.grade is not Grade.CORRECT


@pytest.mark.parametrize("answer", ["I'm not sure of the town's name.", "I'm not sure of Vennland's capital."])
def test_a_refusal_that_names_the_asked_thing(answer: str) -> None:
    assert _outcome("Which town is the seat of Vennland?", "Orsk", answer).grade is Grade.NOT_ATTEMPTED


@pytest.mark.parametrize("answer, grade", [
    ("I'm unsure; it was first performed in Prague in the 1790s.", Grade.NOT_ATTEMPTED),
    ("They were printed in the 1780s, but I don't remember by whom.", Grade.NOT_ATTEMPTED),
    ("I'm unsure; it was first performed by Anton Dreyer.", Grade.UNGRADED),  # a name: maybe a guess
])
def test_a_refusal_beside_a_past_event(answer: str, grade: Grade) -> None:
    assert _outcome("Who composed the cantata?", "Ottavio Bellandi", answer).grade is grade


def test_a_past_event_is_a_guess_where_a_place_is_asked() -> None:
    outcome = _outcome("In which city was the cantata first performed?", "Prague",
                       "I'm unsure; it was first performed in Vienna.")
    assert outcome.grade is not Grade.NOT_ATTEMPTED


@pytest.mark.parametrize("answer", ["Portugal", "northern Portugal"])
def test_a_country_where_a_city_is_asked_may_hold_it(answer: str) -> None:
    outcome = _outcome("In which city is the observatory?", "Coimbra", answer)
    assert outcome.grade is Grade.UNGRADED and "country" in (outcome.note or "")


def test_another_city_where_a_city_is_asked_is_wrong() -> None:
    assert _outcome("In which city is the observatory?", "Coimbra", "Braga").grade is Grade.INCORRECT


@pytest.mark.parametrize("question, gold, answer, grade", [
    ("Which SI unit measures magnetic flux?", "weber", "Wb", Grade.CORRECT),
    ("Which SI unit measures magnetic flux?", "weber", "the tesla", Grade.INCORRECT),
    ("Which SI unit measures magnetic flux?", "Wb", "Weber", Grade.CORRECT),
    ("Which unit of pressure is named after Pascal?", "pascal", "Pa", Grade.CORRECT),
])
def test_units_named_by_their_symbols(question: str, gold: str, answer: str, grade: Grade) -> None:
    outcome = _outcome(question, gold, answer)
    assert outcome.grade is grade and (outcome.note or "").startswith(("code:", "text:"))


@pytest.mark.parametrize("answer, grade", [("AD 1204", Grade.CORRECT), ("1204 CE", Grade.CORRECT),
                                           ("AD 1205", Grade.INCORRECT), ("1204 BC", Grade.INCORRECT)])
def test_a_year_with_its_era(answer: str, grade: Grade) -> None:
    assert _outcome("In what year was the city sacked?", "1204", answer).grade is grade


@pytest.mark.parametrize("answer, grade", [("About −21 °C", Grade.NOT_ATTEMPTED), ("about minus 21 °C", Grade.NOT_ATTEMPTED),
                                           ("−20.6 °C", Grade.CORRECT), ("−22.6 °C", Grade.INCORRECT)])
def test_a_rough_negative_figure_is_coarser_not_wrong(answer: str, grade: Grade) -> None:
    assert _outcome("At what temperature does the brine freeze?", "−20.6 °C", answer).grade is grade


@pytest.mark.parametrize("gold, answer", [("Lake Orrin", "Orrin"), ("Orrin", "Lake Orrin"),
                                          ("Velsk Strait", "the Velsk"), ("Mount Tarvo", "Tarvo, in the north")])
def test_a_feature_named_with_or_without_its_kind(gold: str, answer: str) -> None:
    assert _outcome("Which feature is the largest of the region?", gold, answer).grade is Grade.CORRECT


def test_a_name_then_another_after_comma_or_is_the_judges() -> None:
    """A work's alternative title reads like a second candidate: neither is decided by the rules."""
    outcome = _outcome("Which play has the character?", "The Winter Guest", "The Winter Guest, or A Cold Welcome")
    assert outcome.grade is Grade.UNGRADED
    assert _outcome("Which play has the character?", "The Winter Guest", "The Winter Guest or Hamlet").grade \
        is Grade.INCORRECT


@pytest.mark.parametrize("answer", ["kg·m/s²", "kg m/s^2"])
def test_a_unit_written_in_base_units_is_the_unit(answer: str) -> None:
    assert _outcome("Which SI unit measures force?", "newton", answer).grade is Grade.CORRECT


def test_a_multiple_of_the_unit_is_another_unit() -> None:
    assert _outcome("Which SI unit measures force?", "newton", "kN").grade is Grade.INCORRECT


@pytest.mark.parametrize("answer", ["It was first sung in Leipzig in 1734.", "I'm not sure; it was first sung in 1734."])
def test_a_past_event_instead_of_a_name_answers_nothing(answer: str) -> None:
    assert _outcome("Who wrote the cantata?", "Ottavio Bellandi", answer).grade is Grade.NOT_ATTEMPTED


@pytest.mark.parametrize("question, gold, answer, grade", [
    ("Who wrote the cantata?", "Ottavio Bellandi", "It was written by Anton Dreyer.", Grade.INCORRECT),
    ("Where was the cantata first sung?", "Leipzig", "It was first sung in Dresden.", Grade.INCORRECT),
    ("What did the decree do?", "abolished the guilds", "It abolished the guilds.", Grade.CORRECT),
])
def test_an_event_that_names_or_is_the_answer_is_compared(question: str, gold: str, answer: str,
                                                          grade: Grade) -> None:
    assert _outcome(question, gold, answer).grade is grade


@pytest.mark.parametrize("answer", ["Final answer: Orsk — a placeholder until the real name is known.",
                                    "Orsk (to be confirmed)", "Orsk, TBD"])
def test_an_answer_its_reply_calls_provisional_is_the_judges(answer: str) -> None:
    outcome = _outcome("Which town is the seat of Vennland?", "Orsk", answer)
    assert outcome.grade is Grade.UNGRADED and "provisional" in (outcome.note or "")


def test_a_surname_whose_detail_names_another_person_of_it_is_the_judges() -> None:
    outcome = _outcome("Who composed the cantata?", "Ottavio Bellandi", "Bellandi — Marco Bellandi, the organist.")
    assert outcome.grade is Grade.UNGRADED and "another person" in (outcome.note or "")
    same = _outcome("Who composed the cantata?", "Ottavio Bellandi", "Bellandi — Ottavio Bellandi, the organist.")
    assert same.grade is Grade.CORRECT


@pytest.mark.parametrize("answer", ["Someone at the court in Turin", "Somebody from the academy"])
def test_someone_somewhere_is_a_description_not_a_name(answer: str) -> None:
    assert _outcome("Who composed the cantata?", "Ottavio Bellandi", answer).grade is not Grade.INCORRECT


@pytest.mark.parametrize("answer, grade", [("Around 1880", Grade.NOT_ATTEMPTED), ("about 1880", Grade.NOT_ATTEMPTED),
                                           ("around 1876", Grade.UNGRADED), ("Around 1890", Grade.INCORRECT),
                                           ("1880", Grade.INCORRECT)])
def test_a_rough_round_year(answer: str, grade: Grade) -> None:
    assert _outcome("In which year did the line open?", "1878", answer).grade is grade


def test_a_detail_saying_which_one_of_that_name_is_the_judges() -> None:
    outcome = _outcome("Which city is the seat of the province?", "Valmont", "Valmont — the one in Quebec")
    assert outcome.grade is Grade.UNGRADED and "which of several" in (outcome.note or "")


@pytest.mark.parametrize("answer, grade", [
    ("He kept his own name", Grade.UNGRADED),                     # a claim about the person: not an event
    ("It was done in the 1730s at the court", Grade.NOT_ATTEMPTED),
])
def test_only_a_passive_event_of_the_asked_thing_answers_nothing(answer: str, grade: Grade) -> None:
    assert _outcome("Under which pen name did the author publish?", "Ivo Marten", answer).grade is grade


@pytest.mark.parametrize("answer", ["Danish krone", "DKK"])
def test_a_former_currency_is_not_read_as_the_current_one_of_its_word(answer: str) -> None:
    """A former currency (a made-up one here, in no ISO 4217 list) resolves to nothing, so a
    current currency ending in the same word is neither matched nor contradicted by the code kind."""
    outcome = _outcome("Which currency did the islands use?", "Vennish kroner", answer)
    assert outcome.grade is not Grade.CORRECT


@pytest.mark.parametrize("answer, grade", [("Gy", Grade.INCORRECT), ("Sv", Grade.CORRECT)])
def test_two_named_units_of_the_same_base_units_are_two_units(answer: str, grade: Grade) -> None:
    assert _outcome("Which SI unit is used for equivalent dose?", "sievert", answer).grade is grade


def test_its_own_thing_is_a_description() -> None:
    outcome = _outcome("Which currency did the islands use?", "Vennish kroner", "its own local currency")
    assert outcome.grade is not Grade.INCORRECT


@pytest.mark.parametrize("answer", ["Bellandi Rossi", "Marco Bellandi"])
def test_a_name_word_the_question_says_still_belongs_to_the_answers_name(answer: str) -> None:
    """The question's own words are dropped before comparing, but not from a name: "Bellandi Rossi",
    where the question names Rossi, is not the surname alone."""
    outcome = _outcome("Who shared the prize with Marco Rossi?", "Ottavio Bellandi", answer)
    assert outcome.grade is not Grade.CORRECT


def test_a_surname_alone_where_the_question_speaks_of_a_relative_is_the_judges() -> None:
    outcome = _outcome("Which composer finished the opera his brother Marco began?", "Ottavio Bellandi", "Bellandi")
    assert outcome.grade is Grade.UNGRADED and "relative" in (outcome.note or "")


def test_a_currency_whose_detail_names_another_of_its_word_is_the_judges() -> None:
    outcome = _outcome("What is the currency of the republic?", "Hungarian forint", "forint (the Vennish Forint)")
    assert outcome.grade is Grade.UNGRADED
