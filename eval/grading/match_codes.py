"""Match kind `code`: a currency, a chemical element or a unit named by its standard code or its name.

The standards come from libraries: ISO 4217 currencies from pycountry, the elements from periodictable,
units from pint. A claim and a gold resolving to the same code match, to different ones conflict; what does
not resolve is left to the other kinds. Read only where the question asks for a currency, an element or its
symbol, or a unit, so "Mercury" the planet or a word that happens to be a code is never read as one.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from typing import Any

from factprobe.eval.core.normalize import strip_accents
from factprobe.eval.grading.match_text import Finding, Found, head, words
from factprobe.eval.grading.match_units import unit_registry

_CURRENCY_ASKED = re.compile(r"\bcurrenc(?:y|ies)\b|\biso\s*4217\b", re.IGNORECASE)
_UNIT_ASKED = re.compile(r"\bunits?\b", re.IGNORECASE)
_ELEMENT_ASKED = re.compile(r"\b(?:chemical\s+)?(?:element|symbol)s?\b|\bmetal\b|\bnoble\s+gas\b", re.IGNORECASE)


def _key(text: str) -> str:
    """Lower case, no accents or punctuation, no leading article."""
    text = re.sub(r"[^\w\s]", " ", strip_accents(text).casefold())
    return re.sub(r"^(?:the|a|an)\s+", "", re.sub(r"\s+", " ", text).strip())


@cache
def _currencies() -> tuple[dict[str, str], dict[str, str], frozenset[str]]:
    """ISO 4217: full names to codes, the last word of a name to its code where no other currency's
    name ends in it (not a word several end in, such as "dollar"), and the codes whose name is one word."""
    import pycountry  # only where a currency is asked

    names = {_key(c.name): c.alpha_3 for c in pycountry.currencies}
    endings = Counter(name.split()[-1] for name in names)
    last = {name.split()[-1]: code for name, code in names.items() if endings[name.split()[-1]] == 1}
    return names, last, frozenset(code for name, code in names.items() if " " not in name)


def _currency(text: str) -> str | None:
    """The ISO 4217 code a text names: a code, a full name, or a word that ends one current
    currency's name alone, with a country's word before it only where that name is the one word; a
    former currency whose last word ends a current currency's name of two words (its own country's
    word first) does not resolve to it."""
    names, last, one_word = _currencies()
    if re.fullmatch(r"[A-Z]{3}", text.strip()):
        return text.strip() if text.strip() in names.values() else None
    key = _key(text)
    if key in names:
        return names[key]
    words = key.split()
    code = last.get(words[-1]) if words else None
    # a current name with its own country's word first: another country's word before it is not it
    return code if len(words) == 1 or code in one_word else None


@cache
def _elements() -> dict[str, str]:
    """Element names (lower case) and symbols (as written) to symbols; periodictable leaves out the neutron."""
    import periodictable  # only where an element is asked

    found = {key: el.symbol for el in periodictable.elements for key in (el.name.lower(), el.symbol)}
    return found | {"aluminium": "Al", "sulphur": "S", "caesium": "Cs"}  # the other spellings of three names


def _element(text: str) -> str | None:
    """The symbol of the element a text names by its symbol (case as written) or its name."""
    text = text.strip(" .")
    table = _elements()
    return table.get(text) if re.fullmatch(r"[A-Z][a-z]?", text) else table.get(_key(text))


def _unit(text: str) -> Any:
    """The unit a text names by its symbol (case as written), its name (any case) or its base units
    ("kg·m/s²"): pint's unit, or None."""
    text = re.sub(r"^(?:the|a|an)\s+", "", text.strip(" ."), flags=re.IGNORECASE).replace("·", "*")
    if not text or len(text.split()) > 3:
        return None
    for form in dict.fromkeys([text, text.lower()]):
        try:
            return unit_registry().parse_units(form)
        except Exception:  # pint raises several kinds for a word that is no unit
            continue
    return None


def _same_unit(one: Any, other: Any) -> bool:
    """One unit is the other: two named units by name (two named units stay two even where they share
    their base units); a unit written in base units by a factor of 1 to the other (N and kg·m/s²)."""
    if one == other:
        return True
    if _named(one) and _named(other):
        return False
    try:
        return abs(float(unit_registry().Quantity(1, one).to(other).magnitude) - 1) < 1e-9
    except Exception:  # pint's DimensionalityError: another kind of unit
        return False


def _named(unit: Any) -> bool:
    """A single named unit ("gray"), not a product or quotient of units."""
    return re.fullmatch(r"\w+", str(unit)) is not None


def _another_of_its_word(answer: str, detail: str, gold: str) -> bool:
    """The detail names a currency ending in the answer's word that is not the gold ("X (the Y X)")."""
    word = _key(answer).split()[-1:]
    found = re.findall(rf"\b((?:[A-Z][\w-]*\s+)+{re.escape(word[0])})\b", detail, re.IGNORECASE) if word else []
    return any(_key(name) not in _key(gold) for name in found)


def compare_code(claim: str, gold: str, question: str) -> Finding | None:
    """The claim's head against the gold as a currency, a unit or an element (see the module); None
    when the question asks for none of them or either side does not resolve."""
    answer, detail = head(claim, question)
    if not set(words(answer)) - set(words(question)):
        return None  # the question's own words ("which element has the symbol W?" "W")
    if _CURRENCY_ASKED.search(question):
        wanted, said = _currency(gold), _currency(answer)
        if wanted and said and _another_of_its_word(answer, detail, gold):
            return Finding(Found.UNSURE, "code", "the detail names another currency of the answer's word")
        if wanted and said:
            same = said == wanted
            return Finding(Found.MATCH if same else Found.CONFLICT, "code", f"the same ISO 4217 currency ({wanted})"
                           if same else f"another ISO 4217 currency ({said}, not {wanted})")
    if _UNIT_ASKED.search(question) and (unit := _unit(gold)) is not None and (named := _unit(answer)) is not None:
        same = _same_unit(named, unit)
        return Finding(Found.MATCH if same else Found.CONFLICT, "code",
                       f"the same unit ({unit})" if same else f"another unit ({named}, not {unit})")
    if _ELEMENT_ASKED.search(question) and (wanted := _element(gold)) and (said := _element(answer)):
        same = said == wanted
        return Finding(Found.MATCH if same else Found.CONFLICT, "code",
                       f"the same element ({wanted})" if same else f"another element ({said}, not {wanted})")
    return None


__all__ = ["compare_code"]
