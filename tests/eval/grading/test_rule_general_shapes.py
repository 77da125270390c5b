"""The rule grader on general shapes of issue 21's last round: several answer-labelled lines, a
self-correction, a bound beside a refusal, refusal wordings without "I", a committed zero, a plural
nickname, and short answers with detail or another form of the gold. Every question and answer
here is made up for these tests."""

from __future__ import annotations

import pytest

from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.rules import RuleGrader

PAINTER = Question(id="p", question="Who painted 'The Grey Harbour'?", answer="Anna Merrow")
TREATY = Question(id="t", question="Which treaty ended the Tarrow war?", answer="Treaty of Dunmere")
SPRINT = Question(id="s", question="What is the record time for the Brell sprint?", answer="7.84 seconds")
MOONS = Question(id="m", question="How many moons does Tarvo have?", answer="3")
FOUNDER = Question(id="f", question="Who founded the Veloria guild?", answer="Otto Brandt")
SIDE = Question(id="c", question="Which country won the 1990 Korball Cup?", answer="Norland")
CITY = Question(id="y", question="Which city hosted the 1970 Brell Games?", answer="Dunmere")
STATE = Question(id="z", question="Which province has Dunmere as its capital?", answer="Calder")
YEAR = Question(id="b", question="In which year did the Brell bridge open?", answer="1874")
KEYS = Question(id="k", question="How many keys does a korball organ have?", answer="64")
CELLS = Question(id="e", question="How many whiskers does a tarvo cat have?", answer="24")
HALF = Question(id="h", question="What is the half-life of tarvium-9, in years?", answer="4,210 years")
LAP = Question(id="l", question="What was the winning time of the Brell marathon?", answer="2:07:15")
AGENCY = Question(id="a", question="Which body, based in Dunmere, oversees korball?", answer="World Korball Union")
COMPOSER = Question(id="o", question="Which Norland composer wrote the Grey Suite?", answer="E. K. Lund")
SINGER = Question(id="n", question="Which singer recorded 'Calder Road'?", answer="Anna Merrow")
WRITER = Question(id="w", question="Who wrote the Dunmere Chronicles?", answer="Mara Olsen Vik")


@pytest.mark.parametrize("question, answer, grade, note", [
    # (a) a later line labelled with any "answer" label stands after a revision; else the two are candidates
    (PAINTER, "Answer: Anna Merrow\nRevised answer: Otto Brandt", Grade.INCORRECT, "text"),
    (TREATY, "Answer: Treaty of Dunmere\nAnswer (final): Treaty of Calder", Grade.INCORRECT, "candidates"),
    (PAINTER, "Answer: Anna Merrow\nFinal answer: Anna Merrow", Grade.CORRECT, "text"),
    # (b) a self-correction after the gold never leaves the row CORRECT: what it puts instead is graded
    (PAINTER, "Anna Merrow, sorry, I meant Otto Brandt", Grade.INCORRECT, "text"),
    (PAINTER, "Anna Merrow; make that Ida Lind.", Grade.INCORRECT, "text"),
    (PAINTER, "Answer: Anna Merrow\nOops, I mean Ida Lind.", Grade.INCORRECT, "text"),
    (PAINTER, "Sorry, I don't know.", Grade.NOT_ATTEMPTED, "refusal"),
    # (c) a bound beside a refusal of the exact figure, its decimal read whole
    (SPRINT, "Under 7.9 seconds, though I don't know the exact figure.", Grade.NOT_ATTEMPTED, "refusal"),
    (SPRINT, "Under 7.8 seconds, though I don't know the exact figure.", Grade.INCORRECT, "7.8 seconds"),
    (SPRINT, "Just under eight seconds, but I can't give the precise time.", Grade.NOT_ATTEMPTED, "refusal"),
    # (d) refusals worded without "I", or as not knowing said of the speaker
    (PAINTER, "Unknown to me.", Grade.NOT_ATTEMPTED, "refusal"),
    (PAINTER, "Not known to me.", Grade.NOT_ATTEMPTED, "refusal"),
    (PAINTER, "Can't say.", Grade.NOT_ATTEMPTED, "refusal"),
    (PAINTER, "Don't know.", Grade.NOT_ATTEMPTED, "refusal"),
    (PAINTER, "Couldn't tell you.", Grade.NOT_ATTEMPTED, "refusal"),
    # (e) "none" and its kin commit to zero
    (MOONS, "none", Grade.INCORRECT, "zero"),
    (MOONS, "Zero.", Grade.INCORRECT, "zero"),
    (Question(id="m0", question="How many moons does Brell have?", answer="0"), "None", Grade.CORRECT, "zero"),
    (FOUNDER, "Nobody", Grade.UNGRADED, "zero"),
    (Question(id="u", question="Who walked on Tarvo?", answer=None, answerable=False), "No one.",
     Grade.NOT_ATTEMPTED, "premise"),
    # (f) a plural "the" phrase sharing nothing with the gold may be a nickname
    (SIDE, "the Grey Wolves", Grade.UNGRADED, "nickname"),
    (SIDE, "Calder", Grade.INCORRECT, "names something else"),
])
def test_wrong_decision_shapes(question: Question, answer: str, grade: Grade, note: str) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note
    assert note in (outcome.note or "")


@pytest.mark.parametrize("question, answer, grade", [
    (CITY, "Dunmere, Norland", Grade.CORRECT),                 # a city with its country after a comma
    (CITY, "Calder, Norland", Grade.INCORRECT),
    (STATE, "Calder, Norland", Grade.UNGRADED),                 # not a city asked for: the judge's
    (YEAR, "1874 (12 May)", Grade.CORRECT),                     # a year, its day and month in brackets
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
    (PAINTER, "Probably Anna Merrow, though I'd double-check.", Grade.CORRECT),  # a hedge, not a contrast
    (AGENCY, "WKU", Grade.CORRECT),                             # the initials of the gold's words
    (AGENCY, "WKF", Grade.UNGRADED),                            # another abbreviation: the judge's
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
    (Question(id="g", question="Which tarvo grade marks the top class?", answer="A positive"), "A+",
     Grade.CORRECT),                                            # a sign for its word
])
def test_short_answer_shapes(question: Question, answer: str, grade: Grade) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note
