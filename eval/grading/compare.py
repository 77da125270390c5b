"""Typed comparison of one claim with one gold answer: dates, figures, person names, lists, other names."""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal
from typing import Callable

from factprobe.eval.grading.claims import split_list
from factprobe.eval.grading.dates import (
    DateMention,
    DateRelation,
    DateValue,
    find_dates,
    find_periods,
    gold_date,
    relate_date,
)
from factprobe.eval.grading.equivalents import in_gold_wording
from factprobe.eval.grading.markers import marker_conflict
from factprobe.eval.grading.names import is_person_question, looks_like_name, match_person, without_nickname
from factprobe.eval.grading.negation import negated_span
from factprobe.eval.grading.numbers import (
    Quantity,
    Relation,
    find_quantities,
    find_ranges,
    gold_quantity,
    relate,
    unit_asked,
    written_in_full,
)
from factprobe.eval.grading.spelled import spelled_to_digits
from factprobe.eval.grading.text_match import ACRONYM_REASON, match_text
from factprobe.eval.grading.tokens import STOPWORDS, Token, names_in, tokenize
from factprobe.eval.grading.verdict import Finding, Verdict, best

_PLACE_QUESTION = re.compile(r"\b(where|city|town|village|country|place|located|born|headquarter\w*|capital"
                             r"|state|province|region|island)\b", re.IGNORECASE)


def question_words(question: str) -> set[str]:
    """Normalised words of the question (the words an answer may leave implied)."""
    return {token.norm for token in tokenize(question)}


def gold_variants(gold: str, question: str) -> list[str]:
    """The gold and the shorter forms SimpleQA accepts for it.

    "Johannes Vermeer (painter)" -> also without the parenthesis; "San Francisco, California" for
    a place question -> also "San Francisco"; "Season 7, Episode 20: White Wedding" -> also each
    side of the colon.
    """
    variants = [gold]
    bare = re.sub(r"\s*\([^)]*\)", "", gold).strip()
    if bare and bare != gold:
        variants.append(bare)
    if ":" in bare:
        variants.extend(side.strip() for side in bare.split(":") if side.strip())
    if "," in bare and _PLACE_QUESTION.search(question) and not re.search(r"\d", bare):
        variants.append(bare.split(",")[0].strip())
    return list(dict.fromkeys(variants))


def _compare_dates(claim: str, gold: DateValue, question: str) -> Verdict:
    asked = {reading for mention in find_dates(question) for reading in mention.readings}
    implied_years = {reading.year for reading in asked if reading.year is not None}
    mentions = [m for m in find_dates(claim) if not set(m.readings) <= asked or gold in m.readings]
    if not mentions:
        return _compare_period(claim, gold)
    spelled = spelled_to_digits(claim)
    if any(gold in m.readings and negated_span(spelled, m.start, m.end) for m in mentions):
        return Verdict(Finding.CONFLICT, "negates the gold")
    mentions = _year_with_day(mentions)
    relations = []
    for mention in mentions:
        found = {relate_date(gold, reading, implied_years) for reading in mention.readings}
        relations.append(DateRelation.MATCH if DateRelation.MATCH in found else
                         DateRelation.COARSER if DateRelation.COARSER in found else DateRelation.CONFLICT)
    if DateRelation.MATCH in relations and all(
            r is DateRelation.MATCH or _yearless_detail(m, when=gold) for m, r in zip(mentions, relations)):
        return Verdict(Finding.MATCH, "states the gold date")
    if DateRelation.MATCH in relations:
        return Verdict(Finding.UNDECIDED, "states several dates, one of them the gold's")
    if relations[0] is DateRelation.COARSER:
        return Verdict(Finding.CONFLICT, "date less precise than the gold (granularity)", partial=True)
    return Verdict(Finding.CONFLICT, "states a different date")


def _year_with_day(mentions: list[DateMention]) -> list[DateMention]:
    """A year and a day-month written apart read as one date ("In 1914 — on August 15")."""
    if len(mentions) != 2 or any(len(m.readings) != 1 for m in mentions):
        return mentions
    first, second = (m.readings[0] for m in mentions)
    if first.year is not None and first.month is None and second.year is None and second.month is not None:
        joined = DateValue(first.year, second.month, second.day)
        return [DateMention((joined,), mentions[0].start, mentions[1].end)]
    return mentions


def _yearless_detail(mention: DateMention, when: DateValue) -> bool:
    """A day and month without a year that the gold does not contradict ("1914 — on August 15" for 1914)."""
    return all(reading.year is None and (when.month is None or reading.month == when.month)
               and (when.day is None or reading.day == when.day) for reading in mention.readings)


_SOMETIME = re.compile(r"\b(?:sometime|some\s+time|at\s+some\s+point)\b", re.IGNORECASE)


def _no_figure(claim: str, kind: str) -> Verdict:
    """A claim with no figure or date for a gold that is one.

    Prose that names nothing ("Many people lost their lives", "That was decades ago"), or that
    says "sometime" ("sometime before the war"), neither confirms nor contradicts the gold: vague.
    A claim that names something is left to the caller.
    """
    if re.search(r"\d", spelled_to_digits(claim)) or (names_in(claim) and not _SOMETIME.search(claim)):
        return Verdict(Finding.UNDECIDED, f"states no {kind}")
    return Verdict(Finding.VAGUE, f"states no {kind}, only a vague description")


def _compare_period(claim: str, gold: DateValue) -> Verdict:
    """A decade or century: vague when it holds the gold's year, wrong when it does not."""
    periods = find_periods(claim)
    if not periods or gold.year is None:
        return _no_figure(claim, "date")
    if all(first <= gold.year <= last for first, last in periods):
        return Verdict(Finding.VAGUE, "names a period that holds the gold date but does not pin it down")
    return Verdict(Finding.CONFLICT, "names a period that excludes the gold date")


_UNCERTAINTY = re.compile(r"(?:±|\+/-|\+-|plus\s+or\s+minus)\s*$", re.IGNORECASE)
_PAIRS = re.compile(r"\s*pairs?\b", re.IGNORECASE)


def _relevant_quantities(claim: str, gold: Quantity, question: str) -> list[Quantity]:
    """The claim's figures that can be compared with the gold.

    Not a year beside the figure, a figure the question states, one of another kind, nor the
    uncertainty of a measurement ("5,730 ± 40 years"). A count of pairs is doubled when the
    question does not count pairs ("23 pairs" of chromosomes for 46).
    """
    asked = {q.value for q in find_quantities(question)}
    found = []
    spelled = spelled_to_digits(claim)
    counts_pairs = bool(_PAIRS.search(question))
    everything = [q for q in find_quantities(claim) if not _UNCERTAINTY.search(spelled[:q.start])]
    for quantity in everything:
        if not counts_pairs and quantity.dimension is None and _PAIRS.match(spelled, quantity.end):
            quantity = replace(quantity, value=quantity.value * 2)
        if quantity.looks_like_year and not gold.looks_like_year and len(everything) > 1:
            continue  # "In 1953, 70,435 people came": the year is context
        if quantity.value in asked and quantity.value != gold.value:
            continue
        if relate(gold, quantity) is Relation.INCOMPARABLE:
            continue
        found.append(quantity)
    return found


def _compare_range(claim: str, gold: Quantity) -> Verdict | None:
    for low, high in find_ranges(claim):
        if relate(gold, low) is Relation.INCOMPARABLE:
            continue
        unit = low if low.dimension else gold
        low_base = (low.value + unit.offset) * unit.factor
        high_unit = high if high.dimension else unit
        high_base = (high.value + high_unit.offset) * high_unit.factor
        if low_base <= gold.base <= high_base:
            return Verdict(Finding.VAGUE, "gives a range that holds the gold but does not pin it down")
        return Verdict(Finding.CONFLICT, "gives a range that excludes the gold")
    return None


def _with_question_unit(gold: Quantity, question: str) -> Quantity:
    """A bare gold figure takes the unit the question asks in ("How tall is it in feet?")."""
    if gold.dimension is not None:
        return gold
    unit = unit_asked(question)
    return gold if unit is None else replace(gold, dimension=unit[0], factor=unit[1], offset=unit[2])


# "Roughly how many …", "approximately what …": the gold is a rounded figure too.
_CONVERSION_TOLERANCE = Decimal("0.02")  # a conversion in brackets is rounded: within 2% of the figure
_ROUGH_QUESTION = re.compile(r"\b(?:roughly|approximately|approx|estimated|(?:about|around)\s+how)\b", re.IGNORECASE)


def _conversions(claim: str, quantities: list[Quantity], relations: list[Relation]) -> set[int]:
    """Figures in a parenthesis right after a matching figure, in another unit of its kind, adding up to it.

    "42.195 km (26 miles 385 yards)" restates the match; "10 ha (about 25 acres)" for "25 acres"
    does not (the match is the one in brackets), so only what follows a match is a conversion, and
    one that adds up to another value ("42.195 km (30 miles)") is not.
    """
    spelled = spelled_to_digits(claim)
    converted: set[int] = set()
    for match, relation in zip(quantities, relations):
        opening = re.match(r"\s*\(([^)]*)\)", spelled[match.end:])
        if relation is not Relation.MATCH or match.dimension is None or opening is None:
            continue
        start, end = match.end + opening.start(1), match.end + opening.end(1)
        inside = [index for index, quantity in enumerate(quantities)
                  if start <= quantity.start and quantity.end <= end and quantity.dimension == match.dimension
                  and quantity.factor != match.factor]
        total = sum((quantities[index].base for index in inside), Decimal(0))
        if inside and abs(total - match.base) <= _CONVERSION_TOLERANCE * abs(match.base):
            converted.update(inside)
    return converted


# What follows an answer's figure as its detail: "46 (23 pairs)", "88 — 52 white and 36 black".
_ASIDE_OPENING = re.compile(r"\s*\((?P<inside>[^)]*)\)")
_BREAKDOWN_OPENING = re.compile(r"\s*(?:[—–:;]\s|-\s)")
_OTHER_VIEW = re.compile(r"\b(?:or|some|maybe|perhaps|possibly|probably|others?|also|though|might|could|may"
                         r"|not|sources?|estimates?)\b", re.IGNORECASE)


def _details(claim: str, quantities: list[Quantity], relations: list[Relation]) -> set[int]:
    """Figures after the claim's first figure that detail it, when that first figure matches the gold.

    A parenthesis right after it is an aside ("46 (23 pairs)") unless it offers another view
    ("(some say 48)"); figures after a dash, colon or semicolon are a breakdown when they add up
    to it ("88 — 52 white and 36 black").
    """
    if not quantities or relations[0] is not Relation.MATCH:
        return set()
    spelled = spelled_to_digits(claim)
    first, rest = quantities[0], list(range(1, len(quantities)))
    aside = _ASIDE_OPENING.match(spelled, first.end)
    if aside and not _OTHER_VIEW.search(aside["inside"]) and re.search(r"[^\W\d_]{2}", aside["inside"]):
        # a figure in the match's own unit is a conversion, checked by _conversions, never an aside
        inside = {i for i in rest if quantities[i].end <= aside.end()
                  and (first.dimension is None or quantities[i].dimension != first.dimension)}
        if len(inside) == len(rest):
            return inside
    if _BREAKDOWN_OPENING.match(spelled, first.end) and rest \
            and sum(quantities[i].value for i in rest) == first.value:
        return set(rest)
    return set()


def _same_value(gold: Quantity, answer: Quantity) -> bool:
    """The answer's figure is the gold's value exactly, whatever its stated precision."""
    if answer.dimension is None:
        return (answer.value + gold.offset) * gold.factor == gold.base
    return answer.base == gold.base


def _compare_numbers(claim: str, gold: Quantity, question: str) -> Verdict:
    gold = _with_question_unit(gold, question)
    ranged = _compare_range(claim, gold)
    if ranged is not None:
        return ranged
    quantities = _relevant_quantities(claim, gold, question)
    if not quantities:
        if find_quantities(claim):
            return Verdict(Finding.UNDECIDED, "states no comparable figure")
        return _no_figure(claim, "figure")
    relations = [relate(gold, quantity) for quantity in quantities]
    if _ROUGH_QUESTION.search(question):  # "About 56 thousand" asked "Roughly how many …" for 56,000
        relations = [Relation.MATCH if _same_value(gold, quantity) and quantity.bound is None else relation
                     for quantity, relation in zip(quantities, relations)]
    spelled = spelled_to_digits(claim)
    if any(r is Relation.MATCH and negated_span(spelled, q.start, q.end) for q, r in zip(quantities, relations)):
        return Verdict(Finding.CONFLICT, "negates the gold")
    # "About 5,730 years" for 5,730 years: a hedge around the gold's own numeral states it ("about 179
    # thousand" for 179,000 does not: the multiplier leaves the last three digits open)
    relations = [Relation.MATCH if quantity.approximate and quantity.bound is None and _same_value(gold, quantity)
                 and written_in_full(quantity) else relation for quantity, relation in zip(quantities, relations)]
    agreeing = (Relation.MATCH, Relation.COARSER, Relation.BOUND_OK)
    converted = _conversions(claim, quantities, relations) | _details(claim, quantities, relations)
    if Relation.MATCH in relations and all(r in agreeing or i in converted for i, r in enumerate(relations)):
        return Verdict(Finding.MATCH, "figure matches the gold to its last significant figure")
    if Relation.MATCH in relations:
        return Verdict(Finding.UNDECIDED, "states several figures, one of them the gold's")
    first, relation = quantities[0], relations[0]
    if relation is Relation.BOUND_OK or (relation is Relation.COARSER and first.approximate):
        return Verdict(Finding.VAGUE, "approximate figure that neither confirms nor contradicts the gold")
    if relation is Relation.COARSER:
        return Verdict(Finding.CONFLICT, "figure less precise than the gold's last significant figure", partial=True)
    return Verdict(Finding.CONFLICT, f"states a different figure ({first.text})")


def _compare_list(claim: str, items: list[str], question: str) -> Verdict:
    stated = split_list(claim)
    missing = [item for item in items if not any(
        compare_claim(part, item, question).finding is Finding.MATCH for part in stated)]
    extra = [part for part in stated if len(stated) > 1 and not any(
        compare_claim(part, item, question).finding is Finding.MATCH for item in items)]
    if not missing and not extra:
        return Verdict(Finding.MATCH, "states every item of the gold list")
    if extra and len(stated) > 1:
        return Verdict(Finding.CONFLICT, f"list adds an item not in the gold ({extra[0]})")
    if len(missing) < len(items):
        return Verdict(Finding.CONFLICT, f"list misses an item of the gold ({missing[0]})", partial=True)
    return Verdict(Finding.ABSENT, "states none of the gold list")


def compare_single(claim: str, gold: str, question: str) -> Verdict:
    """Compare a claim with one gold form, by the gold's type."""
    when = gold_date(gold)
    if when is not None and (when.month is not None or re.search(r"\b(when|year|date|century)\b", question, re.I)
                             or re.fullmatch(r"\s*(?:in\s+)?\d{4}\.?\s*", gold, re.I)):
        return _compare_dates(claim, when, question)
    figure = gold_quantity(gold)
    if figure is not None:
        return _compare_numbers(claim, figure, question)
    words = question_words(question)
    tokens = tokenize(claim)
    items = split_list(gold)
    if len(items) > 1:
        listed = _compare_list(claim, items, question)
        if listed.finding is not Finding.MATCH and len(split_list(claim)) == 1:
            whole = match_text(tokens, gold, words)
            return whole if whole.finding is Finding.MATCH else listed
        return listed
    return _with_markers(_compare_named(claim, gold, question, words, tokens), claim, gold)


def _with_markers(verdict: Verdict, claim: str, gold: str) -> Verdict:
    """A regnal number or generation word that differs from the gold's makes another person."""
    if verdict.finding not in (Finding.MATCH, Finding.UNDECIDED):
        return verdict
    disagreement = marker_conflict(claim, gold)
    if disagreement is None:
        return verdict
    kind, reason = disagreement
    if kind == "differs":
        return Verdict(Finding.CONFLICT, reason)
    return Verdict(Finding.UNDECIDED, reason) if verdict.finding is Finding.MATCH else verdict


def _compare_named(claim: str, gold: str, question: str, words: set[str], tokens: list[Token]) -> Verdict:
    """Compare a claim with a gold that is a name or a term (a person, a place, a title)."""
    if is_person_question(question) and looks_like_name(gold):
        claim = without_nickname(claim)
        tokens = tokenize(claim)
        return _no_extra_items(match_person(tokens, gold, words), claim,
                               lambda part: match_person(tokenize(part), gold, words), people=True)
    if is_person_question(question) and len(tokenize(gold)) == 1:
        return _one_name(match_text(tokens, gold, words), tokens, gold)
    claim = in_gold_wording(claim, gold)
    tokens = tokenize(claim)
    return _no_extra_items(match_text(tokens, gold, words), claim,
                           lambda part: match_text(tokenize(part), gold, words))


def _one_name(verdict: Verdict, claim: list[Token], gold: str) -> Verdict:
    """A one-word person gold followed by another name ("Galileo Galilei" for "Galileo").

    Often the full name, sometimes another person ("Herod Agrippa" for "Herod"): undecided.
    """
    if verdict.finding is not Finding.CONFLICT or "containing the gold" not in verdict.reason:
        return verdict
    word = tokenize(gold)[0].norm
    for index, token in enumerate(claim[:-1]):
        after = claim[index + 1]
        before_free = index == 0 or not claim[index - 1].capitalised or claim[index - 1].norm in STOPWORDS
        if token.norm == word and after.capitalised and after.gap == " " and before_free:
            return Verdict(Finding.UNDECIDED, f"adds a name to a one-word gold ({token.text} {after.text})")
    return verdict


def _no_extra_items(verdict: Verdict, claim: str, compare: Callable[[str], Verdict], people: bool = False) -> Verdict:
    """A single gold stated inside a short list ("Paris and Lyon") is one candidate among others."""
    parts = split_list(claim, people)
    if verdict.finding is not Finding.MATCH or len(parts) < 2 or verdict.reason == ACRONYM_REASON:
        return verdict
    others = [part for part in parts if compare(part).finding is not Finding.MATCH]
    if others:
        return Verdict(Finding.CONFLICT, f"lists other candidates beside the gold ({others[0]})")
    return verdict


def compare_claim(claim: str, gold: str, question: str) -> Verdict:
    """The best verdict over the gold's accepted forms."""
    return best([compare_single(claim, variant, question) for variant in gold_variants(gold, question)])
