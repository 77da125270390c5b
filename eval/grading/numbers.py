"""Quantities in text: value, precision (the last significant figure) and unit, and their comparison.

A plain count is exact; trailing zeros are not significant with a multiplier ("120k"), an
approximate wording, or in a measured gold of four digits or more ("552,700 km"). Thousands may be
grouped with commas or spaces; a comma before one, two or four digits and more is a decimal comma.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from decimal import Decimal
from enum import Enum

from factprobe.eval.grading.phrases import APPROXIMATE, LOWER_BOUND, UPPER_BOUND
from factprobe.eval.grading.spelled import spelled_to_digits

# Each line: a dimension, then "factor: aliases" per unit, with the factor to the dimension's base
# unit (and "@offset"), "+" for a word that also takes a plural "s": base = (value + offset) * factor.
_TABLE = """
length  1: m, meter+, metre+ | 1000: km, kilometer+, kilometre+ | 0.01: cm, centimeter+, centimetre+
length  0.001: mm, millimeter+, millimetre+ | 0.3048: ft, foot, feet | 0.9144: yd, yard+ | 1609.344: mi, mile+
length  0.0254: inch, inches
mass    1: kg, kilogram+, kilo+ | 0.001: g, gram+ | 1000: t, tonne+, metric ton+ | 0.45359237: lb, lbs, pound+
mass    0.028349523125: oz, ounce+
area    1: m2, m², sq m, square meter+, square metre+ | 10000: ha, hectare+ | 4046.8564224: acre+
area    1000000: km2, km², sq km, square kilometer+, square kilometre+
area    2589988.110336: sq mi, square mile+, mi2, mi²
volume  1: l, liter+, litre+ | 0.001: ml, milliliter+, millilitre+
time    1: s, sec+, second+ | 60: min+, minute+ | 3600: h, hr+, hour+ | 86400: day+ | 604800: week+
speed   1: km/h, kph, kmh, kilometers per hour, kilometres per hour | 1.609344: mph, miles per hour
speed   3.6: m/s, meters per second, metres per second | 1.852: knot+, kn | 5793.6384: mi/s, miles per second
speed   3600: km/s, kilometers per second, kilometres per second
information  1: bit+ | 8: byte+
percent  1: %, percent, per cent, pct
temperature  1@273.15: °c, c, celsius, degrees celsius, degrees c, degrees centigrade | 1: kelvin+, °k, k
temperature  5/9@459.67: °f, f, fahrenheit, degrees fahrenheit, degrees f
usd  1: $, us$, usd, dollar+, us dollars
eur  1: €, eur, euro+
gbp  1: £, gbp, pounds sterling, sterling
jpy  1: ¥, jpy, yen
"""


def _read_table(table: str) -> tuple[dict[str, tuple[str, Decimal]], dict[str, Decimal]]:
    """Each alias's (dimension, factor) and offset."""
    units: dict[str, tuple[str, Decimal]] = {}
    offsets: dict[str, Decimal] = {}
    for line in table.strip().splitlines():
        dimension, rest = line.split(maxsplit=1)
        for unit in rest.split(" | "):
            factor, _, aliases = unit.partition(": ")
            ratio, _, offset = factor.partition("@")
            top, _, bottom = ratio.partition("/")
            for alias in aliases.split(", "):
                for form in (alias[:-1], alias[:-1] + "s") if alias.endswith("+") else (alias,):
                    units[form] = (dimension, Decimal(top) / Decimal(bottom or 1))
                    offsets[form] = Decimal(offset or 0)
    return units, offsets


_UNITS, _OFFSETS = _read_table(_TABLE)
_SCALE_WORDS = ((3, "k thousand"), (6, "million mn mln"), (9, "billion bn"), (12, "trillion tn"))
_MULTIPLIERS = {word: Decimal(10) ** power for power, names in _SCALE_WORDS for word in names.split()}
_UNIT_ALT = "|".join(sorted((re.escape(u) for u in _UNITS), key=len, reverse=True))
_NUMBER = re.compile(
    r"(?P<cur>us\$|[$€£¥])?\s?(?P<int>\d{1,3}(?:,\d{3})+(?!\d)|\d{1,3}(?:[ \u00a0\u202f\u2009]\d{3})+(?![\d,.])|\d+)"
    r"(?:\.(?P<frac>\d+)|,(?P<cfrac>\d{1,2}|\d{4,})(?![\d,]))?"
    r"(?:\s?[x×*]\s?10\s?\^\s?(?P<exp>[-−]?\d+)|e(?P<exp2>[-−]?\d+)\b)?"
    r"(?:(?:\s?(?P<mult>thousand|million|billion|trillion|mln|mn|bn|tn)|(?P<multk>k))\b)?"  # "12k"; "12 K" is kelvin
    r"(?:\s?(?P<unit>" + _UNIT_ALT + r")(?![\w]))?",
    re.IGNORECASE,
)
# A bound, then "a" and a unit or scale ("at most a litre", "over a million"): one of it ("about a …" or
# "a little over a …" says no precision, so it is left as words).
# A charge's sign written after its figure ("1−", "a 2− ion"), not a suspended hyphen ("a 2- or 3-day trip").
_CHARGE_SIGN = re.compile(r"−(?=[\s.,;)]|$)|-(?=[.,;)]|$|\s+(?:charge|ion)\b)")
_ONE_OF = re.compile(r"(?<!little\s)(?<!just\s)(?<!slightly\s)\b(over|under|more\s+than|less\s+than|fewer\s+than"
                     r"|at\s+least|at\s+most|up\s+to)\s+an?\s+(?=(?:" + _UNIT_ALT
                     + r"|hundred|thousand|million|billion)\b)", re.IGNORECASE)


def one_for_a(text: str) -> str:
    """ "a"/"an" after a bound, before a unit or a scale, written as the figure 1."""
    return _ONE_OF.sub(r"\1 1 ", text)


_ORDINAL = re.compile(r"^(?:st|nd|rd|th)\b", re.IGNORECASE)
_CODE_PREFIX = re.compile(r"^[xXbBoO][0-9a-fA-F]")  # a hexadecimal, binary or octal literal


class Relation(str, Enum):
    """How an answer's figure relates to the gold figure."""

    MATCH = "match"              # rounds to the gold at the gold's precision
    COARSER = "coarser"          # agrees with the gold but is less precise ("4,900" for 4,884)
    BOUND_OK = "bound_ok"        # a bound the gold satisfies ("more than 50k" for 120k)
    CONFLICT = "conflict"        # contradicts the gold
    INCOMPARABLE = "incomparable"  # other dimension (a year, a different kind of unit)
    EDGE = "edge"                # exactly half a unit of the gold's last significant figure away


@dataclass(frozen=True)
class Quantity:
    """One figure found in text."""

    value: Decimal
    step: Decimal          # the place of the last significant figure
    dimension: str | None  # None: no measuring unit (a count, or a unit the question implies)
    factor: Decimal        # to the dimension's base unit
    approximate: bool
    bound: str | None      # "lower" ("more than"), "upper" ("under") or None
    looks_like_year: bool
    start: int
    end: int
    text: str
    offset: Decimal = Decimal(0)  # added before the factor (temperatures)

    @property
    def base(self) -> Decimal:
        return (self.value + self.offset) * self.factor


def _step(digits: str, fraction: str | None, coarse_zeros: bool) -> Decimal:
    """The place of the last significant figure; trailing zeros count only when not `coarse_zeros`."""
    if fraction:
        return Decimal(1).scaleb(-len(fraction))
    return Decimal(1).scaleb(len(digits) - len(digits.rstrip("0")) if coarse_zeros and digits.strip("0") else 0)


def find_quantities(text: str) -> list[Quantity]:
    """Every figure in the text, with unit, precision and approximate wording."""
    text = spelled_to_digits(text)
    found: list[Quantity] = []
    for match in _NUMBER.finditer(text):
        start = match.start("cur") if match.group("cur") else match.start("int")
        before = text[:start]
        if before[-1:].isalnum() or before[-1:] in "/." and before[-2:-1].isdigit():
            continue  # part of a code or a date
        if _ORDINAL.match(text[match.end():]) or _CODE_PREFIX.match(text[match.end():]) or (
                not match.group("unit") and text[match.end():match.end() + 1].isalpha()):
            continue  # "21st"; the "0" of "0xFF" or "0b1010"; a code ("221B")
        integer, mult = re.sub(r"[,\s]", "", match.group("int")), match.group("mult") or match.group("multk")
        fraction = match.group("frac") or match.group("cfrac")  # "2,71828": a decimal comma
        multiplier = _MULTIPLIERS.get((mult or "").lower(), Decimal(1))
        exponent = match.group("exp") or match.group("exp2")
        if exponent:
            multiplier *= Decimal(10) ** int(exponent.replace("−", "-"))
        currency = match.group("cur")
        unit = (match.group("unit") or "").lower()
        if unit == "m" and currency:
            unit, multiplier = "", Decimal(10) ** 6
        unsigned = re.sub(r"(?:[-−]|\b(?:minus|negative)\s+)$", "", before)  # "about −39": the word before the sign
        approx = bool(APPROXIMATE.search(unsigned[-25:]))
        coarse = approx or multiplier != 1 or bool(exponent)
        value = Decimal(integer + ("." + fraction if fraction else "")) * multiplier
        if re.search(r"(?:^|[\s(])[-−]$|\b(?:minus|negative)\s+$", before, re.IGNORECASE) or (
                not unit and _CHARGE_SIGN.match(text, match.end())):
            value = -value  # "-40 °C", "minus 40 °C", a charge "2−"; not the dash of a range ("10-12")
        step = _step(integer, fraction, coarse) * multiplier
        unit_key = unit or (currency or "").lower()
        dimension, factor = _UNITS.get(unit_key, (None, Decimal(1)))
        near = unsigned[-25:]
        bound = "lower" if LOWER_BOUND.search(near) else "upper" if UPPER_BOUND.search(near) else None
        year_like = (not fraction and not mult and not unit and not currency and match.group("int").isdigit()
                     and len(integer) == 4 and 1000 <= int(integer) <= 2100)
        found.append(Quantity(value, step, dimension, factor, approx, bound, year_like,
                              start, match.end(), text[start:match.end()].strip(), _OFFSETS.get(unit_key, Decimal(0))))
    return found


def table_unit(text: str) -> bool:
    """The text is one of the table's units ("km", "miles per hour")."""
    return text.strip().lower() in _UNITS


def written_in_full(quantity: Quantity) -> bool:
    """The figure is written digit by digit, without a multiplier or exponent ("5,730", not "179 thousand")."""
    match = _NUMBER.match(quantity.text)
    return match is not None and not (match.group("mult") or match.group("exp") or match.group("exp2"))


def unit_asked(question: str) -> tuple[str, Decimal, Decimal] | None:
    """The unit a question asks the answer in ("in metres", "how many kilometres"): dimension, factor, offset."""
    match = re.search(r"\b(?:in|how\s+many|number\s+of)\s+(?:[A-Z][a-z]+\s+)?(" + _UNIT_ALT + r")\b", question,
                      re.IGNORECASE)  # a capitalised word between: "how many Earth days"
    if match is None or len(match.group(1)) < 2:
        return None
    alias = match.group(1).lower()
    return (*_UNITS[alias], _OFFSETS[alias])


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
    # A measured gold's trailing zeros are rounding ("552,700 km" is known to the hundred): only for a
    # whole figure with a unit and four digits or more, keeping three significant figures; a count
    # ("70,000 spectators") and a short figure ("65 °C") stay exact.
    digits = str(abs(int(quantity.value)))
    zeros = min(len(digits) - len(digits.rstrip("0")), len(digits) - 3)
    whole = quantity.dimension is not None and quantity.step == 1 and quantity.value % 1 == 0
    return replace(quantity, step=Decimal(10) ** zeros) if whole and len(digits) >= 4 and zeros > 0 else quantity


def relate(gold: Quantity, answer: Quantity) -> Relation:
    """How the answer's figure stands to the gold's (SimpleQA's last-significant-figure rule)."""
    if gold.dimension and answer.dimension and gold.dimension != answer.dimension:
        return Relation.INCOMPARABLE
    factor, offset = (gold.factor, gold.offset) if answer.dimension is None else (answer.factor, answer.offset)
    value, step = (answer.value + offset) * factor, answer.step * factor
    target, target_step = gold.base, gold.step * gold.factor
    half, tolerance = target_step / 2, target_step * Decimal("1e-9")
    if answer.bound == "lower":
        return Relation.BOUND_OK if target > value else Relation.CONFLICT
    if answer.bound == "upper":
        return Relation.BOUND_OK if target < value else Relation.CONFLICT
    if abs(abs(value - target) - half) <= tolerance and step <= target_step + tolerance:
        return Relation.EDGE  # exactly half a unit away: rounds either way, so the rules cannot tell
    if abs(value - target) < half and step <= target_step + tolerance or value == target and answer.step < 1:
        return Relation.MATCH  # to the gold's last figure, or its value with the zeros after the point dropped
    converted = answer.dimension is not None and gold.dimension is not None and (
        answer.factor != gold.factor or answer.offset != gold.offset)
    if converted and value == target and answer.step == 1 and (answer.factor / gold.factor) % 1 == 0:
        return Relation.MATCH  # a whole number of a larger unit, exactly the gold ("3 bytes" for 24 bits)
    needed = significant_figures(gold.value, gold.step, trailing_zeros=False)  # one fewer from three on:
    if converted and abs(value - target) <= half + step / 2 + tolerance and significant_figures(  # 324 m, 1,063 ft
            answer.value, answer.step) >= needed - (needed >= 3):
        return Relation.MATCH  # a conversion about as precise as the gold, in significant figures
    if abs(value - target) <= half + step / 2 + tolerance and step > target_step:
        return Relation.COARSER
    return Relation.CONFLICT

