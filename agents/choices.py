"""Multiple-choice questions as the model sees them: lettered options in a per-repeat shuffled order.

The order is a pure function of (seed, question id, repeat), so the prompt and the grading step
compute the same order without passing state; each repeat sees its own order (MM-SAP asks every
question several times with the options shuffled). A strategy that offers refusal gets MM-SAP's
fixed refusal phrase as one extra option, always last.
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from factprobe.eval.core.schema import Question

LETTERS = string.ascii_uppercase
REFUSAL_OPTION = "Sorry, I can't help with it"   # MM-SAP's refusal phrase (protocols §6)
REFUSAL_INDEX = -1                               # the refusal option's index in `order`
CHOICE_INSTRUCTION = "Reply with the letter of one option."

# Reading the option letter a reply names (factprobe.eval.multiple_choice.mapping lists the rules).
_BRACKETED = r"[\(\[]?([A-Za-z])[\)\]]?"
_LONE = re.compile(rf"^{_BRACKETED}\s*[.):]?$")
_NAMED = re.compile(rf"^(?:the\s+)?(?:correct\s+)?(?:answer|option|choice)(?:\s+is)?\s*[:\-]?\s*{_BRACKETED}\s*[.)]?$",
                    re.IGNORECASE)
_LETTER_THEN_TEXT = re.compile(r"^[\(\[]?([A-Za-z])(?:[\)\]]\s*|[.:]\s+|\)\s*)(.+)$")


@dataclass(frozen=True)
class ShownChoices:
    """The options in the order shown, lettered A, B, …; `order[i]` is the original index of the
    i-th shown option (REFUSAL_INDEX for the refusal option)."""

    options: tuple[str, ...]
    order: tuple[int, ...]
    gold_letter: str | None
    refusal_letter: str | None

    @property
    def letters(self) -> tuple[str, ...]:
        return tuple(LETTERS[: len(self.options)])

    def option_of(self, letter: str) -> str:
        return self.options[LETTERS.index(letter)]


def gold_index(question: Question) -> int | None:
    """Index of the gold answer among the choices (loaders store the gold option's text)."""
    if question.choices is None or question.answer is None or question.answer not in question.choices:
        return None
    return question.choices.index(question.answer)


def shown_choices(question: Question, repeat: int, seed: int, offers_refusal: bool = False) -> ShownChoices:
    """The question's options shuffled for this (seed, question, repeat), refusal option last."""
    choices = list(question.choices or [])
    if len(choices) + offers_refusal > len(LETTERS):
        raise ValueError(f"question {question.id!r} has {len(choices)} choices; at most {len(LETTERS)} letters")
    order = list(range(len(choices)))
    random.Random(f"{seed}/{question.id}/{repeat}").shuffle(order)
    options = [choices[index] for index in order]
    if offers_refusal:
        order.append(REFUSAL_INDEX)
        options.append(REFUSAL_OPTION)
    gold = gold_index(question)
    return ShownChoices(tuple(options), tuple(order),
                        None if gold is None else LETTERS[order.index(gold)],
                        LETTERS[len(options) - 1] if offers_refusal else None)


def options_block(shown: ShownChoices) -> str:
    """`Options:` and one `A. text` line per option."""
    return "\n".join(["Options:", *(f"{letter}. {text}" for letter, text in zip(shown.letters, shown.options))])


def presented_question(question: Question, repeat: int, seed: int, offers_refusal: bool = False) -> str:
    """The question text a strategy asks: with lettered options when the question has choices."""
    if not question.choices:
        return question.question
    shown = shown_choices(question, repeat, seed, offers_refusal)
    return f"{question.question}\n{options_block(shown)}\n{CHOICE_INSTRUCTION}"


def asked_text(state: Mapping[str, Any], seed: int) -> str:
    """The question text of a strategy state as every prompt of the strategy shows it: with the
    options shuffled for the state's repeat when the question has choices (no refusal option)."""
    return presented_question(state["question"], state.get("repeat", 0), seed)


def plain(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().rstrip(".").strip()).casefold()


def known(letter: str, shown: ShownChoices) -> str | None:
    letter = letter.upper()
    return letter if letter in shown.letters else None


def letter_by_rules(answer: str | None, shown: ShownChoices) -> str | None:
    """The option letter the answer names by the module's rules, None when no rule decides."""
    if not answer or not answer.strip():
        return None
    text = answer.strip()
    for pattern in (_LONE, _NAMED):
        match = pattern.match(text)
        if match:
            return known(match.group(1), shown)
    match = _LETTER_THEN_TEXT.match(text)
    letter = known(match.group(1), shown) if match else None
    if match and letter is not None:
        return letter if plain(match.group(2)) == plain(shown.option_of(letter)) else None
    same = [letter for letter, option in zip(shown.letters, shown.options) if plain(option) == plain(text)]
    return same[0] if len(same) == 1 else None
