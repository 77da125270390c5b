"""Person names: surname only, middle names and titles optional, initials, typos, other people."""

from __future__ import annotations

import pytest

from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.rules import RuleGrader

DISCOVERER = Question(id="p1", question="Who discovered the comet?", answer="Caroline Lucretia Herschel")
AUTHOR = Question(id="p2", question="Which author wrote the detective series?", answer="P. D. James")
SPOUSE = Question(id="p3", question="What was the name of Pierre Curie's wife?", answer="Marie Curie")
PAIR = Question(id="p4", question="Who were the two founders of the company?", answer="Ada Lind and Otto Brandt")


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


def test_first_name_only_without_context_is_ungraded() -> None:
    outcome = RuleGrader().grade_sync(DISCOVERER, "Caroline")
    assert outcome.grade is Grade.UNGRADED
    assert (outcome.note or "").startswith("undecided: text:")


NOVELIST = Question(id="p5", question="Who wrote the novel?", answer="Juan Carlos Onetti Borges")
PAINTER = Question(id="p6", question="Who painted the fresco?", answer="Piero Lanza")
ELDER = Question(id="p7", question="Who built the first engine?", answer="Karl Brandt")
SAINT = Question(id="p8", question="Who led the march?", answer="Saint Brigid")
SENATOR = Question(id="p9", question="Who was the senator?", answer="Mary J. K. Olsen")


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
def test_more_person_name_shapes(question: Question, answer: str, grade: Grade) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note
