"""The rule grader on general shapes of short answers: an answer phrase later in a sentence that
disagrees, a span between two years for a duration, an apology after a refusal, vague quantities and
other forms of a figure, a title or date with detail. Every question and answer here is made up."""

from __future__ import annotations

import pytest

from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.rules import RuleGrader

PAINTER = Question(id="p", question="Who painted 'The Grey Harbour'?", answer="Anna Merrow")
REIGN = Question(id="r", question="How long did the Tarrow dynasty rule?", answer="84 years")
MOONS = Question(id="m", question="How many moons does Tarvo have?", answer="12")
BANK = Question(id="b", question="What is the Norland mint called?", answer="Calder Mint")
PORT = Question(id="t", question="In which city is the Tarrow lighthouse?", answer="Dunmere")
COLD = Question(id="c", question="At what temperature does tarvium melt?", answer="37.78 °C")
DASH = Question(id="h", question="What is the Brell sprint record?", answer="8.61 seconds")
PULL = Question(id="u", question="What is the surface gravity of Tarvo?", answer="3.72 m/s²")
OPENED = Question(id="n", question="When did the Dunmere bridge open?", answer="12 March 1931")
FINAL = Question(id="f", question="What was the score of the 1990 Korball Cup final?", answer="3–1 (Norland beat Calder)")
SUITE = Question(id="q", question="Which work did Lund write in 1901?", answer="Suite No. 2")
VISITS = Question(id="v", question="How many times did the comet pass Tarvo?", answer="6")
SPEED = Question(id="s", question="How fast does a korball fly?", answer="420 m/s")
AGE = Question(id="g", question="How old is the Brell glacier?", answer="7,400 years")
DISTANCE = Question(id="d", question="How long is the Dunmere canal?", answer="12.375 km")


@pytest.mark.parametrize("question, answer, grade, note", [
    # (a) a later "answer is:" inside a sentence that disagrees with the answer line: the judge's
    (PAINTER, "Answer: Anna Merrow\nOn reflection the final answer is: Otto Brandt", Grade.INCORRECT, "text"),
    (PAINTER, "Answer: Anna Merrow\nI checked once more: the answer is: Ida Lind", Grade.INCORRECT, "text"),
    (PAINTER, "Answer: Anna Merrow\nThe answer is: Anna Merrow", Grade.CORRECT, "text"),
    # (b) two years for a duration in years: their span is the duration
    (REIGN, "1210 to 1294", Grade.CORRECT, "a span of 84 years"),
    (REIGN, "from 1210 to 1250", Grade.INCORRECT, "a span of 40 years"),
    (REIGN, "1210-1295", Grade.UNGRADED, "a span of 85 years"),
    # (2) an apology after a refusal is no self-correction
    (MOONS, "Not sure, sorry.", Grade.NOT_ATTEMPTED, "refusal"),
    (MOONS, "12, sorry, I meant 14", Grade.INCORRECT, "number"),
    # (1) a refusal beside what the speaker knows besides, or beside a description that names nothing
    (PAINTER, "I can't say for certain; I only know it was shown in Dunmere.", Grade.NOT_ATTEMPTED, "refusal"),
    (PAINTER, "Not sure who painted it, though I know the gallery opened in Calder.", Grade.NOT_ATTEMPTED, "refusal"),
    (PAINTER, "I'm not sure; I only remember that the frame is oak.", Grade.NOT_ATTEMPTED, "refusal"),
    (BANK, "I don't know its name, though I believe it is the oldest mint still working.", Grade.NOT_ATTEMPTED,
     "refusal"),
    (PORT, "I don't know, but I believe it is somewhere on the coast.", Grade.NOT_ATTEMPTED, "refusal"),
    (PORT, "I can't say for certain; I only know it is in Calder.", Grade.UNGRADED, "refusal beside"),
    (BANK, "I don't know its name, though I believe it is Calder Mint.", Grade.UNGRADED, ""),
    (PAINTER, "I'm not sure; I think it was Ida Lind.", Grade.INCORRECT, "names something else"),
    # (3) vague quantities with no figure: coarser when they hold the gold, wrong when far from it
    (VISITS, "Several times", Grade.NOT_ATTEMPTED, "vague quantity"),
    (VISITS, "A few hundred times", Grade.INCORRECT, "vague quantity"),
    (SPEED, "A few hundred metres per second", Grade.NOT_ATTEMPTED, "vague quantity"),
    (SPEED, "Several thousand metres per second", Grade.INCORRECT, "vague quantity"),
    (Question(id="o", question="How old is the Calder oak?", answer="1,500 years"), "Several hundred years",
     Grade.UNGRADED, "vague quantity"),
    (AGE, "Several thousand years", Grade.NOT_ATTEMPTED, "vague quantity"),
    (AGE, "Several million years", Grade.INCORRECT, "vague quantity"),
    # (4) a decimal figure in words
    (DISTANCE, "Twelve point three seven five kilometres", Grade.CORRECT, "number"),
    (DISTANCE, "Twelve point six kilometres", Grade.INCORRECT, "number"),
    # (5) a committed figure with details after a comma, or restated after a conversion
    (DASH, "8.61 s, Dunmere, 4 June 2011", Grade.CORRECT, "number"),
    (DASH, "8.61 s, 8.70 in the heats", Grade.UNGRADED, "another figure"),
    (COLD, "100 °F, which is 37.78 °C", Grade.CORRECT, "number"),
    (COLD, "100 °F, which is 38.5 °C", Grade.UNGRADED, "another figure"),
    # (4) a unit written with a negative power
    (PULL, "3.72 m s^-2", Grade.CORRECT, "number"),
    # (7) a season or part of the gold's year: coarser; another year: wrong
    (OPENED, "Spring 1931", Grade.NOT_ATTEMPTED, "coarser"),
    (OPENED, "Early 1932", Grade.INCORRECT, "date"),
    # (8) a score in words with the winner the gold names in brackets
    (FINAL, "Norland beat Calder three goals to one", Grade.CORRECT, "pair"),
    (FINAL, "Calder beat Norland three goals to one", Grade.INCORRECT, "pair"),
    # (6) a work's key and opus after its title are detail
    (SUITE, "Suite No. 2 in D minor, Op. 14", Grade.CORRECT, "text"),
    (SUITE, "Suite No. 4 in B-flat major, Op. 30", Grade.INCORRECT, ""),
])
def test_short_shapes(question: Question, answer: str, grade: Grade, note: str) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note
    assert note in (outcome.note or ""), outcome.note


FROST = Question(id="k", question="At what temperature does tarvium freeze?", answer="184.61 K")
CROWD = Question(id="w", question="How many people watched the Korball final?", answer="48k")


@pytest.mark.parametrize("question, answer, grade", [
    # a capital K after a space is kelvin; a k written onto the figure is a thousand
    (FROST, "184.61 kelvin", Grade.CORRECT),
    (FROST, "about 184.61 K", Grade.CORRECT),
    (FROST, "184,610 K", Grade.INCORRECT),
    (CROWD, "48,000", Grade.CORRECT),
    (CROWD, "48 thousand", Grade.CORRECT),
])
def test_kelvin_is_a_unit_and_an_attached_k_a_thousand(question: Question, answer: str, grade: Grade) -> None:
    assert RuleGrader().grade_sync(question, answer).grade is grade
