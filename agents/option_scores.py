"""Scoring the options of a multiple-choice question by how likely the model finds each letter.

The model is asked for the letter of one option; the log-probability of each option's letter is
read from the top alternatives of the reply's first token that is not only white space (a letter
written " B", "B" or "(B" counts as B, and the probabilities of those spellings are added). A
letter outside the top alternatives has no score (None): the backend did not say how unlikely it
is, and no value is guessed for it.
"""

from __future__ import annotations

import math
import re

from factprobe.eval.core.schema import TokenLogprob

LETTER_TOKEN = re.compile(r"^\s*[\(\[]?([A-Z])[\)\]\.:]?\s*$")
LOWER_LETTER_TOKEN = re.compile(r"^\s*[\(\[]?([a-z])[\)\]\.:]?\s*$")   # options lettered a, b, … (MMWorld)


def scored_token(tokens: list[TokenLogprob]) -> TokenLogprob | None:
    """The first generated token with more than white space; None when there is none."""
    return next((token for token in tokens if token.token.strip()), None)


def letter_logprobs(token: TokenLogprob, letters: tuple[str, ...], lower: bool = False) -> dict[str, float | None]:
    """Each letter's log-probability at `token`'s position (the chosen token and its alternatives);
    None for a letter none of them spells. `lower`: the prompt lettered the options a, b, …, so
    those spellings are read (as A, B, …)."""
    alternatives = {**token.top, token.token: token.logprob}
    found: dict[str, list[float]] = {letter: [] for letter in letters}
    pattern = LOWER_LETTER_TOKEN if lower else LETTER_TOKEN
    for text, logprob in alternatives.items():
        match = pattern.match(text)
        if match and match.group(1).upper() in found and math.isfinite(logprob):
            found[match.group(1).upper()].append(logprob)
    return {letter: log_sum_exp(values) if values else None for letter, values in found.items()}


def log_sum_exp(values: list[float]) -> float:
    """log(Σ exp(v)) of a non-empty list, without overflow."""
    peak = max(values)
    return peak + math.log(sum(math.exp(value - peak) for value in values))


def normalised(scores: dict[str, float | None]) -> dict[str, float | None]:
    """Each scored letter's probability among the scored letters (they sum to 1); None unscored."""
    known = [value for value in scores.values() if value is not None]
    if not known:
        return {letter: None for letter in scores}
    total = log_sum_exp(known)
    return {letter: None if value is None else math.exp(value - total) for letter, value in scores.items()}
