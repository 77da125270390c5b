"""Match kinds for values: `number` (figures with units and tolerance) and `pair` (a score, a vote
or a season, with its winner); dates are the `dates` module's."""

from __future__ import annotations

import re
from dataclasses import replace
from unicodedata import numeric

from factprobe.eval.grading.dates import find_dates
from factprobe.eval.grading.match_text import Finding, Found, content, head, words
from factprobe.eval.grading.match_units import compare_units
from factprobe.eval.grading.numbers import (
    Quantity,
    Relation,
    find_quantities,
    find_ranges,
    gold_quantity,
    one_for_a,
    relate,
    unit_asked,
    written_in_full,
)
from factprobe.eval.grading.reading import ADDED
from factprobe.eval.grading.spelled import spelled_to_digits

_CLOCK = re.compile(r"(?<![\d:])(\d{1,2}):(\d{2})(?::(\d{2}))?(\.\d+)?(?![\d:])")
_JOINER = re.compile(r"\s*(?:,|and)?\s*", re.IGNORECASE)
_ROUGH_QUESTION = re.compile(r"\b(?:roughly|approximately|approx|estimated|(?:about|around)\s+how)\b", re.IGNORECASE)
_APPROXIMATORS = frozenset("about around approximately roughly nearly almost some circa over under more less than "
                           "fewer least most up just exactly precisely minus negative".split())


def _clock_to_seconds(match: re.Match[str]) -> str:
    first, second, third, fraction = match.groups()
    parts = [int(first), int(second)] + ([int(third)] if third else [])
    seconds = sum(value * 60 ** power for power, value in enumerate(reversed(parts)))
    return f"{seconds}{fraction or ''} seconds"


def _unit_text(quantity: Quantity) -> str:
    return re.sub(r"^[^A-Za-z°%$€£¥]*", "", quantity.text)


# A small power written with a caret ("3^4"), not the exponent of scientific notation (a figure times 10^n).
_POWER = re.compile(r"(?<![\d.×xX*]\s)(?<![\d.×xX*^])\b(\d{1,3})\s*\^\s*(\d{1,2})\b")


_SUPERSCRIPT = re.compile(r"(?<=10)([⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)")
_PLAIN = str.maketrans("⁻⁺⁰¹²³⁴⁵⁶⁷⁸⁹", "-+0123456789")


def figures_text(text: str) -> str:
    """The text with spelled numbers as digits (and "a" after a bound before a unit: "under a mile"), a power
    of ten's superscript exponent written with a caret, small powers worked out ("3^4" is 81), vulgar
    fractions as decimals ("2½" is 2.5), clock times in seconds and compound figures summed."""
    text = re.sub(r"(\d*)([\u00bc-\u00be\u2150-\u215e])", lambda m: f"{int(m[1] or 0) + numeric(m[2]):g}", text)
    text = _SUPERSCRIPT.sub(lambda m: "^" + m[1].translate(_PLAIN), text)  # "10⁻⁵" is "10^-5"
    text = _POWER.sub(lambda m: str(int(m[1]) ** int(m[2])), spelled_to_digits(text))  # "3^4" is 81
    text = _CLOCK.sub(_clock_to_seconds, one_for_a(text))
    text = re.sub(r"(?<=[A-Za-z])\s+([A-Za-z]+)\s*(?:\^\s*[-−]|⁻)([12²])\b",  # "m s^-2" is "m/s²"
                  lambda m: f"/{m[1]}{'²' * (m[2] != '1')}", text)
    text = re.sub(r"(?<=\d)\s*yrs?\b", " years", re.sub(r"\bmol\b", "mole", text))  # abbreviations written out
    while True:
        quantities = find_quantities(text)
        pair = next(((a, b) for a, b in zip(quantities, quantities[1:]) if a.dimension and a.dimension == b.dimension
                     and a.factor > b.factor and _JOINER.fullmatch(text[a.end:b.start])), None)
        if pair is None:
            return text
        first, last = pair
        total = (first.base + last.base) / last.factor - last.offset
        text = f"{text[:first.start]}{format(total.normalize(), 'f')} {_unit_text(last)}{text[last.end:]}"


def _gold_figure(gold: str) -> tuple[Quantity, set[str]] | None:
    """The gold's figure and the words beside it that are not its unit ("pairs" in "12 pairs")."""
    if (quantity := gold_quantity(text := figures_text(gold))) is None:
        return None
    return quantity, set(words(text[:quantity.start] + " " + text[quantity.end:])) - _APPROXIMATORS


_ACCEPTABLE = re.compile(r"\s*[(\[]?\s*acceptable\s+range\s*:?\s*(?:anything\s+)?(?:between\s+|from\s+)?"
                         r"(?P<range>[^)\]]*)[)\]]?\s*$", re.IGNORECASE)


def _within_range(claim: str, gold: str, question: str) -> Finding | None:
    """A gold that states an acceptable range (SimpleQA Verified): a value inside it matches."""
    if (stated := _ACCEPTABLE.search(gold)) is None:
        return None
    bounds = find_ranges(figures_text(stated["range"].replace(" and ", " to ")))
    figure = _gold_figure(gold[:stated.start()])
    if not bounds or figure is None:
        return None
    (low, high), wanted = bounds[0], figure[0]
    answer = head(figures_text(claim), question)[0]
    found = [q for q in find_quantities(answer) if relate(wanted, q) is not Relation.INCOMPARABLE]
    if len(found) != 1 or found[0].bound is not None:
        return Finding(Found.UNSURE, "number", "not one exact figure to hold against the acceptable range")
    value = found[0].base if found[0].dimension else (found[0].value + wanted.offset) * wanted.factor
    scale = (low.factor if low.dimension else wanted.factor), (high.factor if high.dimension else wanted.factor)
    inside = low.value * scale[0] <= value <= high.value * scale[1]
    return Finding(Found.MATCH if inside else Found.CONFLICT, "number",
                   "inside the gold's acceptable range" if inside else "outside the gold's acceptable range")


def _items(detail: str) -> int:
    """How many things a detail after a count lists ("Ann, Bo and Cy": 3; "2 red and 1 blue": 3); 0 when
    the detail is not such a list."""
    items = [item for item in re.split(r",|\band\b|\bplus\b", detail.lstrip(" ,:—–-")) if item.strip()]
    if not re.match(r"\s*[,:—–-]", detail) or not items or ADDED.match(items[0]):
        return 0
    counts = [re.match(r"\s*(\d+)\s+\D", item) for item in items]
    return sum(int(c[1]) for c in counts if c) if all(counts) else len(items) if len(items) > 1 else 0


# `vague`: "several", "a few hundred" with no figure, read as the span they usually mean (several: 3 to 9).
# A plural scale, maybe of a further scale ("<scale>s of <scale>s of"), reads as two to ten of it.
_VAGUE = re.compile(r"\b(a\s+few|several|(?:tens|hundreds|thousands|millions)\s+of)(?:\s+(hundred|thousand|million)s?"
                    r"(?:\s+of)?)?\b", re.IGNORECASE)
_SCALES = {"tens": 10, "hundred": 100, "thousand": 1000, "million": 10**6}


def _vague(answer: str, wanted: Quantity, label: set[str]) -> Finding | None:
    """A vague quantity holding the gold is coarser (VAGUE); one the gold is far from (under half its
    span's start, or over twice its end for "a few" and "several") conflicts; nearer, the judge's. None
    without one of the gold's kind."""
    if re.search(r"\d", answer) or not (said := _VAGUE.search(answer)) or not label <= set(words(answer)):
        return None
    first = said[1].lower().split()[0]
    scale = _SCALES.get(first.rstrip("s"), _SCALES.get(first, 1)) * _SCALES.get((said[2] or "").lower(), 1)
    low = (2 if first in ("a", "tens", "hundreds", "thousands", "millions") else 3) * scale
    after = re.sub(r"^of\s+", "", answer[said.end():].strip())
    unit = next(iter(find_quantities(f"{low} {after}")), None)
    if unit is None or relate(wanted, unit) is Relation.INCOMPARABLE:
        return None
    gold = wanted.base / unit.factor - unit.offset if unit.dimension else wanted.value
    ceiling = 20 * scale if first in ("a", "several") else float("inf")  # a plural scale sets no upper bound
    found = Found.VAGUE if low <= gold < 10 * scale else Found.CONFLICT if not low / 2 <= gold < ceiling \
        else Found.UNSURE
    holds = "holds" if found is Found.VAGUE else "may not hold"
    return Finding(found, "number", f"a vague quantity ({said[0]}) that {holds} the gold")


COARSER = "a figure coarser than the gold's"
_DEGREE = {"degree", "deg"}  # of an angle or a temperature: the gold's unit says which
_SYMBOL = re.compile(r"^\s*[A-Za-z]{1,3}\s*=\s*(?=[-−]?\d)")  # a quantity's symbol before its figure
_SEA_LEVEL = re.compile(r"(?<=\S)\s+above\s+(?:mean\s+)?sea[\s-]+level\b", re.IGNORECASE)


def _wanted(gold: str, question: str) -> tuple[Quantity, set[str]] | None:
    """The gold's figure (in the unit the question asks where the gold gives none) and its label words."""
    if (figure := _gold_figure(gold)) is None:
        return None
    wanted, label = figure
    unit = unit_asked(question)
    if wanted.dimension is None and unit is not None:  # "How many days …?": a bare gold counts days
        wanted = replace(wanted, dimension=unit[0], factor=unit[1], offset=unit[2])
    return wanted, label


def _of_its_kind(wanted: Quantity, quantity: Quantity, question: str) -> bool:
    """The figure can be held against the gold's: a unit of its kind, and no measure where things are
    counted (a count asked, then a measure in brackets: the measure restates, it does not count)."""
    counted = wanted.dimension is None and re.search(r"\bhow\s+many\b", question, re.IGNORECASE)
    return relate(wanted, quantity) is not Relation.INCOMPARABLE and not (counted and quantity.dimension)


def comparable_figures(text: str, gold: str, question: str) -> int:
    """How many figures in the text can be held against the gold's figure (0 where the gold is none); a
    year beside them ("since 1990") is a date, not one, unless the gold is a year."""
    if (figure := _wanted(gold, question)) is None:
        return 0
    wanted = figure[0]
    return sum(_of_its_kind(wanted, quantity, question) and (wanted.looks_like_year or not quantity.looks_like_year)
               for quantity in find_quantities(figures_text(text)))


_MODIFIERS = frozenset(words("million billion thousand hundred dozen percent per half times more less fewer over under "
                             "around about nearly almost approximately least most only just additional another extra "
                             "plus minus first second third last next previous each every average somewhere sometime "
                             "between range decade"))


def _frame(answer: str, quantity: Quantity, extra: set[str], label: set[str], question: str) -> bool:
    """The words beside a sentence's one figure are its frame ("Sweden won 6 medals"): a sentence, no word that
    changes the figure ("million", "more", "per"), and the word after the figure (if any) the gold's label,
    its unit or a word of the question."""
    after = set(words(answer[quantity.end:])[:1])
    return len(answer.split()) >= 4 and not extra & _MODIFIERS and after <= (
        label | set(words(question)) | set(words(_unit_text(quantity))))


def compare_number(claim: str, gold: str, question: str) -> Finding | None:
    """The claim's figure against a gold figure; None when the gold is not one figure. The head must
    hold one comparable figure (clock times and compound figures are one): the gold's value to its
    last significant figure in any unit of its kind matches, another conflicts, a bound or rough
    figure that holds it is vague; a coarser figure, words or another figure beside it are the judge's."""
    if (ranged := _within_range(claim, gold, question)) is not None:
        return ranged
    if "pair" not in words(question):  # a count of pairs, where pairs are not asked for, counts twice as many
        claim, gold = (re.sub(r"\b(\d+)\s+pairs\b", lambda m: str(2 * int(m[1])), spelled_to_digits(text))
                       for text in (claim, gold))
    if (figure := _wanted(gold, question)) is None:
        return None
    wanted, label = figure
    answer, detail = head(re.sub(r"^(\s*[\d.,]+)\s*:\s", r"\1, ", figures_text(claim)), question)
    answer = _SYMBOL.sub("", _SEA_LEVEL.sub("", answer))  # where a height is measured from; "n = …"
    units = compare_units(figures_text(claim), figures_text(gold)) or (  # the whole claim: a unit may hold brackets
        compare_units(answer, figures_text(gold)) if not detail.strip() else None)
    if units is not None:
        return units
    if (vague := _vague(answer, wanted, label)) is not None:
        return vague
    asked = {q.value for q in find_quantities(figures_text(question))}
    comparable = [q for q in find_quantities(answer) if _of_its_kind(wanted, q, question)]
    found = [q for q in comparable if q.value not in asked or q.value == wanted.value] or comparable
    for low, high in find_ranges(answer):
        if low.looks_like_year and high.looks_like_year and not wanted.looks_like_year and label != {"year"}:
            continue  # "22 titles between 1987 and 1999": when, not how many
        if label == {"year"} and low.looks_like_year and high.looks_like_year:  # "from year A to B": a span
            span = high.value - low.value
            found_span = Found.MATCH if span == wanted.value else Found.UNSURE if abs(span - wanted.value) <= 1 \
                else Found.CONFLICT
            return Finding(found_span, "number", f"a span of {span} years between two years")
        holds = relate(wanted, replace(low, bound="lower")) is Relation.BOUND_OK and relate(
            wanted, replace(high, bound="upper")) is Relation.BOUND_OK
        return Finding(Found.VAGUE if holds else Found.CONFLICT, "number",
                       "a range that holds the gold" if holds else "a range that excludes the gold")
    if len(found) != 1:
        return Finding(Found.UNSURE, "number", "no comparable figure" if not found else "several figures")
    quantity = found[0]
    extra = set(content(answer[:quantity.start] + " " + answer[quantity.end:], set(words(question))))
    extra -= label | set(words(" ".join(_APPROXIMATORS))) | set(words(_unit_text(quantity))) | _DEGREE
    if not label & {"bc", "bce"}:
        extra -= {"ad", "ce"}  # the era a year without one is in ("AD" or "CE" beside it)
    relation = relate(wanted, quantity)
    dated = [range(m.start, m.end) for m in find_dates(detail)]  # "…, set in 2009", "…, 16 May 2009": not measures
    others = {relate(wanted, q) for q in find_quantities(detail) if _of_its_kind(wanted, q, question) and not (
        wanted.dimension and (q.looks_like_year or any(q.start in span for span in dated)))}
    if (items := _items(detail)) and wanted.dimension is None and wanted.step == 1:  # a count, then its items
        if items != quantity.value:
            return Finding(Found.UNSURE, "number", "a count beside items that do not add up to it")
        if relation is Relation.MATCH:
            return Finding(Found.MATCH, "number", "the gold's count, then as many items")
        others = set()
    if others and others != {relation}:  # "4,806 m (15,768 ft)" restates; "270 — 206 is …" does not
        return Finding(Found.UNSURE, "number", "another figure in the detail")
    same_unit = quantity.factor == (wanted.factor if quantity.dimension else quantity.factor)
    if quantity.approximate and quantity.bound is None and quantity.value == wanted.value and same_unit and (
            written_in_full(quantity) or _ROUGH_QUESTION.search(question)):
        relation = Relation.MATCH  # "about N" for gold N: the gold's own numeral, hedged (or a rough answer asked for)
    if relation is Relation.BOUND_OK or (relation is Relation.COARSER and quantity.approximate):
        return Finding(Found.VAGUE, "number", "a bound or rough figure that holds the gold")
    if (extra or (label and not label <= set(words(figures_text(claim))))) and not _frame(answer, quantity, extra,
                                                                                         label, question):
        return Finding(Found.UNSURE, "number", f"words beside the figure ({' '.join(sorted(extra or label))})")
    if relation is Relation.MATCH and wanted.dimension is None and wanted.step == 1 and quantity.value != wanted.value:
        return Finding(Found.CONFLICT, "number", f"not the gold's whole number ({quantity.text.strip()})")
    outcome, why = {Relation.MATCH: (Found.MATCH, "the gold's value to its last significant figure"),
                    Relation.CONFLICT: (Found.CONFLICT, f"another value ({quantity.text.strip()})"),
                    Relation.EDGE: (Found.UNSURE, "exactly half a unit of the gold's last figure away")}.get(
        relation, (Found.UNSURE, COARSER))
    return Finding(outcome, "number", why)


_NAME = r"(?:the\s+)?(?P<{}>[A-Z][\w.'-]*(?:\s+(?:[A-Z][\w.'-]*|of|de|and))*)"
_ONE = r"(\d+)(?:\s+[A-Za-z]+)?\s*(?:[–—/-]|\bto\b|\band\b)\s*(\d+)(?:\s+(?!to\b|for\b)[A-Za-z]+)?"
_WON = re.compile(_NAME.format("won") + r"\s+(?:won|beat|defeated)\b(?:\s+" + _NAME.format("lost") + r")?"
                  r"\s+(?:by\s+)?", re.IGNORECASE)
_LEAD = re.compile(r"(?:(?:it|the\s+\w+)\s+(?:is|was)\s+)?(?:from\s+|between\s+)?", re.IGNORECASE)
_TO = re.compile(r"\s+(?:to|for)\s+" + _NAME.format("won"))
_SIDES = re.compile(_NAME.format("a") + r"\s+(?P<x>\d+)(?:,?\s+|\s*[–—-]\s*)(?:(?P<y>\d+)\s+" + _NAME.format("b")
                    + r"|" + _NAME.format("c") + r"\s+(?P<z>\d+))\s*(?=[,;(]|\.(?!\d)|$)")


def _score(text: str) -> tuple[tuple[tuple[int, int], ...], str | None] | None:
    """The figures of a score, a vote or a season ("3–1", "eleven to four", "6–2, 6–4", "1987–88") and the
    winner when it is named ("Ajax won 2–0", "2–0 to Ajax", "Ajax 2, Celtic 0", "Ajax 2–0 Celtic")."""
    text = re.sub(r"\b(\d+)[\s-]+all\b", r"\1–\1", spelled_to_digits(text).strip(), flags=re.IGNORECASE)  # a tie
    if sides := _SIDES.match(text):
        first, second = int(sides["x"]), int(sides["y"] or sides["z"])
        winner = sides["a"] if first > second else (sides["b"] or sides["c"]) if second > first else None
        return ((max(first, second), min(first, second)),), winner
    won, pairs = _WON.match(text), list[tuple[int, int]]()
    rest = text[won.end() if won else _LEAD.match(text).end():]  # type: ignore[union-attr]  # _LEAD always matches
    while pair := re.match(r"(?:,\s*|\s+)?" + _ONE if pairs else _ONE, rest):
        pairs.append((int(pair[1]), int(pair[2])))
        rest = rest[pair.end():]
    if len(pairs) == 1 and len(str(pairs[0][0])) == 4 and len(str(pairs[0][1])) == 2:  # a season written short
        pairs = [(pairs[0][0], pairs[0][0] // 100 * 100 + pairs[0][1])]
    if to := (None if won else _TO.match(rest)):
        rest = rest[to.end():]
    if not pairs or not re.match(r"\s*(?:[,;(]|\.(?!\d)|$)", rest):
        return None
    return tuple(pairs), (won or to or {"won": None})["won"]


def compare_pair(claim: str, gold: str, question: str) -> Finding | None:
    """`pair`: a gold score, vote or season against the claim's; None when the gold is not one. Other
    figures conflict; the same figures match unless a winner is named that the gold does not confirm:
    another winner conflicts, a winner the gold leaves unnamed (or figures reversed) is the judge's."""
    if (wanted := _score(gold)) is None:
        return None
    if wanted[1] is None and (said := re.search(r"\(([^()]+)\)\s*$", gold)) and (won := _WON.match(said[1])):
        wanted = (wanted[0], won["won"])  # "3–1 (Ajax beat Celtic)": the winner in brackets
    if (got := _score(claim)) is None:  # figures not read as a score go to the other kinds
        return None if re.search(r"\d", spelled_to_digits(claim)) else Finding(Found.UNSURE, "pair", "no figure")
    (figures, winner), (gold_figures, gold_winner) = got, wanted
    if len(figures) != len(gold_figures):  # a shoot-out or a set beside the score: the judge's
        return Finding(Found.UNSURE, "pair", "another number of figures than the gold's")
    if figures != gold_figures and figures != tuple(pair[::-1] for pair in gold_figures):
        return Finding(Found.CONFLICT, "pair", "other figures than the gold's")
    if winner and gold_winner:
        told, named = set(words(winner)) - {"the"}, set(words(gold_winner)) - {"the"}
        if told <= named or named <= told:
            return Finding(Found.MATCH, "pair", "the gold's figures and winner")
        return Finding(Found.UNSURE if told & named else Found.CONFLICT, "pair", "another winner")
    if figures == gold_figures and not winner:
        return Finding(Found.MATCH, "pair", "the gold's figures in order")
    return Finding(Found.UNSURE, "pair", "a winner the gold does not name" if winner else "the figures reversed")


__all__ = ["COARSER", "comparable_figures", "compare_number", "compare_pair", "figures_text"]
