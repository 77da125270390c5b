"""Word tokens that keep their original spelling beside a normalised form, and fuzzy token equality."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rapidfuzz.distance import Levenshtein

from factprobe.eval.core.normalize import strip_accents
from factprobe.eval.grading.spelled import spelled_to_digits

# A word keeps a trailing "+" or "#" that is part of its name ("C++", "C#", "A+"); a sign before a
# number ("+5") is left to the number readers.
_WORD = re.compile(r"\d+(?:st|nd|rd|th)\b|\d+(?:[.,]\d+)*|[^\W\d_]+(?:['’][^\W\d_]+)*(?:\+\+|\+(?![\w+])|#(?!\w))?")

# Words that carry no content of their own in a short answer.
STOPWORDS = frozenset("""
a an the of in on at by to from for with and or but as is was are were be been being it its it's this
that these those there here he she they his her their him them who whom whose which what when where
how i i'm we you my our your me us so than then also just only very answer correct called named
known name has had have do does did will would should can could may might must not no either
neither nor yes about around approximately roughly probably maybe perhaps possibly likely think
believe guess sure certain well actually indeed located city town place based
im ive id ill youre theyre hes shes thats whats theres dont doesnt didnt isnt wasnt cant
sorry afraid unfortunately apologies apologize honestly frankly ok okay hmm definitely certainly final
""".split())
_ORDINAL_WORDS = ("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
                  "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth").split()


def _ordinal_suffix(number: int) -> str:
    if number % 10 in (1, 2, 3) and number not in (11, 12, 13):
        return {1: "st", 2: "nd", 3: "rd"}[number % 10]
    return "th"


_ORDINALS = {word: f"{i}{_ordinal_suffix(i)}" for i, word in enumerate(_ORDINAL_WORDS, start=1)}
# Abbreviations read as the word they stand for ("Mt. Kilimanjaro").
_ABBREVIATIONS = {"mt": "mount", "mtn": "mountain", "univ": "university", "intl": "international"}
# Words of hedging that carry no claim ("my best guess", "if I recall").
HEDGE_WORDS = frozenset("guess guessing best sure certain confident recall remember seems suspect".split())
# Type words that may stand beside a name without making it another entity ("Mount Everest").
TYPE_WORDS = frozenset("""
mount mt lake river sea ocean island islands city town village county state province region
republic kingdom empire university college school museum church cathedral bridge tower street
road avenue square park station airport stadium palace castle hotel company inc ltd corporation
club fc team band award prize prizes medal festival hall bay gulf strait cape desert valley
mountain mountains range peninsula district
""".split())


@dataclass(frozen=True)
class Token:
    """One word: as written, normalised (lower case, no accents, no thousands commas), and where."""

    text: str
    norm: str
    start: int
    end: int
    gap: str = ""  # the characters between the previous word and this one

    @property
    def capitalised(self) -> bool:
        return self.text[:1].isupper()


def norm_word(word: str) -> str:
    """Lower case, accents dropped, possessive and thousands separators removed."""
    word = strip_accents(word).lower().replace("’", "'")
    word = re.sub(r"'s$", "", word)
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+", word):
        word = word.replace(",", "")
    word = word.replace("'", "")
    return _ABBREVIATIONS.get(word, _ORDINALS.get(word, word))


def tokenize(text: str) -> list[Token]:
    """Words and numbers of the text (spelled numbers become digits)."""
    text = spelled_to_digits(text)
    matches = list(_WORD.finditer(text))
    return [Token(m.group(0), norm_word(m.group(0)), m.start(), m.end(),
                  text[matches[i - 1].end():m.start()] if i else text[:m.start()])
            for i, m in enumerate(matches)]


_VOWELS = re.compile(r"[aeiouy]+")


def consonant_skeleton(word: str) -> str:
    """The consonants of a word, doubled letters once ("ulaanbaatar" -> "lnbtr"): equal in transliterations."""
    return re.sub(r"(.)\1+", r"\1", _VOWELS.sub("", word))


def content(words: list[str]) -> list[str]:
    """The words that are not stopwords."""
    return [word for word in words if word not in STOPWORDS]


def typo_distance(a: str, b: str) -> int:
    """Edit distance between two normalised words."""
    return Levenshtein.distance(a, b)


_DERIVING_SUFFIXES = ("an", "ian", "ean", "ese", "ish", "ic", "ite", "er", "ns")


def _derived(longer: str, shorter: str) -> bool:
    """`longer` is a word made from `shorter` ("Dominican" from "Dominica"), not a typo of it."""
    if not longer.startswith(shorter) or len(longer) == len(shorter):
        return False
    suffix = longer[len(shorter):]
    return suffix in _DERIVING_SUFFIXES or (suffix == "n" and shorter[-1] in "aeiou")


def same_word(answer_word: str, gold_word: str, *, allow_typo: bool = True) -> bool:
    """Equal, or a small typo of a long enough word: one edit from 5 letters, two from 11.

    Numbers must be equal and the first letter must agree; the limits keep different words apart
    ("Austria"/"Australia" differ by two edits in nine letters, "Iran"/"Iraq" are too short), and a
    derived word is not a typo ("Dominican" is not "Dominica").
    """
    if answer_word == gold_word:
        return True
    if not allow_typo or answer_word.isdigit() or gold_word.isdigit() or answer_word[:1] != gold_word[:1]:
        return False
    if _derived(answer_word, gold_word) or _derived(gold_word, answer_word):
        return False
    longest = max(len(answer_word), len(gold_word))
    allowed = 2 if longest >= 11 else 1 if longest >= 5 else 0
    return 0 < typo_distance(answer_word, gold_word) <= allowed


# Words of quantity or degree that open vague prose ("Several; he was productive", "Hundreds of …").
VAGUE_WORDS = frozenset("""
several many few numerous countless various lots plenty hundreds thousands millions billions dozens scores
extremely quite rather fairly very pretty somewhat roughly large small huge big little long short
""".split())


def names_in(text: str) -> list[str]:
    """Capitalised words of the text that look like names, not sentence openers.

    A capitalised word opening a sentence counts only when the sentence is that one word or the
    next word is capitalised too ("Brazil.", "New Delhi is…"), so "Many people died" names nothing.
    """
    tokens = tokenize(text)
    found: list[str] = []
    for index, token in enumerate(tokens):
        if not token.capitalised or not token.norm.isalpha() or token.norm in STOPWORDS or token.norm in VAGUE_WORDS:
            continue
        opener = index == 0 or bool(re.search(r"[.!?;:]\s*$", token.gap))
        if opener:
            following = tokens[index + 1] if index + 1 < len(tokens) else None
            ends = following is None or bool(re.search(r"[.!?;:]", following.gap))
            if not ends and following is not None and not following.capitalised:
                continue
        found.append(token.text)
    return found
