"""The `slot` reading of a plain sentence (eval/grading/sentence_slot.py): the question restated with its blank
filled is decided by what fills the blank, the right and the wrong value alike; a sentence that denies, contrasts,
offers alternatives or relates its phrase to another thing is left to the judge. Made-up questions and names."""

from __future__ import annotations

import pytest

from factprobe.eval.core.schema import Grade
from tests.eval.grading.conftest import rule_grade, rule_outcome

QUESTION = "Which surveyor mapped the Quellin Archipelago for the admiralty?"
GOLD = "Tomas Ardeval"
OTHER = "Mirela Stanhope"
FRAMES = [
    "The Quellin Archipelago was mapped for the admiralty by {}, who sailed from the southern port in a small cutter.",
    "The surveyor who mapped the Quellin Archipelago for the admiralty was {} during a three-year voyage.",
    "In the end it was {} who mapped the Quellin Archipelago, working for the admiralty over several seasons.",
]


@pytest.mark.parametrize("frame", FRAMES)
def test_the_right_and_the_wrong_name_in_one_frame_are_both_decided(frame: str) -> None:
    right = rule_outcome(QUESTION, GOLD, frame.format(GOLD))
    wrong = rule_outcome(QUESTION, GOLD, frame.format(OTHER))
    assert right.grade is Grade.CORRECT, right.note
    assert wrong.grade is Grade.INCORRECT, wrong.note


@pytest.mark.parametrize("answer", [
    f"It was not {GOLD} who mapped the Quellin Archipelago for the admiralty; the admiralty hired {OTHER}.",
    f"The Quellin Archipelago was mapped for the admiralty by {GOLD} or by {OTHER}, the records disagree.",
    f"The Quellin Archipelago was mapped for the admiralty by {GOLD}'s assistant, a young cadet.",
    f"The Quellin Archipelago was mapped for the admiralty after {GOLD} had failed to finish the charts.",
    f"The Quellin Archipelago was mapped for the admiralty by {OTHER}, who replaced {GOLD} in the second season.",
    f"The Quellin Archipelago was mapped for the admiralty by {GOLD} Junior Surveys, a private firm.",
])
def test_a_sentence_without_a_plain_blank_is_not_credited(answer: str) -> None:
    assert rule_grade(QUESTION, GOLD, answer) is not Grade.CORRECT


def test_a_sentence_that_does_not_restate_the_question_is_the_judges() -> None:
    outcome = rule_outcome(QUESTION, GOLD, f"{OTHER} of the northern coast, better remembered for her novels.")
    assert outcome.grade is not Grade.INCORRECT or not outcome.note.startswith("slot")


def test_a_common_word_in_the_blank_does_not_conflict_with_a_name() -> None:
    answer = "The Quellin Archipelago was mapped for the admiralty by a retired naval officer of some renown."
    assert rule_grade(QUESTION, GOLD, answer) is not Grade.INCORRECT


def test_a_compound_written_as_two_words_fills_the_blank() -> None:
    question = "What material did the Orvel workshop melt down to make its printing ink?"
    answer = "The Orvel workshop melted down old video tape to make its printing ink."
    assert rule_grade(question, "Videotape", answer) is Grade.CORRECT
