"""Shorter ways of naming a multi-word gold that still name it unambiguously.

- A team by its nickname: "the Packers" for "Green Bay Packers" when the question asks for a team
  or a club (the city alone, "Green Bay", is not enough: a city can have several teams).
- The gold's proper name with the question's own word for its kind: "the Halley comet" asked
  "Which comet …" for "Halley's Comet", "the Higgs particle" asked "Which particle …" for "Higgs
  boson". The gold's distinctive words are all there; only its head noun is swapped for the word
  the question uses for the same thing.
"""

from __future__ import annotations

from factprobe.eval.grading.tokens import Token, same_word

_TEAM_WORDS = frozenset("team club franchise side".split())
_NICKNAME = 4  # letters a plural nickname needs ("Jets", "Bulls")


def team_nickname(claim: list[Token], gold: list[Token], present: list[str], question_words: set[str]) -> bool:
    """The claim names a team asked about by the gold's last words, its capitalised plural nickname."""
    if not _TEAM_WORDS & question_words or len(gold) < 2 or not present:
        return False
    tail = [t.norm for t in gold[-len(present):]]
    last = gold[-1]
    if tail != present or not (last.capitalised and last.norm.endswith("s") and len(last.norm) >= _NICKNAME):
        return False
    return any(t.capitalised and same_word(t.norm, last.norm) for t in claim)


def kind_swapped(claim: list[Token], gold: list[Token], missing: list[str], question_words: set[str]) -> bool:
    """The claim gives the gold's proper words followed by the question's word for its kind, not its head noun."""
    if len(gold) < 2 or missing != [gold[-1].norm] or not all(t.capitalised for t in gold[:-1]):
        return False
    proper = [t.norm for t in gold[:-1]]
    for index in range(len(claim) - len(proper)):
        run = claim[index:index + len(proper)]
        kind = claim[index + len(proper)]
        if all(same_word(t.norm, word) for t, word in zip(run, proper)) and kind.norm in question_words \
                and not kind.capitalised and kind.gap == " ":
            return True
    return False


__all__ = ["kind_swapped", "team_nickname"]
