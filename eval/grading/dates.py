"""The `date` match kind: dates, decades, centuries and bounds in text, and their comparison.

Regular expressions rather than dateutil's parser, which fills missing fields from a default date:
the grader needs to know which fields (year, month, day) an answer states. A holiday's date is
knowledge, left to the judge.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from factprobe.eval.grading.match_text import Finding, Found, content, head, words
from factprobe.eval.grading.phrases import APPROXIMATE
from factprobe.eval.grading.spelled import spelled_to_digits

_MONTHS = {name: i for i, names in enumerate(
    [("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",),
     ("june", "jun"), ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"),
     ("october", "oct"), ("november", "nov"), ("december", "dec")], start=1) for name in names}
_MONTH = r"(?P<mon>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>\d{3,4})(?:\s*(?P<era>AD|CE|BCE|BC))?"
_PATTERNS = [
    re.compile(r"\b(?P<year>\d{4})-(?P<mon>\d{1,2})-(?P<day>\d{1,2})\b"),
    re.compile(r"\b(?P<a>\d{1,2})[/.\-](?P<b>\d{1,2})[/.\-](?P<year>\d{4})\b"),
    re.compile(rf"\b(?:the\s+)?{_DAY}\s+(?:of\s+)?{_MONTH},?\s+(?:in\s+)?{_YEAR}\b", re.IGNORECASE),
    re.compile(rf"\b{_MONTH}\s+(?:the\s+)?{_DAY},?\s+{_YEAR}\b", re.IGNORECASE),
    re.compile(rf"\b{_MONTH},?\s+(?:of\s+)?{_YEAR}\b", re.IGNORECASE),
    re.compile(rf"\b(?:the\s+)?{_DAY}\s+(?:of\s+)?{_MONTH}\b", re.IGNORECASE),
    re.compile(rf"\b{_MONTH}\s+(?:the\s+)?{_DAY}\b(?!,?\s*\d)", re.IGNORECASE),
    re.compile(r"(?<![\d,.$])\b(?P<year>\d{4})(?:\s*(?P<era>AD|CE|BCE|BC))?\b(?![.,]?\d)"),
    re.compile(r"(?<![\d,.$])\b(?P<year>\d{1,3})\s*(?P<era>AD|CE|BCE|BC)\b"),
]


@dataclass(frozen=True)
class DateValue:
    """A date with the fields the text states (None where it does not)."""

    year: int | None
    month: int | None = None
    day: int | None = None


def _readings(match: re.Match[str]) -> list[DateValue]:
    """The valid readings of a match: both of an ambiguous numeric date ("04/05/2010"), else one."""
    g = {name: value for name, value in match.groupdict().items() if value}
    year = (-1 if g.get("era", "").upper().startswith("B") else 1) * int(g["year"]) if "year" in g else None
    month = (int(g["mon"]) if g["mon"].isdigit() else _MONTHS[g["mon"].lower()]) if "mon" in g else None
    day = int(g["day"]) if "day" in g else None
    fields = {(int(g["b"]), int(g["a"])), (int(g["a"]), int(g["b"]))} if "a" in g else {(month, day)}
    readings = []
    for month, day in fields:
        try:
            date(year if year and year > 0 else 2000, month or 1, day or 1)
            readings.append(DateValue(year, month, day))
        except ValueError:
            continue
    return readings


@dataclass(frozen=True)
class DateMention:
    """A date found in text: its possible readings and where it is."""

    readings: tuple[DateValue, ...]
    start: int
    end: int


def find_dates(text: str) -> list[DateMention]:
    """Every date in the text, earliest first; overlapping matches keep the most specific. Read: ISO,
    numeric day/month/year or month/day/year (both readings kept when ambiguous), "7 March 1961",
    "March 7th, 1961", "March 1961", "7 March", a year ("1961", "44 BC"), spelled years."""
    text = spelled_to_digits(text)
    taken: list[tuple[int, int]] = []
    found: list[DateMention] = []
    for pattern in _PATTERNS:
        for match in pattern.finditer(text):
            start, end = match.span()
            if any(start < b and a < end for a, b in taken):
                continue
            if readings := _readings(match):
                taken.append((start, end))
                found.append(DateMention(tuple(readings), start, end))
    return sorted(found, key=lambda mention: mention.start)


_ORDINALS = ("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
         "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth").split()
_PART = r"(?:(?P<part>early|mid|middle|late)(?:\s+in)?[\s-]+)?"
_DECADE = re.compile(_PART + r"(?:the\s+)?(?P<year>\d{3}0|'\d0)'?s\b", re.IGNORECASE)
_CENTURY = re.compile(_PART + r"(?:the\s+)?(?P<n>\d{1,2}|" + "|".join(reversed(_ORDINALS)) +
                      r")(?:st|nd|rd|th)?[\s-]+century(?:\s+(?P<era>BC|BCE))?", re.IGNORECASE)
_BOUND = re.compile(r"\b(?P<side>after|later\s+than|before|earlier\s+than|prior\s+to)\s+(?:the\s+year\s+)?$",
                    re.IGNORECASE)


def _part(first: int, last: int, part: str | None) -> tuple[int, int]:
    third = (last - first + 1) // 3
    return {"early": (first, first + third), "late": (last - third, last), None: (first, last)}.get(
        part, (first + third, last - third))


def find_periods(text: str, century: int = 1900) -> list[tuple[int, int, list[tuple[int, int]]]]:
    """Decades and centuries as (first, last) years and the spans an "early", "mid" or "late" names
    (the whole period without one): "the 1880s" -> (1880, 1889, [(1880, 1889)]); "the '80s" is read
    in `century`; "the 1900s" may mean the decade or the century: the wider period, either's part."""
    periods = []
    for match in [*_DECADE.finditer(text), *_CENTURY.finditer(text)]:
        part = match["part"].lower() if match["part"] else None
        if "n" in match.groupdict():
            n = match["n"].lower()
            n = int(n) if n.isdigit() else _ORDINALS.index(n) + 1
            first, last = ((-100 * n, -100 * (n - 1) - 1) if match["era"] else (100 * (n - 1) + 1, 100 * n))
            periods.append((first, last, [_part(first, last, part)]))
            continue
        year = int(match["year"].strip("'")) + (century if match["year"][0] == "'" else 0)
        spans = [(year, year + 9)] + ([(year, year + 99)] if year % 100 == 0 else [])
        periods.append((year, spans[-1][1], [_part(first, last, part) for first, last in spans]))
    return periods


def gold_date(gold: str) -> DateValue | None:
    """The gold's date when the whole gold is one date ("In 1961.", "7 March 1961")."""
    text = re.sub(r"^\s*(?:on|in|at|during|by|circa|c\.|ca\.)\s+", "", spelled_to_digits(gold),
                  flags=re.IGNORECASE).strip().rstrip(".").strip()
    mentions = find_dates(text)
    if len(mentions) != 1 or len(mentions[0].readings) != 1:
        return None
    mention = mentions[0]
    if text[:mention.start].strip(" ,") or text[mention.end:].strip(" ,"):
        return None
    return mention.readings[0]


def _relate(gold: DateValue, answer: DateValue, implied_years: set[int]) -> Found:
    """MATCH when every field the gold states agrees (a year the question names may be left out),
    CONFLICT when a stated field differs, VAGUE when the answer stops short of the gold's precision."""
    year = answer.year if answer.year is not None else (gold.year if gold.year in implied_years else None)
    fields = [(g, a) for g, a in ((gold.year, year), (gold.month, answer.month), (gold.day, answer.day))
              if g is not None]
    if any(a is not None and a != g for g, a in fields):
        return Found.CONFLICT
    return Found.VAGUE if any(a is None for _, a in fields) else Found.MATCH


def _precision(value: DateValue) -> str:
    return "a full date" if value.day is not None else "a month" if value.month is not None else "a year"


_SOMETIME = frozenset({"sometime", "some", "time", "year", "month", "day", "during"})


def _only_dates(claim: str, question: str) -> bool:
    """The claim's head holds nothing but dates (and words the question says): no detail beside them."""
    answer, detail = head(spelled_to_digits(claim), question)
    for mention in reversed(find_dates(answer)):
        answer = answer[:mention.start] + " " + answer[mention.end:]
    return not detail.strip(" .") and not set(content(answer, set(words(question)))) - _SOMETIME


_ORDER = (Found.MATCH, Found.VAGUE, Found.CONFLICT)  # of one mention's readings, the best
_SEASON = re.compile(r"^\s*(?:early|late|mid|spring|summer|autumn|fall|winter)\b[\s-]*", re.I)  # then a year
_YEAR_QUESTION = re.compile(r"\b(?:year|when|date|century|decade)\b", re.IGNORECASE)
# "In what year …?" asks the year alone; "in which year and month …?" asks the month too.
_ASKS_YEAR = re.compile(r"\b(?:what|which)\s+year\b(?!,?\s*(?:and|&|,)\s*(?:month|day|date)\b)", re.IGNORECASE)


def _held(wanted: int, first: int, last: int, inner: list[tuple[int, int]], what: str) -> Finding:
    """A period or bound against the gold's year: inside the part it names is vague, outside the
    whole period a conflict, between the two the judge's."""
    if any(low <= wanted <= high for low, high in inner):
        return Finding(Found.VAGUE, "date", f"a {what} that holds the gold")
    if not first <= wanted <= last:
        return Finding(Found.CONFLICT, "date", f"a {what} that excludes the gold")
    return Finding(Found.UNSURE, "date", f"a {what} near the gold's year")


def _rough_year(text: str, mention: DateMention, wanted: DateValue) -> Finding | None:
    """"around" and a round year: it holds a gold within five years of it
    (vague, as a rough figure is); a rough year near the gold is the judge's; None when not rough."""
    year = mention.readings[0].year
    if year is None or wanted.year is None or not APPROXIMATE.search(text[:mention.start]):
        return None
    if year % 10 == 0 and abs(year - wanted.year) <= 5:
        return Finding(Found.VAGUE, "date", "a rough round year that holds the gold")
    return Finding(Found.UNSURE, "date", "a rough year near the gold") if abs(year - wanted.year) <= 2 else None


_SHORT_YEAR = re.compile(r"(?<![\w'])'(\d\d)\b(?!s)")


def _early_year(text: str, year: int) -> Finding | None:
    """A year before 1000 asked for, given as one to three figures: a century or decade alone in the claim is held
    against it; a figure is the number kind's (None)."""
    periods = find_periods(text, 0)
    if len(periods) != 1 or re.search(r"\d", _CENTURY.sub("", _DECADE.sub("", text))):
        return None
    return _held(year, *periods[0], "period")


def compare_date(claim: str, gold: str, question: str) -> Finding | None:
    """The claim's dates against a gold date; None when the gold is not a date (or a year asked for).
    Every field the gold states must agree (finer is fine; a "what year" question asks only the
    year); another date conflicts. A period or bound that holds the gold, or a coarser date with
    nothing beside it, is vague (as SimpleQA's grader has it); one that excludes it conflicts; a
    coarser date beside other words and several dates are the judge's."""
    wanted = gold_date(gold)
    if wanted is None and _ASKS_YEAR.search(question) and re.fullmatch(r"\s*\d{1,3}\s*", gold):
        return _early_year(spelled_to_digits(claim), int(gold))
    if wanted is None or (wanted.month is None and not _YEAR_QUESTION.search(question)):
        return None
    if _ASKS_YEAR.search(question):  # "In what year …?": the gold's year is the answer
        wanted = DateValue(wanted.year)
    text = spelled_to_digits(claim)
    if wanted.year is not None and wanted.year >= 100:  # an apostrophe and two figures: a year in the gold's century
        text = _SHORT_YEAR.sub(lambda m: str(wanted.year // 100 * 100 + int(m[1])), text)  # type: ignore[operator]
    asked = {reading for mention in find_dates(question) for reading in mention.readings}
    stated = find_dates(text)
    mentions = [m for m in stated if not set(m.readings) <= asked or wanted in m.readings]
    periods = find_periods(text, (wanted.year or 1900) // 100 * 100)
    if len(mentions) == 1 and wanted.year is not None and mentions[0].readings[0].year is not None and (
            bound := _BOUND.search(text[:mentions[0].start])):
        year = mentions[0].readings[0].year
        after = bound["side"].lower() in ("after", "later than")
        return _held(wanted.year, *((year, 10 ** 4) if after else (-10 ** 4, year)),
                     [(year + 1, 10 ** 4) if after else (-10 ** 4, year - 1)], "bound")
    if not mentions:
        if len(periods) == 1 and wanted.year is not None:
            return _held(wanted.year, *periods[0], "period")
        if stated and not periods and _only_dates(claim, question):
            if wanted.year is not None and all(r.year != wanted.year for m in stated for r in m.readings):
                return Finding(Found.CONFLICT, "date", "only the question's own date, another year than the gold's")
            return Finding(Found.VAGUE, "date", "coarser than the gold: only the question's own date")
        return Finding(Found.UNSURE, "date", "no date" if not periods else "several periods")
    years = {reading.year for reading in asked if reading.year is not None}
    found = [min((_relate(wanted, r, years) for r in m.readings), key=_ORDER.index) for m in mentions]
    if found == [Found.MATCH] * len(found):
        return Finding(Found.MATCH, "date", "agrees with every field the gold states")
    if found == [Found.CONFLICT]:
        return _rough_year(text, mentions[0], wanted) or Finding(Found.CONFLICT, "date", "another date")
    if found == [Found.VAGUE] and _only_dates(_SEASON.sub("", claim), question):
        return Finding(Found.VAGUE, "date", f"coarser than the gold ({_precision(mentions[0].readings[0])} for "
                                            f"{_precision(wanted)}), agreeing as far as it goes")
    return Finding(Found.UNSURE, "date", "less precise than the gold, beside other words" if len(found) == 1
                   else "several dates")
