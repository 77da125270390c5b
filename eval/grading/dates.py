"""Dates in text, in the formats answers use, and their comparison with a gold date.

Read: ISO (2002-05-20), numeric day/month/year or month/day/year with / . or - (both readings kept
when ambiguous), "20 May 2002", "the 20th of May, 2002", "May 20th, 2002", "May 2002", "20 May",
a year ("1914", "44 BC"), spelled years ("nineteen fourteen") and holidays on a fixed day
("New Year's Day 2002"). Regular expressions rather than
dateutil's parser: dateutil fills missing fields from a default date, and the grader needs to know
which fields (year, month, day) an answer actually states.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from enum import Enum

from factprobe.eval.grading.holidays import FIXED_HOLIDAYS
from factprobe.eval.grading.spelled import spelled_to_digits

_MONTHS = {name: i for i, names in enumerate(
    [("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",),
     ("june", "jun"), ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"),
     ("october", "oct"), ("november", "nov"), ("december", "dec")], start=1) for name in names}
_MONTH = r"(?P<mon>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>\d{3,4})(?:\s*(?P<era>AD|CE|BCE|BC))?"
_HOLIDAY = r"(?P<holiday>" + "|".join(
    re.escape(name).replace("'", "['’]?").replace(r"st\ ", r"st\.?\ ") for name in
    sorted(FIXED_HOLIDAYS, key=len, reverse=True)) + r")"


def _holiday_key(name: str) -> str:
    """"St. Patrick’s Day" -> "st patricks day"."""
    return re.sub(r"[.'’]", "", name.lower())


_HOLIDAY_DATES = {_holiday_key(name): day for name, day in FIXED_HOLIDAYS.items()}
_PATTERNS = [
    re.compile(rf"\b{_HOLIDAY}(?:,?\s+(?:of\s+|in\s+)?{_YEAR})?", re.IGNORECASE),
    re.compile(r"\b(?P<year>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})\b"),
    re.compile(r"\b(?P<a>\d{1,2})[/.\-](?P<b>\d{1,2})[/.\-](?P<year>\d{4})\b"),
    re.compile(rf"\b(?:the\s+)?{_DAY}\s+(?:of\s+)?{_MONTH},?\s+(?:in\s+)?{_YEAR}\b", re.IGNORECASE),
    re.compile(rf"\b{_MONTH}\s+(?:the\s+)?{_DAY},?\s+{_YEAR}\b", re.IGNORECASE),
    re.compile(rf"\b{_MONTH},?\s+(?:of\s+)?{_YEAR}\b", re.IGNORECASE),
    re.compile(rf"\b(?:the\s+)?{_DAY}\s+(?:of\s+)?{_MONTH}\b", re.IGNORECASE),
    re.compile(rf"\b{_MONTH}\s+(?:the\s+)?{_DAY}\b(?!,?\s*\d)", re.IGNORECASE),
    re.compile(r"(?<![\d,.$])\b(?P<year>\d{4})(?:\s*(?P<era>AD|CE|BCE|BC))?\b(?![.,]?\d)"),
    re.compile(r"(?<![\d,.$])\b(?P<year>\d{1,3})\s*(?P<era>AD|CE|BCE|BC)\b"),
]


class DateRelation(str, Enum):
    """How an answer's date stands to the gold's."""

    MATCH = "match"
    COARSER = "coarser"      # right as far as it goes, but misses a field the gold has
    CONFLICT = "conflict"


@dataclass(frozen=True)
class DateValue:
    """A date with the fields the text states (None where it does not)."""

    year: int | None
    month: int | None = None
    day: int | None = None


def _valid(year: int | None, month: int | None, day: int | None) -> bool:
    if month is not None and not 1 <= month <= 12:
        return False
    if day is not None:
        try:
            date(year if year and year > 0 else 2000, month or 1, day)
        except ValueError:
            return False
    return True


def _year(match: re.Match[str]) -> int | None:
    text = match.groupdict().get("year")
    if text is None:
        return None
    era = (match.groupdict().get("era") or "").upper()
    return -int(text) if era.startswith("B") else int(text)


def _readings(pattern_index: int, match: re.Match[str]) -> list[DateValue]:
    groups = match.groupdict()
    year = _year(match)
    if groups.get("holiday"):
        month, day = _HOLIDAY_DATES[_holiday_key(groups["holiday"])]
        return [DateValue(year, month, day)]
    if pattern_index == 1:
        return [DateValue(year, int(groups["m"]), int(groups["d"]))]
    if pattern_index == 2:
        a, b = int(groups["a"]), int(groups["b"])
        readings = {DateValue(year, b, a), DateValue(year, a, b)}
        return [r for r in readings if _valid(r.year, r.month, r.day)]
    named_month = _MONTHS[groups["mon"].lower()] if groups.get("mon") else None
    named_day = int(groups["day"]) if groups.get("day") else None
    return [DateValue(year, named_month, named_day)]


@dataclass(frozen=True)
class DateMention:
    """A date found in text: its possible readings and where it is."""

    readings: tuple[DateValue, ...]
    start: int
    end: int


def find_dates(text: str) -> list[DateMention]:
    """Every date in the text, earliest first; overlapping matches keep the most specific."""
    text = spelled_to_digits(text)
    taken: list[tuple[int, int]] = []
    found: list[DateMention] = []
    for index, pattern in enumerate(_PATTERNS):
        for match in pattern.finditer(text):
            start, end = match.span()
            if any(start < b and a < end for a, b in taken):
                continue
            readings = [r for r in _readings(index, match) if _valid(r.year, r.month, r.day)]
            if readings:
                taken.append((start, end))
                found.append(DateMention(tuple(readings), start, end))
    return sorted(found, key=lambda mention: mention.start)


_DECADE = re.compile(r"\b(?P<year>\d{3}0)'?s\b")
_CENTURY = re.compile(r"\b(?P<n>\d{1,2})(?:st|nd|rd|th)\s+century(?:\s+(?P<era>BC|BCE))?", re.IGNORECASE)


def _decade(year: int) -> tuple[int, int]:
    """"the 1880s" -> (1880, 1889); "the 1900s" may mean the decade or the century: the wider reading."""
    if year % 100 == 0:
        return year, year + 99
    return year, year + 9


def find_periods(text: str) -> list[tuple[int, int]]:
    """Decades and centuries as year ranges: "the 1880s" -> (1880, 1889), "19th century" -> (1801, 1900)."""
    text = spelled_to_digits(text)
    periods = [_decade(int(m.group("year"))) for m in _DECADE.finditer(text)]
    for match in _CENTURY.finditer(text):
        number = int(match.group("n"))
        if match.group("era"):
            periods.append((-100 * number, -100 * (number - 1) - 1))
        else:
            periods.append((100 * (number - 1) + 1, 100 * number))
    return periods


def gold_date(gold: str) -> DateValue | None:
    """The gold's date when the whole gold is one date ("In 1914.", "20 May 2002")."""
    text = re.sub(r"^\s*(?:on|in|at|during|by|circa|c\.|ca\.)\s+", "", spelled_to_digits(gold),
                  flags=re.IGNORECASE).strip().rstrip(".").strip()
    mentions = find_dates(text)
    if len(mentions) != 1 or len(mentions[0].readings) != 1:
        return None
    mention = mentions[0]
    if text[:mention.start].strip(" ,") or text[mention.end:].strip(" ,"):
        return None
    return mention.readings[0]


def relate_date(gold: DateValue, answer: DateValue, implied_years: set[int]) -> DateRelation:
    """MATCH when every field the gold states agrees; a year the question names may be left out."""
    year = answer.year if answer.year is not None else (gold.year if gold.year in implied_years else None)
    for wanted, given in ((gold.year, year), (gold.month, answer.month), (gold.day, answer.day)):
        if wanted is None:
            continue
        if given is None:
            return DateRelation.COARSER if _agrees(gold, answer) else DateRelation.CONFLICT
        if given != wanted:
            return DateRelation.CONFLICT
    return DateRelation.MATCH


def _agrees(gold: DateValue, answer: DateValue) -> bool:
    return all(g is None or a is None or g == a for g, a in
               ((gold.year, answer.year), (gold.month, answer.month), (gold.day, answer.day)))
