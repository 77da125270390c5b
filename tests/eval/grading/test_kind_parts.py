"""The `parts` kind (eval/grading/match_parts.py): a gold of several required parts (`Question.answer_parts`) is
stated only when every part is; a short reply naming fewer things than the gold has parts cannot be complete."""

from __future__ import annotations

import pytest

from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.rules import RuleGrader

LIST = Question(id="l", question="Which three rivers feed the made-up Lake Varnis?", answer="Oska; Belmar; Trine",
                answer_parts=["Oska", "Belmar", "Trine"])
PAIRS = Question(id="p", question="Who founded each of the two made-up Varnis guilds, and in which town?",
                 answer="Tanners' Guild: Edda Morrow; Weavers' Guild: Piet Lannon",
                 answer_parts=["Tanners' Guild: Edda Morrow", "Weavers' Guild: Piet Lannon"])


def grade(question: Question, answer: str) -> Grade:
    return RuleGrader().grade_sync(question, answer).grade


@pytest.mark.parametrize("answer", ["Oska, Belmar and Trine", "The lake is fed by the Trine, the Oska and the Belmar.",
                                    "1. Belmar\n2. Oska\n3. Trine"])
def test_every_part_stated_is_correct(answer: str) -> None:
    assert grade(LIST, answer) is Grade.CORRECT


@pytest.mark.parametrize("answer", ["Oska", "Oska and Belmar", "3", "Oska, Oska, Oska, Belmar, Oska, Oska",
                                    "Oska, Belmar and Corran"])
def test_a_short_reply_missing_a_part_is_incorrect(answer: str) -> None:
    assert grade(LIST, answer) is Grade.INCORRECT


def test_a_per_entity_gold_needs_each_entity_with_its_value() -> None:
    assert grade(PAIRS, "The Tanners' Guild was founded by Edda Morrow and the Weavers' Guild by Piet Lannon.") \
        is Grade.CORRECT
    assert grade(PAIRS, "Edda Morrow") is Grade.INCORRECT


def test_a_long_reply_missing_a_part_is_the_judges() -> None:
    answer = ("Two of the rivers are well known: the Oska, which rises in the northern hills, and the Belmar, "
              "which drains the eastern marshes; the third is a smaller stream with a local name.")
    assert grade(LIST, answer) is Grade.UNGRADED


def test_a_refusal_is_not_attempted() -> None:
    assert grade(LIST, "I don't know.") is Grade.NOT_ATTEMPTED


def test_a_gold_written_with_semicolons_is_read_as_its_parts() -> None:
    question = Question(id="s", question="Which three rivers feed the made-up Lake Varnis?", answer="Oska; Belmar; Trine")
    assert grade(question, "Belmar, Trine and Oska") is Grade.CORRECT
    assert grade(question, "Belmar and Trine") is Grade.INCORRECT
