"""Other ways of writing a gold's words that name the same thing, rewritten to the gold's wording.

Applied to a claim before it is compared with a named gold (a term, a place, a title), and only
towards words the gold itself contains, so a rewrite can never introduce a gold word by accident:

- a chemical symbol or formula for the element or compound the gold names ("N₂" for "Nitrogen",
  "H2O" for "water"); a symbol that is also a word or a letter ("I", "He", "W") only when it is the
  whole answer;
- a Roman numeral for the gold's ordinal ("Amendment XIII" for "13th Amendment");
- a plain plural or singular of a lower-case word ("ohms" for "Ohm"): a capitalised plural may be
  another name ("Williams" for "William"), so it is left alone;
- a place's local name for its English one ("Den Haag" for "The Hague", "München" for "Munich").

The tables are small general knowledge, kept to common cases.
"""

from __future__ import annotations

import re

from factprobe.eval.core.normalize import strip_accents
from factprobe.eval.grading.roman import ROMAN, roman_value

_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")
# Formulas and symbols -> the name they stand for; diatomic gases are written with their "2".
_FORMULAS: dict[str, str] = {
    "H": "hydrogen", "H2": "hydrogen", "He": "helium", "Li": "lithium", "C": "carbon", "N": "nitrogen",
    "N2": "nitrogen", "O": "oxygen", "O2": "oxygen", "F": "fluorine", "F2": "fluorine", "Ne": "neon",
    "Na": "sodium", "Mg": "magnesium", "Al": "aluminium", "Si": "silicon", "P": "phosphorus", "S": "sulfur",
    "Cl": "chlorine", "Cl2": "chlorine", "Ar": "argon", "K": "potassium", "Ca": "calcium", "Fe": "iron",
    "Cu": "copper", "Zn": "zinc", "Ag": "silver", "Sn": "tin", "I": "iodine", "Au": "gold", "Hg": "mercury",
    "Pb": "lead", "U": "uranium", "Pt": "platinum", "Ni": "nickel", "Ti": "titanium", "W": "tungsten",
    "H2O": "water", "CO2": "carbon dioxide", "CO": "carbon monoxide", "O3": "ozone", "NaCl": "sodium chloride",
    "CH4": "methane", "NH3": "ammonia", "H2SO4": "sulfuric acid", "HCl": "hydrochloric acid",
}
# Local names -> English names of places often asked about.
_LOCAL_PLACES: dict[str, str] = {
    "den haag": "the hague", "s-gravenhage": "the hague", "munchen": "munich", "koln": "cologne",
    "wien": "vienna", "praha": "prague", "roma": "rome", "firenze": "florence", "venezia": "venice",
    "napoli": "naples", "milano": "milan", "torino": "turin", "lisboa": "lisbon", "warszawa": "warsaw",
    "moskva": "moscow", "kobenhavn": "copenhagen", "geneve": "geneva", "bruxelles": "brussels",
    "brussel": "brussels", "athina": "athens", "sevilla": "seville", "antwerpen": "antwerp",
    "deutschland": "germany", "espana": "spain", "nippon": "japan", "nihon": "japan", "suomi": "finland",
    "sverige": "sweden", "norge": "norway", "danmark": "denmark", "osterreich": "austria", "hellas": "greece",
}
_ROMAN = re.compile(rf"\b(?=[IVXLC]{{2,}}\b){ROMAN}\b")   # two letters at least: "I" is a pronoun
_ORDINAL = re.compile(r"\b(\d+)(?:st|nd|rd|th)\b", re.IGNORECASE)
_LOWER_WORD = re.compile(r"\b[a-z]{3,}\b")
_PLURAL_ENDINGS = ("s", "es")


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z]+", strip_accents(text).lower()))


# Symbols that are also English words or letters ("I think…", "He was…", "O'Neill"): rewritten only
# when they are the whole answer.
_WORDLIKE = {formula for formula in _FORMULAS if len(formula) == 1} | {"He"}


def _formulas(claim: str, gold_words: set[str]) -> str:
    alone = claim.strip().strip(".!*\"'`").strip()
    for formula, name in _FORMULAS.items():
        if not set(name.split()) <= gold_words:
            continue
        if formula in _WORDLIKE:
            claim = name if alone == formula else claim
        else:
            claim = re.sub(rf"(?<![\w.]){re.escape(formula)}(?![\w])", name, claim)
    return claim


def _places(claim: str, gold_words: set[str]) -> str:
    plain = strip_accents(claim)
    for local, english in _LOCAL_PLACES.items():
        if set(english.split()) - {"the"} <= gold_words:
            plain = re.sub(rf"(?<!\w){re.escape(local)}(?!\w)", english.title(), plain, flags=re.IGNORECASE)
    return plain if plain != strip_accents(claim) else claim


def _numerals(claim: str, gold: str) -> str:
    ordinals = {int(number) for number in _ORDINAL.findall(gold)}
    if not ordinals:
        return claim

    def ordinal(match: re.Match[str]) -> str:
        value = roman_value(match.group(0))
        if value is None or value not in ordinals:
            return match.group(0)
        return f"{value}{_suffix(value)}"

    return _ROMAN.sub(ordinal, claim)


def _suffix(number: int) -> str:
    if number % 10 in (1, 2, 3) and number % 100 not in (11, 12, 13):
        return {1: "st", 2: "nd", 3: "rd"}[number % 10]
    return "th"


def _inflections(claim: str, gold_words: set[str]) -> str:
    def singular_or_plural(match: re.Match[str]) -> str:
        word = match.group(0)
        if word in gold_words:
            return word
        for gold_word in gold_words:
            if len(gold_word) >= 3 and any(word == gold_word + end or gold_word == word + end
                                           for end in _PLURAL_ENDINGS):
                return gold_word
        return word

    return _LOWER_WORD.sub(singular_or_plural, claim)


def in_gold_wording(claim: str, gold: str) -> str:
    """The claim with other spellings of the gold's words (formula, numeral, plural, local name) rewritten."""
    gold_words = _words(gold)
    claim = claim.translate(_SUBSCRIPTS)
    claim = _formulas(claim, gold_words)
    claim = _places(claim, gold_words)
    claim = _numerals(claim, gold)
    return _inflections(claim, gold_words)


__all__ = ["in_gold_wording"]
