"""The rule grader on every answer shape SimpleQA's rules cover (examples written for these tests)."""

from __future__ import annotations

import asyncio

import pytest

from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.base import HedgingPolicy
from factprobe.eval.grading.rules import RuleGrader

CAPITAL = Question(id="c1", question="Which city is the capital of Portugal?", answer="Lisbon",
                   aliases=["Lisboa"])
LAKE = Question(id="c2", question="On the shore of which lake does the town of Jinja stand?",
                answer="Lake Victoria")
STATE = Question(id="c3", question="Which US state is the Badlands park in?", answer="Dakota")
MUSEUM = Question(id="c4", question="In which city is the Van Gogh Museum?", answer="In Amsterdam.")
PRIZE = Question(id="c5", question="Which award did the novel win in 2003?", answer="Booker Prize Award")
PARK = Question(id="c6", question="Which landmark in San Francisco opened in 1871?", answer="Golden Gate Park")
VOLCANO = Question(id="c7", question="Which mountain erupted in 1980 in Washington state?", answer="St. Helens")
NO_ANSWER = Question(id="u1", question="What did Napoleon name his first goldfish?", answer=None,
                     answerable=False)


@pytest.mark.parametrize("question, answer, grade", [
    # The gold, said in many ways.
    (CAPITAL, "Lisbon", Grade.CORRECT),
    (CAPITAL, "It is Lisbon.", Grade.CORRECT),
    (CAPITAL, "Lisboa", Grade.CORRECT),                          # an alias
    (CAPITAL, "Lisbonn", Grade.UNGRADED),                         # a one-letter typo
    (CAPITAL, "Lisbon, not Porto", Grade.CORRECT),                # a denied wrong entity is fine
    (CAPITAL, "Porto? No, actually it is Lisbon.", Grade.UNGRADED),
    (LAKE, "Victoria", Grade.CORRECT),                           # "lake" is implied by the question
    (MUSEUM, "Amsterdam", Grade.CORRECT),                        # the gold's leading preposition
    (PRIZE, "The Booker Prize", Grade.CORRECT),                  # "award" is implied
    (VOLCANO, "Mount St. Helens", Grade.CORRECT),                 # a feature's kind added to its name
    # Over-credit shapes: the gold's words are there, the answer is still wrong.
    (CAPITAL, "Either Porto or Lisbon", Grade.INCORRECT),
    (CAPITAL, "Lisbon or maybe Coimbra", Grade.INCORRECT),
    (CAPITAL, "Lisbon and Porto", Grade.UNGRADED),
    (CAPITAL, "Not Lisbon; it is Porto.", Grade.INCORRECT),
    (CAPITAL, "It isn't Lisbon", Grade.UNGRADED),
    (CAPITAL, "Lisbon? No, it's Porto.", Grade.UNGRADED),
    (STATE, "North Dakota", Grade.UNGRADED),                    # another entity containing the gold
    (PARK, "Golden Gate Bridge", Grade.UNGRADED),
    (PRIZE, "Pulitzer Prize", Grade.UNGRADED),
    # Wrong answers, plain or hedged.
    (CAPITAL, "Porto", Grade.INCORRECT),
    (CAPITAL, "I think it is Porto", Grade.INCORRECT),
    (CAPITAL, "I'm not sure. Maybe Porto?", Grade.INCORRECT),    # refusal then a wrong guess
    (CAPITAL, "I can't recall exactly, perhaps Porto", Grade.UNGRADED),
    # Refusals in several phrasings.
    (CAPITAL, "I don't know.", Grade.NOT_ATTEMPTED),
    (CAPITAL, "I can't recall that", Grade.NOT_ATTEMPTED),
    (CAPITAL, "I don't have that information", Grade.NOT_ATTEMPTED),
    (CAPITAL, "I'm unable to answer that", Grade.NOT_ATTEMPTED),
    (CAPITAL, "Sorry, I can't help with it", Grade.NOT_ATTEMPTED),
    (CAPITAL, "I would need to look that up.", Grade.NOT_ATTEMPTED),
    (CAPITAL, "", Grade.NOT_ATTEMPTED),
    (CAPITAL, None, Grade.NOT_ATTEMPTED),
    # Unanswerable questions: a refusal is not attempted, any claim is incorrect.
    (NO_ANSWER, "I have no idea", Grade.NOT_ATTEMPTED),
    (NO_ANSWER, "There is no record of such a goldfish.", Grade.NOT_ATTEMPTED),
    (NO_ANSWER, "Bubbles", Grade.INCORRECT),
    (NO_ANSWER, "I'm not certain, but maybe Bubbles", Grade.INCORRECT),
])
def test_rule_grades_each_shape(question: Question, answer: str | None, grade: Grade) -> None:
    assert RuleGrader().grade_sync(question, answer).grade is grade


@pytest.mark.parametrize("answer", [
    "It is the coastal city on the Tagus estuary where the famous trams run uphill",
    "the westernmost capital on the continent, with many hills and old tiled facades",
])
def test_free_paraphrase_is_ungraded_with_a_reason(answer: str) -> None:
    outcome = RuleGrader().grade_sync(CAPITAL, answer)
    assert outcome.grade is Grade.UNGRADED
    assert outcome.note and outcome.note.startswith("undecided:")


def test_partial_name_is_ungraded_not_guessed() -> None:
    question = Question(id="t1", question="What is the title of the band's last album?", answer="Silver Morning Tide")
    outcome = RuleGrader().grade_sync(question, "Morning Tide")
    assert outcome.grade is Grade.UNGRADED
    assert (outcome.note or "").startswith("undecided: text:")


@pytest.mark.parametrize("answer", [
    "Probably Lisbon",
    "I'm not sure, but I think it's Lisbon.",
    "Lisbon is my best guess",
])
def test_hedging_policy_decides_hedged_correct_answers(answer: str) -> None:
    accepted = RuleGrader(HedgingPolicy.ACCEPT).grade_sync(CAPITAL, answer)
    penalized = RuleGrader(HedgingPolicy.PENALIZE).grade_sync(CAPITAL, answer)
    assert accepted.grade is Grade.CORRECT and "policy: accept" in (accepted.note or "")
    assert penalized.grade is Grade.INCORRECT and "policy: penalize" in (penalized.note or "")


def test_unhedged_correct_answer_is_correct_under_both_policies() -> None:
    for policy in HedgingPolicy:
        assert RuleGrader(policy).grade_sync(CAPITAL, "Lisbon.").grade is Grade.CORRECT


def test_notes_name_the_match_kind_that_decided() -> None:
    grader = RuleGrader()
    assert (grader.grade_sync(CAPITAL, "Porto or Lisbon").note or "").startswith("candidates: several candidates")
    assert (grader.grade_sync(CAPITAL, "Not Lisbon.").note or "").startswith("undecided: a denial")
    assert (grader.grade_sync(CAPITAL, "Porto").note or "").startswith("text: names something else")
    assert (grader.grade_sync(STATE, "South Dakota").note or "").startswith("undecided: text:")
    assert (grader.grade_sync(CAPITAL, "I don't know").note or "").startswith("refusal:")


def test_async_grade_and_description() -> None:
    grader = RuleGrader(HedgingPolicy.PENALIZE)
    assert asyncio.run(grader.grade(CAPITAL, "Lisbon")).grade is Grade.CORRECT
    assert grader.name == "rules"
    assert grader.describe() == {"grader": "rules", "hedging": "penalize", "candidates": "INCORRECT",
                                  "coarser": "NOT_ATTEMPTED"}


@pytest.mark.parametrize("answer, golds, expected", [
    ("Lisbon", ["Lisbon"], True),
    ("lisboa", ["Lisbon", "Lisboa"], True),
    ("Porto or Lisbon", ["Lisbon"], False),
    ("North Dakota", ["Dakota"], False),
    ("I don't know", ["Lisbon"], False),
])
def test_correct_only_on_a_match_with_a_bare_question(answer: str, golds: list[str], expected: bool) -> None:
    probe = Question(id="g", question="?", answer=golds[0], aliases=golds[1:])
    assert (RuleGrader().grade_sync(probe, answer).grade is Grade.CORRECT) is expected


FILM = Question(id="f1", question="Which film opened the festival?", answer="Night Harbour")
MISSION = Question(id="m1", question="Which mission returned the first samples?", answer="Luna 16")


@pytest.mark.parametrize("question, answer, grade", [
    (FILM, "Night Harbour: The Return", Grade.UNGRADED),          # a longer title
    (FILM, "Night Harbour II", Grade.UNGRADED),                   # a sequel glued to the gold
    (FILM, "Answer: Night Harbour", Grade.CORRECT),
    (MISSION, "Luna 20", Grade.INCORRECT),                        # another number in the name
    (MISSION, "Luna", Grade.UNGRADED),                             # part of the name
])
def test_titles_and_numbered_names(question: Question, answer: str, grade: Grade) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note


def test_descriptions_are_left_to_the_judge() -> None:
    # a description names no answer the rules can compare: vague or not is the judge's reading
    for answer in ("a port city in southern Europe", "a port city famous for the Belem Tower"):
        outcome = RuleGrader().grade_sync(CAPITAL, answer)
        assert outcome.grade is Grade.UNGRADED and (outcome.note or "").startswith("undecided:")


PEAK = Question(id="k1", question="What is the highest peak of the range?", answer="Mount Elbrus")


@pytest.mark.parametrize("answer, grade", [
    ("Elbrus", Grade.CORRECT),                    # the gold's kind of feature left out
    ("Mt. Elbrus", Grade.CORRECT),                # an abbreviated type word
    ("Elbrus, at 5,642 m", Grade.CORRECT),
    ("Mount Kazbek", Grade.INCORRECT),              # shares only the kind of thing
])
def test_type_words_of_the_gold_are_optional(answer: str, grade: Grade) -> None:
    outcome = RuleGrader().grade_sync(PEAK, answer)
    assert outcome.grade is grade, outcome.note


RIVER = Question(id="v1", question="Which river flows through Vienna?", answer="Danube")
BRIDGE = Question(id="v2", question="In which year did the bridge open?", answer="1932")
COUNT = Question(id="v3", question="How many islands does the archipelago have?", answer="127")
WRITER = Question(id="v4", question="Who wrote the saga?", answer="Halldor Laxness")
FOUNDERS = Question(id="v5", question="What were the founders' first names?", answer="Ida and Sven")
OPENED = Question(id="v6", question="On what date did the museum open?", answer="3 March 1931")
NO_MOON = Question(id="u2", question="Who was the first person to swim across Lake Ontario on the Moon?",
                   answer=None, answerable=False)


@pytest.mark.parametrize("question, answer, grade", [
    # Vague answers that neither state nor contradict the gold: not attempted.
    (COUNT, "Quite a lot of them.", Grade.UNGRADED),
    (COUNT, "More than a hundred.", Grade.NOT_ATTEMPTED),
    (BRIDGE, "Sometime in the early 1900s.", Grade.NOT_ATTEMPTED),
    (BRIDGE, "A long time ago.", Grade.UNGRADED),
    (RIVER, "A big European river.", Grade.UNGRADED),
    (RIVER, "I believe it was somewhere in Europe.", Grade.UNGRADED),
    (WRITER, "An Icelandic novelist, but I forget which one.", Grade.UNGRADED),
    (WRITER, "A famous poet.", Grade.UNGRADED),
    # Partial answers: wrong alone (granularity), not attempted beside "I don't know the rest".
    (FOUNDERS, "Ida.", Grade.UNGRADED),
    (FOUNDERS, "One was Ida; I don't remember the other.", Grade.UNGRADED),
    (OPENED, "March 1931", Grade.NOT_ATTEMPTED),                 # coarser, agrees as far as it goes
    (OPENED, "In 1931, but I'm not sure of the exact day.", Grade.NOT_ATTEMPTED),
    # Refusals in more phrasings.
    (RIVER, "I'm not able to say.", Grade.NOT_ATTEMPTED),
    (RIVER, "That is outside what I know.", Grade.NOT_ATTEMPTED),
    (RIVER, "I'd prefer not to guess.", Grade.NOT_ATTEMPTED),
    (RIVER, "You might want to consult an atlas.", Grade.NOT_ATTEMPTED),
    (RIVER, "No clue.", Grade.NOT_ATTEMPTED),
    # Unanswerable questions: a premise correction is not attempted, a claim is incorrect.
    (NO_MOON, "Nobody has done that; the Moon has no lakes.", Grade.NOT_ATTEMPTED),
    (NO_MOON, "It has not happened.", Grade.NOT_ATTEMPTED),
    (NO_MOON, "The question rests on a false premise.", Grade.UNGRADED),
    (NO_MOON, "Gertrude Ederle, in 1927.", Grade.INCORRECT),
    # Over-credit shapes in other wordings.
    (RIVER, "Danube / Rhine", Grade.INCORRECT),
    (RIVER, "The Danube; some say the Wien.", Grade.UNGRADED),
    (RIVER, "It was the Danube until the canal; now it's the Wien.", Grade.UNGRADED),
    (RIVER, "Danube, the second-longest river in Europe, and navigable.", Grade.CORRECT),
    (CAPITAL, "Sintra, near Lisbon.", Grade.UNGRADED),                # the gold only as a landmark
])
def test_vague_partial_refusal_and_premise_shapes(question: Question, answer: str, grade: Grade) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note


@pytest.mark.parametrize("question, answer, grade", [
    (Question(id="e1", question="Which country has Skopje as its capital?", answer="North Macedonia"),
     "Macedonia", Grade.UNGRADED),                                # drops the qualifying word
    (Question(id="e2", question="Which country has Banjul as its capital?", answer="Gambia"),
     "The Gambian Republic", Grade.UNGRADED),                     # a derived word is not a typo
    (Question(id="e3", question="Which country has Juba as its capital?", answer="Republic of South Sudan"),
     "Federal Republic of South Sudan", Grade.UNGRADED),          # a word glued before the whole gold
    (Question(id="e4", question="Which country has Dili as its capital?", answer="Timor-Leste"),
     "Timor", Grade.UNGRADED),                                     # a hyphenated name stays whole
])
def test_entities_containing_or_contained_in_the_gold(question: Question, answer: str, grade: Grade) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note
