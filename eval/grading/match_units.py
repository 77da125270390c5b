"""Figures in units beyond the number kind's table ("J/kg", "N·m", "W/m²", "kWh", "miles per gallon").

Read where the gold and the answer are each one figure and one unit that pint parses to the same physical
dimension; the answer's figure in the gold's unit is compared by `numbers.relate`, as the table's units are.
Another dimension, a dimensionless unit, a temperature scale with an offset (the table's) or words beside
the figure: not read here.
"""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal
from functools import cache
from typing import Any

from factprobe.eval.grading.match_text import Finding, Found
from factprobe.eval.grading.numbers import Quantity, Relation, find_quantities, relate, table_unit

# One figure, then a unit: letters, powers ("²", "^-2", "m3"), products, quotients and brackets; no other figure.
_FIGURE_UNIT = re.compile(r"^\s*(?P<figure>[-−]?\d[\d,.\s]*?)\s*(?P<unit>[A-Za-zµΩ°Å](?:[A-Za-zµΩ°Å²³/·*()\s-]"
                          r"|\^\s*[-−]?\d|(?<=[A-Za-z])[23]\b)*?)\s*\.?\s*$")
_POWERS = {"²": "**2", "³": "**3"}


@cache
def unit_registry() -> Any:
    """pint's registry of units, made once."""
    import pint  # only where a unit outside the table is met

    return pint.UnitRegistry()


@cache
def _unit(text: str) -> Any:
    """pint's unit for a unit's text ("N/m²", "W m^-2", "miles per gallon"), or None."""
    text = re.sub(r"\^\s*([-−]?\d)", r"**\1", text.replace("−", "-").replace("·", "*"))
    text = re.sub(r"([A-Za-z])([23])\b", r"\1**\2", re.sub("[²³]", lambda m: _POWERS[m[0]], text))
    try:
        unit = unit_registry().parse_units(text)
        offset = not unit_registry().Quantity(1, unit)._ok_for_muldiv()  # a temperature scale: the table's
    except Exception:  # pint raises several kinds for text that is no unit (or a logarithmic one: "decade")
        return None
    return None if not unit.dimensionality or offset else unit


def _read(match: re.Match[str]) -> tuple[Quantity, Any] | None:
    """The figure and pint's unit after it; None where pint reads no unit or the figure is not one."""
    if (unit := _unit(match["unit"].strip())) is None:
        return None
    figures = find_quantities(match["figure"])
    return (figures[0], unit) if len(figures) == 1 else None


def compare_units(answer: str, gold: str) -> Finding | None:
    """The answer's figure against the gold's where either unit is outside the number kind's table
    (see the module); None where this reading does not apply. The same unit text on both sides, or
    two of the table's, is the table's to compare: pint is not asked."""
    said_text, gold_text = _FIGURE_UNIT.match(answer), _FIGURE_UNIT.match(gold)
    if said_text is None or gold_text is None:
        return None
    units = said_text["unit"].strip(), gold_text["unit"].strip()
    if units[0].casefold() == units[1].casefold() or all(table_unit(unit) for unit in units):
        return None
    said, wanted = _read(said_text), _read(gold_text)
    if said is None or wanted is None:
        return None
    (figure, unit), (gold_figure, gold_unit) = said, wanted
    if unit.dimensionality != gold_unit.dimensionality:
        return Finding(Found.UNSURE, "number", f"a unit of another kind than the gold's ({unit})")
    registry = unit_registry()
    factor = Decimal(str(registry.Quantity(1, unit).to(gold_unit).magnitude))
    relation = relate(replace(gold_figure, dimension="pint", factor=Decimal(1)),
                      replace(figure, dimension="pint", factor=factor))
    if relation is Relation.MATCH:
        return Finding(Found.MATCH, "number", f"the gold's value in {unit}, to its last significant figure")
    if relation is Relation.CONFLICT:
        return Finding(Found.CONFLICT, "number", f"another value ({figure.text} {unit})")
    return Finding(Found.UNSURE, "number", "a figure in another unit, near the gold's")


__all__ = ["compare_units", "unit_registry"]
