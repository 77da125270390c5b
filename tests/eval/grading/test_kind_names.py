"""Person names: a surname alone, middle names, initials and titles added or left out, typos, names in
another order or spelling, regnal numbers and generation words, and another person of the same name
or beside it."""

from __future__ import annotations

import pytest

from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.rules import RuleGrader
from tests.eval.grading.conftest import rule_grade, rule_outcome

DISCOVERER = Question(id="p1", question="Who discovered the comet?", answer="Caroline Lucretia Herschel")
AUTHOR = Question(id="p2", question="Which author wrote the detective series?", answer="P. D. James")
SPOUSE = Question(id="p3", question="What was the name of Pierre Curie's wife?", answer="Marie Curie")
PAIR = Question(id="p4", question="Who were the two founders of the company?", answer="Ada Lind and Otto Brandt")
NOVELIST = Question(id="p5", question="Who wrote the novel?", answer="Juan Carlos Onetti Borges")
PAINTER = Question(id="p6", question="Who painted the fresco?", answer="Piero Lanza")
ELDER = Question(id="p7", question="Who built the first engine?", answer="Karl Brandt")
SAINT = Question(id="p8", question="Who led the march?", answer="Saint Brigid")
SENATOR = Question(id="p9", question="Who was the senator?", answer="Mary J. K. Olsen")
COMPOSER = Question(id="o", question="Which Norland composer wrote the Grey Suite?", answer="E. K. Lund")
SINGER = Question(id="n", question="Which singer recorded 'Calder Road'?", answer="Anna Merrow")
WRITER = Question(id="w", question="Who wrote the Dunmere Chronicles?", answer="Mara Olsen Vik")
FOUNDER = Question(id="n", question="Who founded the Tarrow press?", answer="Karl Dessau")
RULER = Question(id="r", question="Who united the Brell valley?", answer="Orm the Elder")


@pytest.mark.parametrize("question, answer, grade", [
    (DISCOVERER, "Herschel", Grade.CORRECT),                       # surname only
    (DISCOVERER, "Caroline Herschel", Grade.CORRECT),              # middle name dropped
    (DISCOVERER, "Dr. Caroline Herschel", Grade.CORRECT),          # title added
    (DISCOVERER, "C. L. Herschel", Grade.CORRECT),                 # initials
    (DISCOVERER, "Caroline Hershel", Grade.CORRECT),               # a small typo
    (DISCOVERER, "caroline herschel", Grade.CORRECT),
    (DISCOVERER, "The comet was found by the astronomer Caroline Herschel.", Grade.CORRECT),
    (DISCOVERER, "William Herschel", Grade.UNGRADED),             # same surname, another person
    (DISCOVERER, "Charles Messier", Grade.UNGRADED),
    (DISCOVERER, "Caroline Herschel or William Herschel", Grade.UNGRADED),
    (DISCOVERER, "William Herschel and Caroline Herschel", Grade.UNGRADED),
    (AUTHOR, "Phyllis Dorothy James", Grade.CORRECT),               # the gold's initials written out
    (AUTHOR, "James", Grade.CORRECT),                              # a surname alone, wherever a person is asked
    (AUTHOR, "Henry James", Grade.UNGRADED),
    (SPOUSE, "Marie", Grade.CORRECT),                              # the surname is in the question
    (SPOUSE, "Marie Sklodowska Curie", Grade.UNGRADED),            # an added middle name: or a relative
    (SPOUSE, "Pierre Curie", Grade.UNGRADED),                     # the question's own person
    (PAIR, "Otto Brandt and Ada Lind", Grade.CORRECT),              # the list in another order
    (PAIR, "Ada Lind", Grade.UNGRADED),                           # misses one
    (PAIR, "Ada Lind, Otto Brandt and Eva Sand", Grade.UNGRADED), # adds one
])
def test_person_names(question: Question, answer: str, grade: Grade) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note


@pytest.mark.parametrize("question, answer, grade", [
    (NOVELIST, "Onetti Borges", Grade.CORRECT),                    # a compound surname without given names
    (PAINTER, "Lanzo", Grade.UNGRADED),                          # a short surname alone: a letter apart is another
    (PAINTER, "Lanzza", Grade.UNGRADED),                           # a doubled letter is a typo
    (PAINTER, "Piero Lanzo", Grade.UNGRADED),                      # with the given name, a typo is forgiven
    (ELDER, "Karl Brandt Jr.", Grade.UNGRADED),                  # another generation
    (SAINT, "Brigid of Kildare", Grade.UNGRADED),                  # a gold of title and name
    (SENATOR, "Mary K. Olsen", Grade.CORRECT),                    # skips the gold's first middle name
    (SENATOR, "Mary J. Olsen", Grade.CORRECT),
    (DISCOVERER, "Not William Herschel; Caroline Herschel.", Grade.CORRECT),
])
def test_compound_surnames_typos_generations_and_middle_initials(question: Question, answer: str,
                                                                 grade: Grade) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note


@pytest.mark.parametrize("question, answer, grade", [
    (COMPOSER, "Erik Karl Lund", Grade.CORRECT),                # the gold's initials written out
    (COMPOSER, "Lund", Grade.CORRECT),                          # a surname alone (a relative's: the risk taken)
    (SINGER, "Merrow Anna", Grade.CORRECT),                     # family name first
    (WRITER, "Mara Olsen Vik Dahl", Grade.CORRECT),             # a further surname after the gold
    (WRITER, "Mara Olsen Vik Jr.", Grade.UNGRADED),             # a generation: another person
    (WRITER, "Mara Olsen Vik Fils", Grade.UNGRADED),
    (Question(id="r", question="Which rider won the Brell Tour?", answer="Ana Ruiz"), "Ana Ruiz of Calder (Team Vell)",
     Grade.CORRECT),                                            # the full name, then where from
    (Question(id="x", question="Who ruled Norland in 1680?", answer="Karl II"), "Karl II of Calder",
     Grade.UNGRADED),                                           # a ruler's number: maybe a namesake elsewhere
])
def test_initials_written_out_family_name_first_and_further_surnames(question: Question, answer: str,
                                                                     grade: Grade) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note


@pytest.mark.parametrize("question, answer, grade, note", [
    # a middle name between the gold's first name and surname: credited, at a small risk that it names
    # a relative who shares both; a detail beside it, or a name added before the gold's, is the judge's
    (FOUNDER, "Karl Anton Dessau", Grade.CORRECT, "middle name added"),
    (FOUNDER, "Karl T. Dessau", Grade.CORRECT, "middle name added"),
    (FOUNDER, "Karl Anton Dessau, his nephew", Grade.UNGRADED, "text"),
    (FOUNDER, "Anton Karl Dessau", Grade.UNGRADED, "text"),
    (FOUNDER, "Karl Dessau's son, Emil Dessau", Grade.UNGRADED, "text"),
    # the gold given as the name the answer later took
    (RULER, "Orm Tarsson, later known as Orm the Elder", Grade.CORRECT, "another name"),
])
def test_a_middle_name_added_and_a_later_name(question: Question, answer: str, grade: Grade, note: str) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note
    assert note in (outcome.note or "")


@pytest.mark.parametrize("question, gold, answer, grade, kind", [
    ("Who wrote the treatise?", "Helmut Krüger", "H. Krüger", Grade.CORRECT, "name"),
    ("Who wrote the treatise?", "Helmut Krüger", "Krüger Helmut", Grade.CORRECT, "name"),
    ("Who wrote the treatise?", "Helmut Krüger", "Dr. Helmut Krüger", Grade.CORRECT, "name"),
])
def test_the_name_kind_decides_an_initial_the_family_name_first_and_a_title(
        question: str, gold: str, answer: str, grade: Grade, kind: str) -> None:
    outcome = rule_outcome(question, gold, answer)
    assert outcome.grade is grade, outcome.note
    assert (outcome.note or "").removeprefix("undecided: ").startswith(f"{kind}:"), outcome.note


@pytest.mark.parametrize("question, gold, answer, grade, kind", [
    ("Who founded the press?", "Tobias Wendt", "Tobias Arne Wendt", Grade.CORRECT, "name"),  # a middle name added
    ("Who founded the press?", "Tobias K. Wendt", "Tobias Karl Wendt", Grade.CORRECT, "name"),
    ("Who founded the press?", "R. Tobias Wendt", "Tobias Wendt", Grade.CORRECT, "name"),
    ("Who founded the press?", "Tobias Wendt", "Tobi Wendt", Grade.CORRECT, "name"),        # a shortened name
    ("Who painted the altar?", "Pieter van Roon", "Van Roon", Grade.CORRECT, "name"),
    ("Who painted the altar?", "Pieter van Roon", "Pieter van Roon Jr.", Grade.UNGRADED, "text"),
    ("Which engraver made the plates?", "Tobias Wendt", "Sir Tobias Wendt", Grade.CORRECT, "name"),
    ("What was the birth name of the singer?", "Ida Mae Lund", "Ida Lund", Grade.CORRECT, "name"),
    ("Who wrote the ballad?", "Nell Ashby", "Margit Ferenc, better known as Nell Ashby", Grade.CORRECT, "text"),
    ("Who chaired the assembly?", "Ravi Menon", "Pandit Menon", Grade.CORRECT, "name"),   # an honorific
    ("Who reigned after the regent?", "Otto III", "Otto the Third", Grade.CORRECT, "text"),
    ("Who reigned after the regent?", "Otto III", "Otto II", Grade.INCORRECT, "text"),  # another monarch
])
def test_name_forms_and_the_kind_that_decides_them(question: str, gold: str, answer: str, grade: Grade,
                                                   kind: str) -> None:
    outcome = rule_outcome(question, gold, answer)
    assert outcome.grade is grade, outcome.note
    assert (outcome.note or "").removeprefix("undecided: ").startswith(kind), outcome.note


@pytest.mark.parametrize("question, gold, answer, grade", [
    ("Who wrote War and Peace?", "Leo Tolstoy", "Leo Nikolayevich Tolstoy", Grade.CORRECT),  # a middle name added
    ("Which driver won the 1976 Formula One title?", "James Hunt", "Hunt", Grade.CORRECT),  # a surname alone
    ("Who led the Union during the American Civil War?", "Abraham Lincoln", "Abe Lincoln", Grade.UNGRADED),
    ("Who wrote 'The Brothers Karamazov'?", "Fyodor Dostoevsky", "Fedor Mikhailovich Dostoevsky", Grade.UNGRADED),
    ("Who led the Lakers' Showtime teams?", "Earvin Johnson", "Earvin “Magic” Johnson", Grade.UNGRADED),  # an added name
    ("Who wrote 'Anna Karenina'?", "Leo Tolstoy", "Tolstoi", Grade.CORRECT),
    ("Who wrote 'Anna Karenina'?", "Leo Tolstoy", "Tolstaya", Grade.UNGRADED),
    ("Who painted 'Water Lilies'?", "Claude Monet", "Manet", Grade.UNGRADED),
    ("What was the birth name of the author called Mark Twain?", "Samuel Langhorne Clemens", "Samuel Clemens",
     Grade.CORRECT),                                                          # a middle name dropped
    ("Who wrote the Alice books?", "Lewis Carroll", "Charles Dodgson, better known as Lewis Carroll",
     Grade.CORRECT),                                                          # the gold as its other name
])
def test_other_forms_and_spellings_of_a_persons_name(question: str, gold: str, answer: str, grade: Grade) -> None:
    assert rule_grade(question, gold, answer) is grade


@pytest.mark.parametrize("question, gold, answer, grade", [
    ("Who wrote War and Peace?", "Leo Tolstoy", "Leo Nikolayevich Tolstoy, his son", Grade.UNGRADED),
    ("Who discovered Neptune's moon Triton?", "William Lassell", "Lassell's assistant", Grade.UNGRADED),
    ("Who discovered Neptune's moon Triton?", "William Lassell", "Not Galle — it was Lassell's telescope.",
     Grade.UNGRADED),
    # a possessive followed by another person's name names that person
    ("Who wrote Hamlet?", "William Shakespeare", "Shakespeare's contemporary Christopher Marlowe", Grade.UNGRADED),
    ("Who wrote Hamlet?", "William Shakespeare", "Shakespeare's Hamlet is his own", Grade.UNGRADED),
])
def test_a_relative_or_a_possessive_beside_the_name_is_the_judges(question: str, gold: str, answer: str,
                                                                  grade: Grade) -> None:
    assert rule_grade(question, gold, answer) is grade


def test_first_name_only_without_context_is_ungraded() -> None:
    outcome = RuleGrader().grade_sync(DISCOVERER, "Caroline")
    assert outcome.grade is Grade.UNGRADED
    assert (outcome.note or "").startswith("undecided: text:")


@pytest.mark.parametrize("question", ["Who composed the oratorio?", "Which composer wrote the oratorio?",
                                      "Which physicist proposed the model?"])
def test_a_surname_alone_names_the_person_wherever_a_person_is_asked(question: str) -> None:
    outcome = rule_outcome(question, "Ottavio Bellandi", "Bellandi")
    assert (outcome.grade, (outcome.note or "")) == (Grade.CORRECT, "name: the surname alone")


def test_a_surname_the_question_already_says_answers_nothing() -> None:
    outcome = rule_outcome("Which member of the Bellandi family composed the oratorio?", "Ottavio Bellandi", "Bellandi")
    assert outcome.grade is Grade.UNGRADED


def test_a_surname_alone_where_the_question_speaks_of_a_relative_is_the_judges() -> None:
    outcome = rule_outcome("Which composer finished the opera his brother Marco began?", "Ottavio Bellandi", "Bellandi")
    assert outcome.grade is Grade.UNGRADED and "relative" in (outcome.note or "")


def test_a_surname_whose_detail_names_another_person_of_it_is_the_judges() -> None:
    outcome = rule_outcome("Who composed the cantata?", "Ottavio Bellandi", "Bellandi — Marco Bellandi, the organist.")
    assert outcome.grade is Grade.UNGRADED and "another person" in (outcome.note or "")
    same = rule_outcome("Who composed the cantata?", "Ottavio Bellandi", "Bellandi — Ottavio Bellandi, the organist.")
    assert same.grade is Grade.CORRECT


@pytest.mark.parametrize("answer", ["Bellandi Rossi", "Marco Bellandi"])
def test_a_name_word_the_question_says_still_belongs_to_the_answers_name(answer: str) -> None:
    """The question's own words are dropped before comparing, but not from a name: "Bellandi Rossi",
    where the question names Rossi, is not the surname alone."""
    outcome = rule_outcome("Who shared the prize with Marco Rossi?", "Ottavio Bellandi", answer)
    assert outcome.grade is not Grade.CORRECT


@pytest.mark.parametrize("answer", ["Someone at the court in Turin", "Somebody from the academy"])
def test_someone_somewhere_is_a_description_not_a_name(answer: str) -> None:
    assert rule_outcome("Who composed the cantata?", "Ottavio Bellandi", answer).grade is not Grade.INCORRECT


@pytest.mark.parametrize("answer, grade", [
    ("Henry Walter Brandt", Grade.CORRECT),                        # a middle name added (a small risk: a relative)
    ("Henry W. Brandt", Grade.CORRECT),                             # an initial only
    ("Henry Brandt", Grade.CORRECT),
    ("Walter Brandt", Grade.UNGRADED),
    ("Walter Henry Brandt", Grade.UNGRADED),                       # a given name added before the gold's
    ("Henry Walter Brandt, his grandson", Grade.UNGRADED),          # a detail beside it may say who it is
])
def test_an_added_given_name(answer: str, grade: Grade) -> None:
    assert rule_grade("Who founded the shipyard?", "Henry Brandt", answer) is grade


@pytest.mark.parametrize("answer, grade", [
    ("Odile M. Varga, at the institute in 1911", Grade.CORRECT),
    ("Odile Marta Varga, her granddaughter", Grade.UNGRADED),  # the detail speaks of a relative
])
def test_a_middle_name_before_a_detail(answer: str, grade: Grade) -> None:
    assert rule_grade("Who founded the laboratory?", "Odile Varga", answer) is grade


def test_a_modifier_letter_and_a_title() -> None:
    assert rule_grade("Who ruled the atoll?", "Teʻiva", "Teiva") is Grade.CORRECT
    assert rule_grade("Who ruled the atoll?", "Teʻiva", "King Teiva") is Grade.CORRECT
    assert rule_grade("Who ruled the atoll?", "Teʻiva", "King Tamatoa") is Grade.INCORRECT


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
    assert rule_grade("Who signed the treaty?", gold, answer) is grade


@pytest.mark.parametrize("gold, answer, grade", [
    ("Hank Tulley Jr.", "Hank Tulley Sr.", Grade.UNGRADED),
    ("Hank Tulley Jr.", "Hank Tulley Jr.", Grade.CORRECT),
    ("Hank Tulley Jr.", "Hank Tulley", Grade.UNGRADED),              # a generation word is often dropped
    ("Cato the Younger", "Cato the Elder", Grade.UNGRADED),
    ("Cato the Younger", "Cato the Younger", Grade.CORRECT),
])
def test_generation_words_must_agree(gold: str, answer: str, grade: Grade) -> None:
    assert rule_grade("Who gave the speech?", gold, answer) is grade
