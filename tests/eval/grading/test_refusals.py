"""Refusals: the phrases that decline to answer, a refusal beside context that offers no candidate (and
the candidates that keep it for the judge), a past event told instead of the asked thing, and
unanswerable questions, where a refusal or a premise correction is not attempted and a claim is
incorrect."""

from __future__ import annotations

import pytest

from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.rules import RuleGrader
from tests.eval.grading.conftest import rule_grade, rule_outcome

CAPITAL = Question(id="c1", question="Which city is the capital of Portugal?", answer="Lisbon",
                   aliases=["Lisboa"])
NO_ANSWER = Question(id="u1", question="What did Napoleon name his first goldfish?", answer=None,
                     answerable=False)
RIVER = Question(id="v1", question="Which river flows through Vienna?", answer="Danube")
NO_MOON = Question(id="u2", question="Who was the first person to swim across Lake Ontario on the Moon?",
                   answer=None, answerable=False)
PAINTER = Question(id="p", question="Who painted 'The Grey Harbour'?", answer="Anna Merrow")
SPRINT = Question(id="s", question="What is the record time for the Brell sprint?", answer="7.84 seconds")
BANK = Question(id="b", question="What is the Norland mint called?", answer="Calder Mint")
PORT = Question(id="t", question="In which city is the Tarrow lighthouse?", answer="Dunmere")
TOWN = Question(id="t", question="What is the capital of Norland?", answer="Dunmere")
YEAR = Question(id="y", question="In what year did the Brell bridge open?", answer="1874")
LENGTH = Question(id="l", question="How long is a match of korball?", answer="60 minutes")


@pytest.mark.parametrize("question, answer, grade", [
    # refusals in several phrasings
    (CAPITAL, "I don't know.", Grade.NOT_ATTEMPTED),
    (CAPITAL, "I can't recall that", Grade.NOT_ATTEMPTED),
    (CAPITAL, "I don't have that information", Grade.NOT_ATTEMPTED),
    (CAPITAL, "I'm unable to answer that", Grade.NOT_ATTEMPTED),
    (CAPITAL, "Sorry, I can't help with it", Grade.NOT_ATTEMPTED),
    (CAPITAL, "I would need to look that up.", Grade.NOT_ATTEMPTED),
    (CAPITAL, "", Grade.NOT_ATTEMPTED),
    (CAPITAL, None, Grade.NOT_ATTEMPTED),
    # unanswerable questions: a refusal is not attempted, any claim is incorrect
    (NO_ANSWER, "I have no idea", Grade.NOT_ATTEMPTED),
    (NO_ANSWER, "There is no record of such a goldfish.", Grade.NOT_ATTEMPTED),
    (NO_ANSWER, "Bubbles", Grade.INCORRECT),
    (NO_ANSWER, "I'm not certain, but maybe Bubbles", Grade.INCORRECT),
])
def test_refusals_in_several_phrasings_and_claims_on_an_unanswerable_question(question: Question,
                                                                              answer: str | None,
                                                                              grade: Grade) -> None:
    assert RuleGrader().grade_sync(question, answer).grade is grade


@pytest.mark.parametrize("question, answer, grade", [
    # refusals in more phrasings
    (RIVER, "I'm not able to say.", Grade.NOT_ATTEMPTED),
    (RIVER, "That is outside what I know.", Grade.NOT_ATTEMPTED),
    (RIVER, "I'd prefer not to guess.", Grade.NOT_ATTEMPTED),
    (RIVER, "You might want to consult an atlas.", Grade.NOT_ATTEMPTED),
    (RIVER, "No clue.", Grade.NOT_ATTEMPTED),
    # unanswerable questions: a premise correction is not attempted, a claim is incorrect
    (NO_MOON, "Nobody has done that; the Moon has no lakes.", Grade.NOT_ATTEMPTED),
    (NO_MOON, "It has not happened.", Grade.NOT_ATTEMPTED),
    (NO_MOON, "The question rests on a false premise.", Grade.UNGRADED),
    (NO_MOON, "Gertrude Ederle, in 1927.", Grade.INCORRECT),
])
def test_refusals_and_premise_corrections(question: Question, answer: str, grade: Grade) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note


@pytest.mark.parametrize("question, answer, grade, note", [
    # a bound beside a refusal of the exact figure, its decimal read whole
    (SPRINT, "Under 7.9 seconds, though I don't know the exact figure.", Grade.NOT_ATTEMPTED, "refusal"),
    (SPRINT, "Under 7.8 seconds, though I don't know the exact figure.", Grade.INCORRECT, "7.8 seconds"),
    (SPRINT, "Just under eight seconds, but I can't give the precise time.", Grade.NOT_ATTEMPTED, "refusal"),
    # refusals worded without "I", or as not knowing said of the speaker
    (PAINTER, "Unknown to me.", Grade.NOT_ATTEMPTED, "refusal"),
    (PAINTER, "Not known to me.", Grade.NOT_ATTEMPTED, "refusal"),
    (PAINTER, "Can't say.", Grade.NOT_ATTEMPTED, "refusal"),
    (PAINTER, "Don't know.", Grade.NOT_ATTEMPTED, "refusal"),
    (PAINTER, "Couldn't tell you.", Grade.NOT_ATTEMPTED, "refusal"),
])
def test_a_bound_beside_a_refusal_and_refusals_worded_without_i(question: Question, answer: str, grade: Grade,
                                                                note: str) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note
    assert note in (outcome.note or "")


@pytest.mark.parametrize("question, answer, grade, note", [
    # a refusal beside what the speaker knows besides, or beside a description that names nothing
    (PAINTER, "I can't say for certain; I only know it was shown in Dunmere.", Grade.NOT_ATTEMPTED, "refusal"),
    (PAINTER, "Not sure who painted it, though I know the gallery opened in Calder.", Grade.NOT_ATTEMPTED, "refusal"),
    (PAINTER, "I'm not sure; I only remember that the frame is oak.", Grade.NOT_ATTEMPTED, "refusal"),
    (BANK, "I don't know its name, though I believe it is the oldest mint still working.", Grade.NOT_ATTEMPTED,
     "refusal"),
    (PORT, "I don't know, but I believe it is somewhere on the coast.", Grade.NOT_ATTEMPTED, "refusal"),
    (PORT, "I can't say for certain; I only know it is in Calder.", Grade.UNGRADED, "refusal beside"),
    (BANK, "I don't know its name, though I believe it is Calder Mint.", Grade.UNGRADED, ""),
    (PAINTER, "I'm not sure; I think it was Ida Lind.", Grade.INCORRECT, "names something else"),
    # two named candidates beside a refusal are the policy's, so the judge's; a vague other is a refusal
    (TOWN, "I would need to check whether it is Dunmere or Port Avel.", Grade.UNGRADED, "several candidates"),
    (TOWN, "I don't know whether it is the largest town or not.", Grade.NOT_ATTEMPTED, "refusal"),
    (TOWN, "Do you mean Norland the province or Norland the island?", Grade.NOT_ATTEMPTED, "refusal"),
])
def test_a_refusal_beside_what_the_speaker_knows_or_beside_candidates(question: Question, answer: str,
                                                                      grade: Grade, note: str) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note
    assert note in (outcome.note or ""), outcome.note


@pytest.mark.parametrize("question, answer, grade", [
    # the refusal names what it declines and nothing beside it offers a candidate
    (PAINTER, "It hangs in the Vell Gallery in Ostberg, but I can't recall the painter.", Grade.NOT_ATTEMPTED),
    (PAINTER, "It is a seascape from the 1890s; I don't remember who painted it.", Grade.NOT_ATTEMPTED),
    (YEAR, "It was built by the Tarrow company after a flood, but I can't recall the year.", Grade.NOT_ATTEMPTED),
    (LENGTH, "It is played in three periods, but I'm not sure how long each one is.", Grade.NOT_ATTEMPTED),
    # a candidate beside the refusal keeps it for the judge
    (PAINTER, "It might be by Tomas Vey, but I can't recall the painter.", Grade.INCORRECT),   # hedged
    (PAINTER, "It's Tomas Vey's, I think; I don't remember the painter for sure.", Grade.INCORRECT),
    (PAINTER, "Anna Merrow exhibited it first, but I can't recall the painter.", Grade.UNGRADED),  # the gold
    (PAINTER, "The usual answer is Tomas Vey, but I can't recall the painter.", Grade.UNGRADED),  # a name stated
    (PAINTER, "I can't recall who painted it. Tomas Vey.", Grade.UNGRADED),                     # a bare name
    (YEAR, "It opened some time in 1874 or 1875, but I can't recall the year.", Grade.UNGRADED),
    (YEAR, "Work on it began in the 1860s after a long dispute, but I can't recall the year.", Grade.UNGRADED),
    (LENGTH, "Each half lasts 30 minutes, but I'm not sure of the total.", Grade.UNGRADED),  # the gold's unit
    (PAINTER, "It was shown in Ostberg, but I can't say more.", Grade.NOT_ATTEMPTED),     # only where it was shown
    (PAINTER, "I can't say much about Tomas Vey; it hangs in Ostberg.", Grade.UNGRADED),  # names a candidate
])
def test_refusal_beside_context(question: Question, answer: str, grade: Grade) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note


@pytest.mark.parametrize("question, gold, answer, grade, kind", [
    ("Which town lies at the canal's end?", None, "I can't say, I don't know.", Grade.NOT_ATTEMPTED, "refusal"),
    ("Who was the canal's fourth engineer?", None, "There were only three engineers.", Grade.NOT_ATTEMPTED,
     "unanswerable"),
    ("Who was the canal's fourth engineer?", None, "Tom Baker", Grade.INCORRECT, "unanswerable"),
])
def test_refusals_and_unanswerable_questions_are_decided_by_their_own_kind(
        question: str, gold: str | None, answer: str, grade: Grade, kind: str) -> None:
    outcome = rule_outcome(question, gold, answer)
    assert outcome.grade is grade, outcome.note
    assert (outcome.note or "").removeprefix("undecided: ").startswith(f"{kind}:"), outcome.note


@pytest.mark.parametrize("question, gold, answer, grade", [
    ("In what year did the mill close?", "1874", "Some time in the 1870s, but I can't give the exact year.",
     Grade.NOT_ATTEMPTED),                                                    # a period that holds the gold
    ("In what year did the mill close?", "1874", "In the 1860s, but I don't know the exact year.",
     Grade.INCORRECT),                                                        # graded by the guess
    ("How many looms did the mill run?", "212", "About 400, though I can't be certain.", Grade.INCORRECT),
    ("In what year did the mill close?", "1874", "In the mid 1870s, but I don't know the exact year.",
     Grade.NOT_ATTEMPTED),
    ("In what year did the mill close?", "1874", "Late in the 1870s, I'd say, but I can't be sure.",
     Grade.UNGRADED),                                                         # "late" read nowhere: a guess
    ("In what year did the mill close?", "1874", "It was 1874, I think, though I can't be certain of it.",
     Grade.CORRECT),                                                          # one hedged guess: graded by it
    ("How many looms did the mill run?", "212", "Roughly 200, though I couldn't give the precise count.",
     Grade.NOT_ATTEMPTED),
    ("Who owned the mill?", "Edith Varga", "Ownership of the mill changed hands many times, so I can't say for sure.",
     Grade.NOT_ATTEMPTED),
    ("Who owned the mill?", "Edith Varga", "Perhaps a local family, but I can't say for sure.",
     Grade.UNGRADED),                                                         # a short phrase may be a guess
    ("Who owned the mill?", "Edith Varga", "It was in Leeds, but I can't say who owned it.", Grade.NOT_ATTEMPTED),
    ("Who owned the mill?", "Edith Varga", "Do you mean the old mill, or the new one?", Grade.NOT_ATTEMPTED),
    ("Who owned the mill?", "Edith Varga", "I really couldn't say.", Grade.NOT_ATTEMPTED),
    ("Who owned the mill?", "Edith Varga", "That is not something I can verify.", Grade.NOT_ATTEMPTED),
    ("Who owned the mill?", "Edith Varga", "Edith Varga, I think, though you may want to double-check.",
     Grade.CORRECT),
    ("Who ran the 40th mill of the town?", None, "There hasn't been a 40th mill.", Grade.NOT_ATTEMPTED),
])
def test_a_period_a_rough_figure_or_a_guess_beside_a_refusal(question: str, gold: str | None, answer: str,
                                                             grade: Grade) -> None:
    outcome = rule_outcome(question, gold, answer)
    assert outcome.grade is grade, outcome.note


@pytest.mark.parametrize("question, gold, answer, grade", [
    ("Who built the first telescope?", "Hans Lipperhey", "It's a Dutch invention, but I can't name the maker.",
     Grade.NOT_ATTEMPTED),                         # declines the asked thing; the rest offers no candidate
    ("Who built the first telescope?", "Hans Lipperhey", "I can't be certain. It's the Galileo design, I think.",
     Grade.INCORRECT),
    ("Who built the first telescope?", "Hans Lipperhey", "I can't be certain. It's Galileo, I think.",
     Grade.INCORRECT),
    ("Who built the first telescope?", "Hans Lipperhey", "I'm not sure, but it was the Dutch maker named Lipperhey.",
     Grade.CORRECT),
    ("How far is Mars from the Sun on average?", "228 million km",
     "A few hundred million km; I can't recall the exact figure.", Grade.NOT_ATTEMPTED),  # a bound beside a refusal
])
def test_a_description_a_guess_or_a_bound_beside_a_refusal(question: str, gold: str, answer: str,
                                                           grade: Grade) -> None:
    assert rule_grade(question, gold, answer) is grade


@pytest.mark.parametrize("question, gold, answer, grade", [
    # refusals in other words, and a description beside one
    ("Who discovered penicillin?", "Alexander Fleming", "Nothing comes to mind for that one.", Grade.NOT_ATTEMPTED),
    ("Who discovered penicillin?", "Alexander Fleming", "I can't place the scientist's name.", Grade.NOT_ATTEMPTED),
    ("Who discovered penicillin?", "Alexander Fleming", "I'd only be guessing, so I'll pass.", Grade.NOT_ATTEMPTED),
    ("Which Georgia has Tbilisi as its capital?", "The country", "Could you say which Georgia you mean?",
     Grade.NOT_ATTEMPTED),
    ("In which museum is Guernica shown?", "Museo Reina Sofía", "It's in a big Spanish museum, but I can't say which.",
     Grade.NOT_ATTEMPTED),
    ("Who was the first Roman emperor?", "Augustus", "One of the Julio-Claudian rulers, but I can't name him.",
     Grade.UNGRADED),
    ("Who discovered penicillin?", "Alexander Fleming", "No name comes to mind, maybe Pasteur", Grade.INCORRECT),
])
def test_refusals_in_other_words_and_a_description_beside_one(question: str, gold: str, answer: str,
                                                               grade: Grade) -> None:
    assert rule_grade(question, gold, answer) is grade


@pytest.mark.parametrize("answer", ["I'm not sure of the town's name.", "I'm not sure of Vennland's capital."])
def test_a_refusal_that_names_the_asked_thing(answer: str) -> None:
    assert rule_outcome("Which town is the seat of Vennland?", "Orsk", answer).grade is Grade.NOT_ATTEMPTED


@pytest.mark.parametrize("answer, grade", [
    ("Not certain; it is in the Mourne range.", Grade.UNGRADED),      # a clause about it: no committed guess
    ("Not sure; the band came from the Leeds area.", Grade.UNGRADED),
    ("Not sure; it was Errigal, I think", Grade.INCORRECT),   # a hedged guess stays one
])
def test_not_sure_then_a_clause(answer: str, grade: Grade) -> None:
    assert rule_grade("What is the highest peak in the county?", "Slieve Donard", answer) is grade


@pytest.mark.parametrize("answer, grade", [
    ("I'm unsure; it was first performed in Prague in the 1790s.", Grade.NOT_ATTEMPTED),
    ("They were printed in the 1780s, but I don't remember by whom.", Grade.NOT_ATTEMPTED),
    ("I'm unsure; it was first performed by Anton Dreyer.", Grade.UNGRADED),  # a name: maybe a guess
])
def test_a_refusal_beside_a_past_event(answer: str, grade: Grade) -> None:
    assert rule_outcome("Who composed the cantata?", "Ottavio Bellandi", answer).grade is grade


def test_a_past_event_is_a_guess_where_a_place_is_asked() -> None:
    outcome = rule_outcome("In which city was the cantata first performed?", "Prague",
                           "I'm unsure; it was first performed in Vienna.")
    assert outcome.grade is not Grade.NOT_ATTEMPTED


@pytest.mark.parametrize("answer", ["It was first sung in Leipzig in 1734.", "I'm not sure; it was first sung in 1734."])
def test_a_past_event_instead_of_a_name_answers_nothing(answer: str) -> None:
    assert rule_outcome("Who wrote the cantata?", "Ottavio Bellandi", answer).grade is Grade.NOT_ATTEMPTED


@pytest.mark.parametrize("question, gold, answer, grade", [
    ("Who wrote the cantata?", "Ottavio Bellandi", "It was written by Anton Dreyer.", Grade.INCORRECT),
    ("Where was the cantata first sung?", "Leipzig", "It was first sung in Dresden.", Grade.INCORRECT),
    ("What did the decree do?", "abolished the guilds", "It abolished the guilds.", Grade.CORRECT),
])
def test_an_event_that_names_or_is_the_answer_is_compared(question: str, gold: str, answer: str,
                                                          grade: Grade) -> None:
    assert rule_outcome(question, gold, answer).grade is grade


@pytest.mark.parametrize("answer, grade", [
    ("He kept his own name", Grade.UNGRADED),                     # a claim about the person: not an event
    ("It was done in the 1730s at the court", Grade.NOT_ATTEMPTED),
])
def test_only_a_passive_event_of_the_asked_thing_answers_nothing(answer: str, grade: Grade) -> None:
    assert rule_outcome("Under which pen name did the author publish?", "Ivo Marten", answer).grade is grade


@pytest.mark.parametrize("guess, grade", [("Petra Lindqvist", Grade.CORRECT), ("Jon Halle", Grade.INCORRECT)])
def test_a_refusal_with_one_explicit_guess_is_graded_by_the_guess(guess: str, grade: Grade) -> None:
    question, gold = "Who first charted the made-up Orvane Shoals?", "Petra Lindqvist"
    assert rule_grade(question, gold, f"I'm not sure, but I'd guess {guess}.") is grade
    assert rule_grade(question, gold, f"I can't confirm that, but I believe it was {guess}.") is grade


MAYOR = Question(id="m", question="Who was elected mayor of Dunmere in May 2031?", answer="Ilse Varga")
OPENED = Question(id="o", question="When did the Tarrow lighthouse first shine?", answer="14 March 1874")
COLOURS = Question(id="k", question="What are the colours of Brell Academy?", answer="blue and white")
_LONG_REFUSAL = ("I don't have reliable information about the results of the Dunmere mayoral election in May "
                 "2031, as my knowledge was last updated in April 2030.\n\n{middle}To find the answer, I'd "
                 "recommend checking:\n- The Dunmere Borough Council website\n- Local news from the Norland "
                 "Gazette\n\nCould you tell me more about why you're asking?")


@pytest.mark.parametrize("middle", [
    "",
    "Elections in Dunmere are held every four years, and results can change after recounts.\n\n",
])
def test_a_long_refusal_that_sends_the_asker_elsewhere_names_no_candidate(middle: str) -> None:
    """Advice on where to look, its list of sources, a knowledge cutoff and background that names nothing the
    question does not say hold no guess."""
    outcome = RuleGrader().grade_sync(MAYOR, _LONG_REFUSAL.format(middle=middle))
    assert outcome.grade is Grade.NOT_ATTEMPTED, outcome.note


@pytest.mark.parametrize("middle", [
    "My best guess would be Ilse Varga. ",      # a hedged guess, right
    "My best guess would be Piet Holm. ",       # the same, wrong
    "As of April 2030, **Piet Holm** led the council. ",   # a bold name
    "A councillor named Ilse Varga was widely tipped to win. ",
    "A councillor named Piet Holm was widely tipped to win. ",
    "The mayor of Dunmere elected in 2027 was Piet Holm. ",  # the question restated with a name
])
def test_a_long_refusal_that_slips_in_a_name_is_not_a_plain_refusal(middle: str) -> None:
    """A right and a wrong name slipped into the same refusal are treated alike: neither is read as declining."""
    assert RuleGrader().grade_sync(MAYOR, _LONG_REFUSAL.format(middle=middle)).grade is not Grade.NOT_ATTEMPTED


@pytest.mark.parametrize("question, answer, declines", [
    (OPENED, "I don't have the exact date; my training data ends in 2030. I'd suggest checking the Norland "
             "lighthouse register.", True),
    (OPENED, "I can't confirm the exact date. Records mention work there in 1871, so I'd suggest checking the "
             "Norland lighthouse register.", False),   # a figure where a date is asked
    (COLOURS, "I don't have official information on this. Brell Academy's colours are typically blue and white, "
              "but I'd recommend checking its website.", False),  # a lowercase guess about what is asked
    (COLOURS, "I don't have official information on this. Brell Academy's colours are typically red and gold, "
              "but I'd recommend checking its website.", False),
])
def test_a_refusal_with_a_figure_or_a_restated_question_may_hold_a_guess(question: Question, answer: str,
                                                                          declines: bool) -> None:
    assert (RuleGrader().grade_sync(question, answer).grade is Grade.NOT_ATTEMPTED) is declines



_NUMBERED_ADVICE = ("I don't have reliable information about when the Orsk ferry service ended. To find it, I'd "
                    "recommend:\n\n1. Checking the regional archive\n2. Asking the Orsk harbour office\n3. Searching "
                    "old timetables\n\n{guess}If you need this for something specific, let me know.")


@pytest.mark.parametrize("guess, grade", [
    ("", Grade.NOT_ATTEMPTED),                       # a numbered list of places to look is advice, as a bulleted one
    ("My best guess is that it ended in 1967.\n\n", Grade.INCORRECT),  # a guess after the list is still read
    ("My best guess is that it ended in 1971.\n\n", Grade.CORRECT),
])
def test_a_numbered_list_of_advice_is_no_guess(guess: str, grade: Grade) -> None:
    outcome = rule_outcome("In which year did the Orsk ferry service end?", "1971", _NUMBERED_ADVICE.format(guess=guess))
    assert outcome.grade is grade if grade is Grade.NOT_ATTEMPTED else outcome.grade is not Grade.NOT_ATTEMPTED, \
        outcome.note


def test_the_questions_own_date_in_a_refusal_is_no_guess() -> None:
    outcome = rule_outcome("What was the town's population on 1 January 2024?", "3,120",
                           "I can't say what figure the register lists for the town on 1 January 2024.")
    assert outcome.grade is not Grade.INCORRECT, outcome.note
