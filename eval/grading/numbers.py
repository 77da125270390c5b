"""Quantities in text: value, precision (the last significant figure) and unit, and their comparison.

A gold figure is matched to its last significant figure (SimpleQA): the answer, converted to the
gold's unit, must round to the gold and be at least as precise. A plain integer is exact; trailing
zeros count as not significant only with a multiplier ("120k", "3 million") or an approximate
wording, so "70,000" asks for 70,000 while "70k" means 65k-75k.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from enum import Enum

from factprobe.eval.grading.phrases import APPROXIMATE, LOWER_BOUND, UPPER_BOUND
from factprobe.eval.grading.spelled import spelled_to_digits

# alias -> (dimension, factor to the dimension's base unit)
_UNITS: dict[str, tuple[str, Decimal]] = {}


def _add(dimension: str, factor: str, *aliases: str) -> None:
    for alias in aliases:
        _UNITS[alias] = (dimension, Decimal(factor))


_add("length", "1", "m", "meter", "meters", "metre", "metres")
_add("length", "1000", "km", "kilometer", "kilometers", "kilometre", "kilometres")
_add("length", "0.01", "cm", "centimeter", "centimeters", "centimetre", "centimetres")
_add("length", "0.001", "mm", "millimeter", "millimeters", "millimetre", "millimetres")
_add("length", "0.3048", "ft", "foot", "feet")
_add("length", "0.0254", "inch", "inches")  # not "in": "206 in adults"
_add("length", "0.9144", "yd", "yard", "yards")
_add("length", "1609.344", "mi", "mile", "miles")
_add("mass", "1", "kg", "kilogram", "kilograms", "kilo", "kilos")
_add("mass", "0.001", "g", "gram", "grams")
_add("mass", "1000", "t", "tonne", "tonnes", "metric ton", "metric tons")
_add("mass", "0.45359237", "lb", "lbs", "pound", "pounds")
_add("mass", "0.028349523125", "oz", "ounce", "ounces")
_add("area", "1", "m2", "m²", "sq m", "square meter", "square meters", "square metre", "square metres")
_add("area", "1000000", "km2", "km²", "sq km", "square kilometer", "square kilometers",
     "square kilometre", "square kilometres")
_add("area", "10000", "ha", "hectare", "hectares")
_add("area", "4046.8564224", "acre", "acres")
_add("area", "2589988.110336", "sq mi", "square mile", "square miles", "mi2", "mi²")
_add("volume", "1", "l", "liter", "liters", "litre", "litres")
_add("volume", "0.001", "ml", "milliliter", "milliliters", "millilitre", "millilitres")
_add("time", "1", "s", "sec", "secs", "second", "seconds")
_add("time", "60", "min", "mins", "minute", "minutes")
_add("time", "3600", "h", "hr", "hrs", "hour", "hours")
_add("time", "86400", "day", "days")
_add("time", "604800", "week", "weeks")
_add("speed", "1", "km/h", "kph", "kmh", "kilometers per hour", "kilometres per hour")
_add("speed", "1.609344", "mph", "miles per hour")
_add("speed", "3.6", "m/s", "meters per second", "metres per second")
_add("speed", "1.852", "knot", "knots", "kn")
_add("speed", "3600", "km/s", "kilometers per second", "kilometres per second")
_add("speed", "5793.6384", "mi/s", "miles per second")
_add("percent", "1", "%", "percent", "per cent", "pct")
_add("celsius", "1", "°c", "c", "celsius", "degrees celsius", "degrees c")
_add("fahrenheit", "1", "°f", "f", "fahrenheit", "degrees fahrenheit", "degrees f")
_add("usd", "1", "$", "us$", "usd", "dollar", "dollars", "us dollars")
_add("eur", "1", "€", "eur", "euro", "euros")
_add("gbp", "1", "£", "gbp", "pounds sterling", "sterling")
_add("jpy", "1", "¥", "jpy", "yen")

_MULTIPLIERS = {"k": Decimal(1000), "thousand": Decimal(1000), "million": Decimal(10) ** 6,
                "mn": Decimal(10) ** 6, "mln": Decimal(10) ** 6, "billion": Decimal(10) ** 9,
                "bn": Decimal(10) ** 9, "trillion": Decimal(10) ** 12, "tn": Decimal(10) ** 12}
_UNIT_ALT = "|".join(sorted((re.escape(u) for u in _UNITS), key=len, reverse=True))
_NUMBER = re.compile(
    r"(?P<cur>us\$|[$€£¥])?\s?(?P<int>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<frac>\d+))?"
    r"(?:\s?[x×*]\s?10\s?\^\s?(?P<exp>[-−]?\d+)|e(?P<exp2>[-−]?\d+)\b)?"
    r"(?:\s?(?P<mult>thousand|million|billion|trillion|mln|mn|bn|tn|k)\b)?"
    r"(?:\s?(?P<unit>" + _UNIT_ALT + r")(?![\w]))?",
    re.IGNORECASE,
)
_ORDINAL = re.compile(r"^(?:st|nd|rd|th)\b", re.IGNORECASE)


class Relation(str, Enum):
    """How an answer's figure relates to the gold figure."""

    MATCH = "match"              # rounds to the gold at the gold's precision
    COARSER = "coarser"          # agrees with the gold but is less precise ("4,900" for 4,884)
    BOUND_OK = "bound_ok"        # a bound the gold satisfies ("more than 50k" for 120k)
    CONFLICT = "conflict"        # contradicts the gold
    INCOMPARABLE = "incomparable"  # other dimension (a year, a different kind of unit)


@dataclass(frozen=True)
class Quantity:
    """One figure found in text."""

    value: Decimal
    step: Decimal          # the place of the last significant figure
    dimension: str | None  # None: no measuring unit (a count, or a unit the question implies)
    factor: Decimal
    approximate: bool
    bound: str | None      # "lower" ("more than"), "upper" ("under") or None
    looks_like_year: bool
    start: int
    end: int
    text: str

    @property
    def base(self) -> Decimal:
        return self.value * self.factor

    @property
    def base_step(self) -> Decimal:
        return self.step * self.factor


def _step(integer: str, fraction: str | None, coarse_zeros: bool) -> Decimal:
    if fraction:
        return Decimal(1).scaleb(-len(fraction))
    digits = integer.replace(",", "")
    zeros = len(digits) - len(digits.rstrip("0")) if coarse_zeros and digits.strip("0") else 0
    return Decimal(1).scaleb(zeros)


def find_quantities(text: str) -> list[Quantity]:
    """Every figure in the text, with unit, precision and approximate wording."""
    text = spelled_to_digits(text)
    found: list[Quantity] = []
    for match in _NUMBER.finditer(text):
        start = match.start("cur") if match.group("cur") else match.start("int")
        before = text[:start]
        if before[-1:].isalnum() or before[-1:] in "/." and before[-2:-1].isdigit():
            continue  # part of a code or a date
        if _ORDINAL.match(text[match.end():]):
            continue
        integer, fraction, mult = match.group("int"), match.group("frac"), match.group("mult")
        multiplier = _MULTIPLIERS.get((mult or "").lower(), Decimal(1))
        exponent = match.group("exp") or match.group("exp2")
        if exponent:
            multiplier *= Decimal(10) ** int(exponent.replace("−", "-"))
        currency = match.group("cur")
        unit = (match.group("unit") or "").lower()
        if unit == "m" and currency:
            unit, multiplier = "", Decimal(10) ** 6
        approx = bool(APPROXIMATE.search(before[-25:]))
        coarse = approx or multiplier != 1 or bool(exponent)
        value = Decimal(integer.replace(",", "") + ("." + fraction if fraction else "")) * multiplier
        step = _step(integer, fraction, coarse) * multiplier
        dimension, factor = _UNITS.get(unit or (currency or "").lower(), (None, Decimal(1)))
        bound = "lower" if LOWER_BOUND.search(before[-25:]) else "upper" if UPPER_BOUND.search(before[-25:]) else None
        year_like = (not fraction and not mult and not unit and not currency and "," not in integer
                     and len(integer) == 4 and 1000 <= int(integer) <= 2100)
        found.append(Quantity(value, step, dimension, factor, approx, bound, year_like,
                              start, match.end(), text[start:match.end()].strip()))
    return found


def unit_asked(question: str) -> tuple[str, Decimal] | None:
    """The unit a question asks the answer in ("in metres", "how many kilometres"), if any."""
    match = re.search(r"\b(?:in|how\s+many|number\s+of)\s+(" + _UNIT_ALT + r")\b", question, re.IGNORECASE)
    if match is None or len(match.group(1)) < 2:
        return None
    return _UNITS[match.group(1).lower()]


def find_ranges(text: str) -> list[tuple[Quantity, Quantity]]:
    """Pairs of figures written as a range: "between 1,000 and 1,500", "1,000-1,500", "10 to 12"."""
    quantities = find_quantities(text)
    spelled = spelled_to_digits(text)
    ranges = []
    for low, high in zip(quantities, quantities[1:]):
        gap = spelled[low.end:high.start]
        between = re.search(r"\bbetween\s*$", spelled[:low.start], re.IGNORECASE)
        if re.fullmatch(r"\s*(?:-|–|to)\s*", gap) or (between and re.fullmatch(r"\s*and\s*", gap)):
            ranges.append((low, high))
    return ranges


def significant_figures(value: Decimal, step: Decimal, *, trailing_zeros: bool = True) -> int:
    """How many significant figures a value written to this step has (at least one).

    With `trailing_zeros=False` an integer's trailing zeros do not count ("6,190" has three).
    """
    if value == 0:
        return 1
    figures = max(1, abs(value).adjusted() - step.adjusted() + 1)
    if not trailing_zeros and step >= 1 and value == value.to_integral_value():
        digits = str(abs(int(value / step)))
        figures = max(1, len(digits.rstrip("0")))
    return figures


def gold_quantity(gold: str) -> Quantity | None:
    """The gold's figure when the gold is a figure with at most a few words of unit or label."""
    text = spelled_to_digits(gold).strip().rstrip(".")
    quantities = find_quantities(text)
    if len(quantities) != 1:
        return None
    quantity = quantities[0]
    rest = (text[:quantity.start] + " " + text[quantity.end:]).strip(" ,")
    rest = re.sub(r"^(?:about|around|approximately|roughly|some|over|more than|nearly|almost)\b", "", rest,
                  flags=re.IGNORECASE).strip()
    if len(rest.split()) > 3 or re.search(r"\d", rest):
        return None
    if rest and rest[:1].isupper() and text.strip()[:1].isalpha():
        return None  # "Apollo 11", "Season 7": a name with a number, not a figure
    return quantity


def _half(step: Decimal) -> Decimal:
    return step / 2


def _figures_needed(gold: Quantity) -> int:
    """Significant figures a converted answer needs: the gold's, one fewer from three on (324 m for 1,063 ft)."""
    figures = significant_figures(gold.value, gold.step, trailing_zeros=False)
    return figures - 1 if figures >= 3 else figures


def relate(gold: Quantity, answer: Quantity) -> Relation:
    """How the answer's figure stands to the gold's (SimpleQA's last-significant-figure rule)."""
    if gold.dimension and answer.dimension and gold.dimension != answer.dimension:
        return Relation.INCOMPARABLE
    factor = gold.factor if answer.dimension is None else answer.factor
    value, step = answer.value * factor, answer.step * factor
    target, target_step = gold.base, gold.base_step
    tolerance = target_step * Decimal("1e-9")
    if answer.bound == "lower":
        return Relation.BOUND_OK if target > value else Relation.CONFLICT
    if answer.bound == "upper":
        return Relation.BOUND_OK if target < value else Relation.CONFLICT
    if abs(value - target) <= _half(target_step) + tolerance and step <= target_step + tolerance:
        return Relation.MATCH
    converted = answer.dimension is not None and gold.dimension is not None and answer.factor != gold.factor
    if converted and abs(value - target) <= _half(target_step) + _half(step) + tolerance \
            and significant_figures(answer.value, answer.step) >= _figures_needed(gold):
        return Relation.MATCH  # a conversion about as precise as the gold, in significant figures
    if abs(value - target) <= _half(step) + _half(target_step) + tolerance and step > target_step:
        return Relation.COARSER
    return Relation.CONFLICT


def consistent(gold: Quantity, answer: Quantity) -> bool:
    """True when the answer's figure agrees with the gold at the answer's own precision."""
    return relate(gold, answer) in (Relation.MATCH, Relation.COARSER, Relation.BOUND_OK,
                                    Relation.INCOMPARABLE)
