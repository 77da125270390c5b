"""Number formatting for terminal tables: fractions as percentages, missing values as a dash."""

from __future__ import annotations


def pct(value: float | None, digits: int = 1) -> str:
    """0.4932 -> '49.3'; None -> '–'."""
    return "–" if value is None else f"{100 * value:.{digits}f}"


def num(value: float | None, digits: int = 2) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def ratio_x(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}×"
