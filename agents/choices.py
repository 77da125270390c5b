"""Multiple-choice questions as the model sees them: lettered options in the order of `--option-order`.

- `shuffle` (the default): the options shuffled per repeat; the refusal option, when a strategy
  offers it, last.
- `shuffle-all`: the options and the refusal option shuffled together per repeat (MM-SAP shuffles
  all five options on each of its repeats).
- `released`: the options in the dataset's order (MMWorld and WorldSense keep theirs); the refusal
  option at its released letter (the question's `refusal_option` field, MM-SAP), else last.

A shuffle is a pure function of its key (seed, question id, repeat; `shuffle_key`), so the prompt
and the grading step compute the same order without passing state, and a run is reproducible from
the key its rows record. A strategy that offers refusal gets MM-SAP's fixed refusal phrase as one
extra option.
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args

from factprobe.eval.core.schema import Question

LETTERS = string.ascii_uppercase
REFUSAL_OPTION = "Sorry, I can't help with it"   # MM-SAP's refusal phrase (docs/protocols.md §6)
REFUSAL_INDEX = -1                               # the refusal option's index in `order`
OptionOrder = Literal["shuffle", "shuffle-all", "released"]   # `--option-order` (see the docstring)
OPTION_ORDERS: tuple[str, ...] = get_args(OptionOrder)
DEFAULT_OPTION_ORDER = "shuffle"
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


def shuffle_key(question: Question, repeat: int, seed: int) -> str:
    """The random generator's seed of the question's shuffle in this repeat (recorded per row)."""
    return f"{seed}/{question.id}/{repeat}"


def released_refusal_index(question: Question, count: int) -> int:
    """Where the refusal option stands in the released order: its released letter's index, else last."""
    letter = str(question.fields.get("refusal_option") or "").strip().upper()
    index = LETTERS.find(letter) if len(letter) == 1 else -1
    return index if 0 <= index <= count else count


def shown_order(question: Question, repeat: int, seed: int, offers_refusal: bool, option_order: str) -> list[int]:
    """The original indices of the shown options (REFUSAL_INDEX for the refusal option)."""
    order = list(range(len(question.choices or [])))
    if option_order == "released":
        if offers_refusal:
            order.insert(released_refusal_index(question, len(order)), REFUSAL_INDEX)
        return order
    if option_order == "shuffle-all":
        order += [REFUSAL_INDEX] if offers_refusal else []
        random.Random(shuffle_key(question, repeat, seed)).shuffle(order)
        return order
    if option_order != "shuffle":
        raise ValueError(f"unknown option order {option_order!r}; one of {', '.join(OPTION_ORDERS)}")
    random.Random(shuffle_key(question, repeat, seed)).shuffle(order)
    return order + ([REFUSAL_INDEX] if offers_refusal else [])


def shown_choices(question: Question, repeat: int, seed: int, offers_refusal: bool = False,
                  option_order: str = DEFAULT_OPTION_ORDER) -> ShownChoices:
    """The question's options in `option_order` for this (seed, question, repeat)."""
    choices = list(question.choices or [])
    if len(choices) + offers_refusal > len(LETTERS):
        raise ValueError(f"question {question.id!r} has {len(choices)} choices; at most {len(LETTERS)} letters")
    order = shown_order(question, repeat, seed, offers_refusal, option_order)
    options = [REFUSAL_OPTION if index == REFUSAL_INDEX else choices[index] for index in order]
    gold = gold_index(question)
    return ShownChoices(tuple(options), tuple(order),
                        None if gold is None else LETTERS[order.index(gold)],
                        LETTERS[order.index(REFUSAL_INDEX)] if offers_refusal else None)


def context_order(context: Any) -> str:
    """The run's `--option-order` as a strategy context carries it (its options)."""
    return str(getattr(context, "options", {}).get("option_order") or DEFAULT_OPTION_ORDER)


def options_block(shown: ShownChoices) -> str:
    """`Options:` and one `A. text` line per option."""
    return "\n".join(["Options:", *(f"{letter}. {text}" for letter, text in zip(shown.letters, shown.options))])


def presented_question(question: Question, repeat: int, seed: int, offers_refusal: bool = False,
                       option_order: str = DEFAULT_OPTION_ORDER) -> str:
    """The question text a strategy asks: with lettered options when the question has choices."""
    if not question.choices:
        return question.question
    shown = shown_choices(question, repeat, seed, offers_refusal, option_order)
    return f"{question.question}\n{options_block(shown)}\n{CHOICE_INSTRUCTION}"


def asked_text(state: Mapping[str, Any], context: Any) -> str:
    """The question text of a strategy state as every prompt of the strategy shows it: with the
    options in the run's order (the strategy context's) for the state's repeat when the question
    has choices (no refusal option)."""
    return presented_question(state["question"], state.get("repeat", 0), context.seed,
                              option_order=context_order(context))


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
