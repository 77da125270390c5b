"""The answer slot of a plain sentence: what it says beyond the question's own words, read the same whether it is
right or wrong.

A sentence that restates the question and fills its blank ("X was hired as the art director of Y while in his
teens") is decided by what fills the blank: the gold's words there, and no other new name before them (or, when
they stand just after the sentence's first verb of being or "by", none between), state the gold; a first new
phrase that names something and shares nothing with the gold, in a sentence that says nothing related to the gold
anywhere, states another answer. A sentence that denies, contrasts, offers alternatives or
relates its phrase to another thing ("after X", "X's brother") has no plain slot: the judge's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from factprobe.eval.grading.match_text import (
    NAMESAKE,
    Finding,
    Found,
    names_something,
    namesake_risk,
    related,
    sign_spelled,
)
from factprobe.eval.grading.sentence_names import CALENDAR, DEMONYM, OPENERS, described_doer, reverses
from factprobe.eval.grading.wording import FUNCTION_WORDS, words

# Words that keep a sentence from filling one blank plainly: a denial, a contrast, alternatives, doubt.
_NOT_PLAIN = re.compile(r"\b(?:not|never|no|n't|neither|nor|instead|rather|unlike|although|though|but|however|whereas"
                        r"|except|besides|contrary|mistaken(?:ly)?|incorrect(?:ly)?|wrong(?:ly)?|confused|myth"
                        r"|misconception|rumou?red|alleged(?:ly)?|disputed|debated|unclear|uncertain|unknown|unsure"
                        r"|possibly|perhaps|maybe|might|(?-i:may)|could|either|whether|or|and/or|etc|various|several"
                        r"|sources|reportedly|claims?|claimed|some)\b|n't\b|\?", re.IGNORECASE)
# Words before a phrase that relate it to the answer rather than state it ("after X", "the son of X").
_RELATING = frozenset("after before than like besides behind following succeeded preceded replaced successor "
                      "predecessor next second runner rival opponent against versus vs beat beating defeated "
                      "defeating over son daughter wife husband brother sister father mother nephew niece cousin "
                      "uncle aunt widow heir student pupil teacher friend partner colleague deputy near beside "
                      "alongside opposite including".split())
_KIN_AFTER = re.compile(r"^\s*['’]s?\b|^\s*,?\s*(?:whose|and|&)\b|^\W*the\s+one\b", re.IGNORECASE)
# Words after a phrase that make it something other than the answer ("X was replaced by", "X lost to").
_RELATING_AFTER = frozenset("replaced succeeded followed preceded lost beaten defeated successor predecessor rival "
                            "former later".split())
_RESTATED = 2  # the question's own content words a sentence repeats to be read as the question with its blank filled
_TOKEN = re.compile(r"\w+(?:['’]\w+)?")
# "A hotel in …", "part of …": a description, not a name.
_DESCRIPTION = re.compile(r"^\W*(?:an?|some|one|part\s+of|somewhere)\s", re.IGNORECASE)
_STEM = 5  # letters two words of at least this length share to be the same word ("announce", "announced")
# The sentence's first verb of being or doer's "by": what follows it, within a few plain words, is its answer ("The
# director of X, in its second season, was Y"); the names before it are its subject, which says what is asked.
_PIVOTS = frozenset("is was are were by".split())
_NEAR_PIVOT = 4  # words that may stand between the pivot and the answer ("the Danish rowing club")
# A place's region or country after a comma ("X, Ohio"): when the sentence says the same after its own place, the
# places are told apart by what comes before the comma.
_QUALIFIED_PLACE = re.compile(r"(?<=[a-z.]),\s+[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*)?\s*$")
_BREAK = re.compile(r"[,;:()]|\b(?:and|or)\b|&", re.IGNORECASE)


@dataclass(frozen=True)
class _Word:
    text: str  # as written
    norm: str  # as `words` writes it
    start: int
    end: int


def _tokens(sentence: str) -> list[_Word]:
    found = []
    for match in _TOKEN.finditer(sentence):
        for norm in words(match[0])[:1]:
            found.append(_Word(match[0], norm, match.start(), match.end()))
    return found


def _asked(word: str, asked: set[str]) -> bool:
    """A word of the question's, or of its stem ("announced" for "announce")."""
    return word in asked or word in FUNCTION_WORDS or any(
        len(word) >= _STEM and len(other) >= _STEM and word[:_STEM] == other[:_STEM]
        or len(other) >= 4 and word.startswith(other) and len(word) - len(other) <= 3 for other in asked)


def _new(tokens: list[_Word], asked: set[str]) -> list[bool]:
    """Which words the question does not say; a capitalised word beside one of the question's capitalised words is
    the question's entity written more fully ("Lal Narayan Sinha" for "L. N. Sinha")."""
    new = [not _asked(token.norm, asked) for token in tokens]
    for index in range(len(tokens)):
        for step in (1, -1):
            spot = index
            while new[spot] and tokens[spot].text[:1].isupper() and 0 <= spot + step < len(tokens) \
                    and not new[spot + step] and tokens[spot + step].text[:1].isupper() \
                    and tokens[spot + step].norm not in FUNCTION_WORDS:
                new[spot] = False
                spot -= step
                if not 0 <= spot < len(tokens):
                    break
    return new


def _occurrence(norms: list[str], gold: list[str]) -> tuple[int, int] | None:
    """Where the gold's words stand together in the sentence (a compound may be written as one word or two)."""
    size = len(gold)
    for start in range(len(norms) - size + 1):
        if norms[start:start + size] == gold:
            return start, start + size
    joined = "".join(gold)
    for start in range(len(norms)):
        for end in range(start + 1, min(len(norms), start + 3) + 1):
            if "".join(norms[start:end]) == joined and end - start != size:
                return start, end
    return None


def _name_goes_on(tokens: list[_Word], end: int, sentence: str, gold: str) -> bool:
    """The gold's words are part of a longer name: a capitalised word follows on the same line, or a small
    number where the gold has none ("X 2": a sequel, another mission)."""
    if end >= len(tokens) or not re.fullmatch(r"\s+", sentence[tokens[end - 1].end:tokens[end].start]):
        return False
    following = tokens[end]
    if following.text[:1].isupper():
        return following.norm not in FUNCTION_WORDS
    return bool(re.fullmatch(r"\d{1,3}", following.text)) and not re.search(r"\d", gold) and "\n" not in sentence[
        tokens[end - 1].end:following.start]


def _first_run(tokens: list[_Word], new: list[bool], sentence: str) -> str | None:
    """The first capitalised phrase of new words after the sentence's pivot when it stands near it (else the first
    in the sentence), maybe joined by a name's particles; it ends at a function word, a comma or a bracket."""
    starts = [i for i, is_new in enumerate(new) if is_new and tokens[i].norm not in CALENDAR and not _describes(
        tokens, i) and tokens[i].text[:1].isupper() and not (i == 0 and tokens[i].norm in OPENERS)]
    if not starts:
        return None
    start = next((i for i in starts if _after_pivot(tokens, sentence, i)), starts[0])
    end = start + 1
    capital = tokens[start].text[:1].isupper()
    while end < len(tokens) and re.fullmatch(r"[\s\"“”']*", sentence[tokens[end - 1].end:tokens[end].start]):
        word = tokens[end]
        if new[end] and word.norm not in FUNCTION_WORDS and (not capital or word.text[:1].isupper()):
            end += 1
        elif capital and word.norm in ("of", "the", "de", "van", "von", "da", "del", "la") and end + 1 < len(tokens) \
                and tokens[end + 1].text[:1].isupper():
            end += 2
        else:
            break
    return sentence[tokens[start].start:tokens[end - 1].end]


def _answer_start(tokens: list[_Word]) -> int | None:
    """Where the words after the sentence's first pivot begin, or None when it has none or the pivot ends it."""
    pivot = next((i for i, token in enumerate(tokens) if token.norm in _PIVOTS), None)
    return None if pivot is None or pivot + 1 >= len(tokens) else pivot + 1


def _after_pivot(tokens: list[_Word], sentence: str, at: int) -> int:
    """Where the words that may name another answer before position `at` begin: just after the first pivot when `at`
    follows it within a few plain words (no comma, bracket or "and" between), else at the sentence's start."""
    start = _answer_start(tokens)
    if start is None or not start <= at <= start + _NEAR_PIVOT or (
            at > start and _BREAK.search(sentence[tokens[start - 1].end:tokens[at].start])):
        return 0
    return start


def _describes(tokens: list[_Word], index: int) -> bool:
    """A lone capitalised adjective of a people or place between common words ("a Danish rowing club")."""
    return bool(DEMONYM.search(tokens[index].norm)) and 0 < index < len(tokens) - 1 and all(
        tokens[i].text[:1].islower() for i in (index - 1, index + 1)) and tokens[index + 1].norm not in FUNCTION_WORDS


def _place_core(gold: str, sentence: str) -> str:
    """The gold without its region or country ("Dalby" of "Dalby, Ohio") when the sentence states that region too."""
    qualifier = _QUALIFIED_PLACE.search(gold)
    said = f" {' '.join(words(sentence))} "
    return gold[:qualifier.start()] if qualifier and f" {' '.join(words(qualifier[0]))} " in said else gold


def restates(sentence: str, question: str, least: int = _RESTATED) -> bool:
    """The sentence repeats at least `least` of the question's content words (or their stems): it speaks of what
    is asked."""
    asked = set(words(question))
    said = {t.norm for t in _tokens(sentence) if t.norm not in FUNCTION_WORDS and len(t.norm) >= 3}
    return sum(_asked(word, asked) for word in said) >= least


def slot_finding(sentence: str, golds: list[str], question: str) -> Finding | None:
    """The sentence's blank against the gold and its aliases, or None when the sentence fills no plain blank."""
    if any(words(gold) in (["yes"], ["no"]) for gold in golds) or _NOT_PLAIN.search(sentence) or len(
            sentence.split()) < 4 or _DESCRIPTION.match(sentence):
        return None
    asked = set(words(question))
    tokens = _tokens(sentence)
    if not restates(sentence, question) or reverses(sentence, question):
        return None  # not the question restated with its blank filled, or it says the opposite of what is asked
    new = _new(tokens, asked)
    norms = [token.norm for token in tokens]
    wanted_any = False
    for gold in golds:
        wanted = [w for w in words(sign_spelled(gold)) if w not in ("the", "a", "an")]  # "O-": "o negative"
        if not wanted or all(_asked(w, asked) for w in wanted):
            continue
        wanted_any = True
        found = _occurrence(norms, wanted)
        if found is None:
            continue
        at, end = found
        before = tokens[max(0, at - 3):at]
        after = sentence[tokens[end - 1].end:]
        following = tokens[end:end + 3]
        relating = any(w.norm in _RELATING and not _asked(w.norm, asked) for w in before) or any(
            w.norm in _RELATING_AFTER for w in following) or tokens[end - 1].text[-2:] in ("'s", "’s")
        capital_gold = gold.strip()[:1].isupper()
        start = _after_pivot(tokens, sentence, at)
        earlier = [t for index, (t, is_new) in enumerate(zip(tokens[start:at], new[start:at]), start) if is_new
                   and t.norm not in CALENDAR and not _describes(tokens, index) and (
                       t.text[:1].isupper() if capital_gold else True)]
        joined = (at > 0 and new[at - 1] and tokens[at - 1].text[:1].isupper()) or _name_goes_on(
            tokens, end, sentence, gold)
        if relating or _KIN_AFTER.match(after) or earlier or joined:
            return None
        if namesake_risk(after, " ; ".join(golds), question):  # "signed in <gold>, <another state>": a namesake?
            return Finding(Found.UNSURE, "place", NAMESAKE)
        return Finding(Found.MATCH, "slot", "the gold's words fill the sentence's blank")
    if not wanted_any or described_doer(sentence, question) or not all(
            gold.strip(" \"'“")[:1].isupper() for gold in golds[:1]):
        return None  # only a name conflicts with a name: a common word's answer may be described otherwise
    run = _first_run(tokens, new, sentence)
    if run is None or not names_something(run, words(run)) or len(words(run)) > 3:
        return None
    said_new = [t.norm for t in tokens if not _asked(t.norm, asked)]
    cores = [_place_core(gold, sentence) for gold in golds]
    if any(related([w], words(core)) or related(words(run), words(core)) for core in cores for w in said_new):
        return None
    if not run[:1].isupper() or "".join(w[0] for w in words(run)) in asked:
        return None  # a common word may describe the gold; "New York" for the question's "NY" is the question's
    if any(related(words(run), words(gold[len(core):])) for gold, core in zip(golds, cores) if core != gold) or (
            len(run.split()) == 1 and DEMONYM.search(run)):
        return None  # the gold's own region (coarser, not another place); a people's name may be the gold's
    return Finding(Found.CONFLICT, "slot", f"the sentence's blank holds something else ({run[:60]})")


__all__ = ["restates", "slot_finding"]
