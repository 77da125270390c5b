"""The `name` match kind: a person's name against the gold's, in another order, with a title, middle names or
initials left out or added, the surname alone; a namesake in the detail is the judge's."""

from __future__ import annotations

import re

from rapidfuzz.distance import Levenshtein

from factprobe.eval.grading.wording import words

LONG_WORD = 7  # letters from which a word one letter off is a spelling of it ("Thompson"), not another word
NUMERALS = {word: number for words in ("i ii iii iv v vi vii viii ix x xi xii xiii xiv xv xvi xvii xviii xix xx",
                                        "first second third fourth fifth sixth seventh eighth ninth tenth")
            for number, word in enumerate(words.split(), start=1)}

# Titles and honorifics a person's name may carry ("Sir", "Dr."), and the particles of a surname ("van").
_TITLES = frozenset("sir dame dr doctor prof professor mr mrs ms madame lord lady saint st president king queen tsar "
                    "emperor empress pope general captain count countess pandit mahatma sheikh rabbi imam reverend "
                    "rev".split())
PARTICLES = frozenset("van von de da di du del della der den la le ter ten bin ibn al".split())


def _same_given(a: str, b: str) -> bool:
    """One given name written as the other: equal, an initial or a shortening of it (three letters on),
    or one letter off (four letters on)."""
    short, long = sorted((a, b), key=len)
    return long.startswith(short) and (len(short) == 1 or len(short) >= 3) or (
        len(short) >= 4 and Levenshtein.distance(a, b) == 1)


def _within(short: list[str], long: list[str]) -> bool:
    """The short list of given names is the long one with some left out, in order."""
    rest = iter(long)
    return all(any(_same_given(a, b) for b in rest) for a in short)


def namesake(detail: str, gold: list[str]) -> bool:
    """The detail names a person of the gold's surname with another first name ("…, Tony X" for "Anna X")."""
    for full in re.findall(r"\b[A-Z][\w'-]+(?:\s+[A-Z][\w'.-]+)+", detail):
        named = [word for word in words(full) if word not in _TITLES and word not in PARTICLES]
        if len(named) >= 2 and len(gold) >= 2 and named[-1] == gold[-1] and not _same_given(named[0], gold[0]):
            return True
    return False


def name_match(claim: list[str], gold: list[str], bare: bool) -> str | None:
    """How the claim names the gold person, if it does: the names in another order, a further surname, the
    surname alone, or the first given name and surname with middle names or initials left
    out, added (`bare`: a head of capitalised names, a detail naming no relative) or written out; a title
    and a surname's particles are optional, a generation not."""
    if claim[1:]:
        claim = [word for word in claim if word not in _TITLES and word not in PARTICLES]
    gold = [word for word in gold if word not in PARTICLES] if gold[1:] else gold
    if claim == gold:
        return "the gold's name with a title"
    if len(claim) == len(gold) >= 2 and claim != gold and sorted(claim) == sorted(gold):
        return "the gold's names in another order (family name first or last)"
    if bare and len(gold) >= 2 and claim[:-1] == gold and claim[-1].isalpha() and claim[-1] not in NUMERALS \
            and claim[-1] not in "jr sr junior senior fil pere elder younger".split():  # a generation ("fils": "fil")
        return "the gold's full name with a further surname"  # a second family name ("Ana Ruiz Vela")
    if len(claim) > 1 and claim == gold[-len(claim):]:
        return "the surname alone"  # a surname of several words ("Lloyd Webber"), a title before it
    if len(gold) < 2 or not claim or not (claim[-1] == gold[-1] or (
            min(len(claim[-1]), len(gold[-1])) >= LONG_WORD and Levenshtein.distance(claim[-1], gold[-1]) == 1)):
        return None
    given, wanted = claim[:-1], gold[:-1]
    if not given:
        return "the surname alone"
    while len(wanted) > 1 and len(wanted[0]) == 1 and not _same_given(given[0], wanted[0]):
        wanted = wanted[1:]  # a leading initial left out ("R. Tobias" as "Tobias")
    if bare and len(given) > len(wanted) and _same_given(given[0], wanted[0]) and _within(wanted, given) and all(
            w.isalpha() and w not in NUMERALS for w in given[1:]):
        return "the gold's first name and surname with a middle name added"  # may name a relative: a small risk
    if not _same_given(given[0], wanted[0]) or not _within(given, wanted):
        return None
    return "given names as far as they go" if len(given) > 1 else "first name and surname"


__all__ = ["LONG_WORD", "NUMERALS", "PARTICLES", "name_match", "namesake"]
