"""Regnal numbers and generation words that tell namesakes apart: "Elizabeth II", "King Jr.", "Bruegel the Elder".

A name carrying one of these in the gold names one person of several; the answer must carry the
same one on the same name ("Elizabeth I" is another queen, "Martin Luther King Sr." another man).
A different one contradicts the gold; a missing regnal number leaves the answer undecided, while a
missing generation word is accepted (it is often left out: "Martin Luther King").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from factprobe.eval.grading.roman import roman_value
from factprobe.eval.grading.tokens import STOPWORDS, Token, same_word, tokenize

HIGHEST_REGNAL = 39   # XXXIX: a higher numeral after a name is not taken for a regnal number
_ORDINAL = re.compile(r"(\d+)(?:st|nd|rd|th)")
# Generation words and the generation they name ("fils" is the son, "père" the father).
_GENERATIONS = {"jr": "junior", "junior": "junior", "fils": "junior", "younger": "junior",
                "sr": "senior", "senior": "senior", "pere": "senior", "elder": "senior"}
_AFTER_THE = frozenset({"elder", "younger"})
# Words after "I" that make it the pronoun, not a numeral ("Nicholas, I think", "Elizabeth I believe").
_PRONOUN_VERBS = frozenset("""
think believe guess suppose recall remember know mean am m would d will ll was have ve had did do can could
might may must should suspect reckon assume feel
""".split())


@dataclass(frozen=True)
class Marker:
    """A regnal number or generation attached to a name word ("elizabeth", "regnal", "2")."""

    name: str
    kind: str   # "regnal" or "generation"
    value: str


def _is_name(token: Token) -> bool:
    return token.capitalised and token.norm.isalpha() and len(token.norm) > 1 and token.norm not in STOPWORDS


def _regnal(tokens: list[Token], index: int, lower_case: bool) -> str | None:
    """The regnal number the token writes, if it follows a name ("II", "the Second", "2nd")."""
    token = tokens[index]
    numeral = token.text.upper() if lower_case and len(token.text) > 1 else token.text
    value = roman_value(numeral)
    if value is not None and value <= HIGHEST_REGNAL:
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        if numeral == "I" and following is not None and following.gap == " " and following.norm in _PRONOUN_VERBS:
            return None
        return str(value)
    ordinal = _ORDINAL.fullmatch(token.norm)
    if ordinal and (token.capitalised or token.text[:1].isdigit()):
        return ordinal.group(1)
    return None


def markers(text: str) -> list[Marker]:
    """The regnal numbers and generation words written right after a name in the text."""
    tokens = tokenize(text)
    lower_case = not any(t.capitalised for t in tokens)
    found: list[Marker] = []
    for index, token in enumerate(tokens):
        position = index - 1
        if token.norm in _AFTER_THE or (_ORDINAL.fullmatch(token.norm) and token.capitalised):
            if position < 0 or tokens[position].norm != "the" or tokens[position].gap.strip(" ,"):
                continue
            position -= 1  # "Pliny the Elder", "Elizabeth the Second"
        if position < 0 or token.gap.strip(" ,") or tokens[position + 1].gap.strip(" ,"):
            continue
        name = tokens[position]
        if not (_is_name(name) or (lower_case and name.norm.isalpha() and name.norm not in STOPWORDS)):
            continue
        if token.norm in _GENERATIONS and (token.norm in _AFTER_THE or token.gap.strip() in ("", ",")):
            found.append(Marker(name.norm, "generation", _GENERATIONS[token.norm]))
            continue
        if position == index - 1 and token.gap != " ":
            continue  # a numeral must follow its name directly ("Louis XIV", not "Louis, I think")
        value = _regnal(tokens, index, lower_case)
        if value is not None:
            found.append(Marker(name.norm, "regnal", value))
    return found


def marker_conflict(claim: str, gold: str) -> tuple[str, str] | None:
    """How the claim's markers disagree with the gold's: ("differs", why), ("missing", why), or None.

    Only markers on a name the claim shares with the gold count ("Elizabeth II, daughter of George VI").
    """
    gold_markers = markers(gold)
    if not gold_markers:
        return None
    claim_markers = markers(claim)
    claim_words = [t.norm for t in tokenize(claim)]
    for wanted in gold_markers:
        same_name = [m for m in claim_markers if m.kind == wanted.kind and same_word(m.name, wanted.name)]
        if same_name and all(m.value != wanted.value for m in same_name):
            label = "regnal number" if wanted.kind == "regnal" else "generation"
            return "differs", f"a different {label} from the gold's ({wanted.name} {same_name[0].value})"
        named = any(same_word(word, wanted.name) for word in claim_words)
        if not same_name and named and wanted.kind == "regnal":
            return "missing", "omits the gold's regnal number"
    return None


__all__ = ["Marker", "marker_conflict", "markers", "roman_value"]
