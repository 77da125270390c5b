"""Match kind `formula`: a chemical formula against a gold formula, atom by atom (periodictable parses
subscripts, brackets and a hydrate's dot), where the question asks for a formula and both sides read as one.

Other atoms conflict (a neighbouring compound, the anhydrous salt for a hydrate, the gold inside a longer
formula); the same atoms match where one side is a molecular formula (each element once: "C2H4O2"). Two
structural formulas with the same atoms (maybe isomers) and a name where the formula is asked are the judge's.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from factprobe.eval.grading.match_text import Finding, Found, head

_FORMULA_ASKED = re.compile(r"\bformula\b", re.IGNORECASE)
_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")
# Element symbols, counts, brackets and a hydrate's dot; two capitals or a figure make it a formula, not a word.
_LOOKS_LIKE = re.compile(r"(?=.*(?:[A-Z].*[A-Z]|\d))[A-Z][A-Za-z0-9()\[\]+]*")


def _written(text: str) -> str:
    """The formula as periodictable reads it: plain figures, a hydrate's dot as "+", no spaces."""
    return re.sub(r"\s+", "", re.sub(r"[·•∙]", "+", text.translate(_SUBSCRIPTS))).strip(".")


def _atoms(text: str) -> Counter[str] | None:
    """The atoms of a formula written in the text, or None when it is not one formula."""
    text = _written(text)
    if not _LOOKS_LIKE.fullmatch(text):
        return None
    import periodictable  # only where a formula is asked

    try:
        parsed: Any = periodictable.formula(text)
    except Exception:  # pyparsing's ParseException, or ValueError for an unknown symbol
        return None
    return Counter({str(element): int(count) for element, count in parsed.atoms.items()})


def _molecular(text: str) -> bool:
    """Each element symbol appears once (a molecular formula such as "C2H4O2", not "CH3COOH")."""
    symbols = re.findall(r"[A-Z][a-z]?", text)
    return len(symbols) == len(set(symbols)) and not re.search(r"[()\[\]+]", text)


def compare_formula(claim: str, gold: str, question: str) -> Finding | None:
    """The claim's head against a gold formula (see the module); None where no formula is asked or
    either side is not one formula."""
    if not _FORMULA_ASKED.search(question) or (wanted := _atoms(gold)) is None:
        return None
    bonded = re.sub(r"(?<=[A-Za-z0-9)])[-–—=≡](?=[A-Z(])", "", claim.strip(" ."))  # a structure's bonds
    said = _atoms(bonded) if " " not in bonded else None
    answer = bonded if said is not None else head(claim, question)[0]
    if said is None and (said := _atoms(answer)) is None:  # a compound's name where its formula is asked
        return None if re.search(r"\d|[A-Z].*[A-Z]", answer) else Finding(
            Found.UNSURE, "formula", "a name where a formula is asked")
    if said != wanted:
        return Finding(Found.CONFLICT, "formula", "other atoms than the gold's formula")
    written = [_written(text) for text in (answer, gold)]
    if written[0] == written[1] or any(_molecular(text) for text in written):
        return Finding(Found.MATCH, "formula", "the gold's atoms")
    return Finding(Found.UNSURE, "formula", "the gold's atoms in another structure (maybe an isomer)")


__all__ = ["compare_formula"]
