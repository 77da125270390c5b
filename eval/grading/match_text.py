"""Match kinds for text (`text`, `initials`, `spelling`, `name`, `place`) and what a comparison finds.

A claim is cut to its head, the phrase that answers (`head`), compared in normalised words (`words`, `content`); each
kind is documented where it decides: `compare_text`, `_word_apart` (`spelling`), `_name` (`name`) and `_items`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from functools import cache

from rapidfuzz.distance import Levenshtein
from rapidfuzz.fuzz import ratio

from factprobe.eval.grading.match_names import LONG_WORD, NUMERALS, PARTICLES, name_match, namesake
from factprobe.eval.grading.spelled import spelled_to_digits
from factprobe.eval.grading.wording import FUNCTION_WORDS, ROLE_ASKED, content, words


class Found(str, Enum):
    """The outcome of one comparison: the rule grader turns it into a grade."""

    MATCH = "match"        # states the gold: CORRECT
    CONFLICT = "conflict"  # states something the gold rules out: INCORRECT
    VAGUE = "vague"        # a bound or period that holds the gold, committing to nothing: NOT_ATTEMPTED
    UNSURE = "unsure"      # the rules cannot tell: UNGRADED, left to the judge


@dataclass(frozen=True)
class Finding:
    """A comparison's outcome, the match kind that found it and why (for the grade note)."""

    found: Found
    kind: str
    detail: str

    @property
    def note(self) -> str:
        return f"{self.kind}: {self.detail}"


_PRECEDENCE = (Found.MATCH, Found.UNSURE, Found.VAGUE, Found.CONFLICT)  # of the findings over several golds


def combine(findings: list[Finding], notation: str = "") -> Finding:
    """One finding over the gold and its aliases: a match with any wins; then undecided, vague, conflict.

    A conflict stands only when the claim conflicts with every accepted answer; an alias written in
    another notation than the claim (`notation`: that finding's detail) does not count when another
    alias was compared.
    """
    compared = [finding for finding in findings if finding.detail != notation]
    return min(compared or findings, key=lambda finding: _PRECEDENCE.index(finding.found))


_LEAD_IN = re.compile(r"^(?:(?:it|that|this|he|she|they)(?:'s|\s+(?:is|was|are|were|would\s+be))|the\s+answer\s+is"
                      r"|answer\s*:)\s+", re.IGNORECASE)
_COPULA = re.compile(r"\s(?:is|was|are|were)\s", re.IGNORECASE)
# Where a claim's head ends: a comma, a bracket (not one inside a name: "X(II) oxide"), a dash (not
# one joining a span of years: "1998–99").
_DETAIL = re.compile(r"\s*(?:[,;](?=\s|$)|(?<=\s)\(|(?<!\s)\((?![^()]*\)\s*\w)|\s[—–-]\s"
                     r"|(?<!\d{4})[—–]\s?|[—–](?!\d\d)\s?)")
_LOCATED = re.compile(r"^(.+?)\s+(?:in|at|near)\s+(?:the\s+)?[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2}\s*\.?$")  # "X in Y"
# The kind of a geographic feature, a word its name may drop or add ("the X" for "X Sea", "Lake X" for "X").
_FEATURES = frozenset("mount mountain lake sea ocean river island isle desert strait bay gulf canal peninsula fall "
                      "glacier volcano".split())  # as `words` writes them: a plural "s" dropped
_KIND_ASKED = re.compile(r"\b(?:which|what)\s+(?:[\w']+\s+)?(?:country|city|town|state|province|nation|county"
                         r"|region)\b", re.IGNORECASE)
_BOTH_ASKED = re.compile(r"\b(?:city|town)\s*(?:,|and|&)\s*(?:the\s+)?(?:state|country|province|region)\b",
                         re.IGNORECASE)
_OPTIONS = re.compile(r"[,:]\s*(?:the\s+)?(?P<a>[^,:?]+?),?\s+or\s+(?:the\s+)?(?P<b>[^,?]+?)\s*\?\s*$", re.IGNORECASE)
_WHICH_ONE = re.compile(r"^\W*(?:not\s+)?the\s+one\s+(?:in|from|at|of|near|on)\b", re.IGNORECASE)
_BRACKETED = re.compile(r"^\s*\(([^()]*)\)\s*$")
_KNOWN_AS = re.compile(r"^\s*,\s*(?:better|also|(?:more\s+)?commonly|widely|later)\s+known\s+as\s+([^,;()]+?)\s*\.?$",
                       re.IGNORECASE)
_PREPOSITION = re.compile(r"^(?:in|at(?!\s+(?:least|most)\b)|on|near|from|by)\s+", re.IGNORECASE)
_RELATED = 60  # rapidfuzz ratio (0-100) from which two words with the same first letter are too alike to call
_ALIKE = 80    # a conflict ("Haag", "Hague"), and from which any two words are
# What an unsure comparison of a whole claim says when a sentence's own names may still decide it (`rules`).
OPEN_OVERLAP = ("overlaps the gold without matching it", "no answer phrase left after the question's own words")
NAMING_WORDS = 4  # content words up to which a head that names something else is a wrong answer
_QUALIFIER = re.compile(r"^,\s+(?:[A-Z][\w.'-]*\s?){1,3}(?=$|[.;(—–]|\s[—–-]\s)")  # ", California", ", D.C."
_PLURAL = re.compile(r"the\s+(?:[\w'-]+\s+)*[\w'-]+[^\Wsiu]s", re.IGNORECASE)  # "the <plural noun>"
# `place`: a city asked for, with its region or country after a comma, which the question or gold must name.
_PLACE_ASKED = re.compile(r"\b(?:which|what)\s+(?:[\w.-]+\s+)?(?:city|town|village|port)\b|^\s*where\b"
                          r"|\bwhat\s+is\s+the\s+capital\b", re.IGNORECASE)
_PLACE_QUALIFIED = re.compile(r"(?:in\s+)?([^,]+),\s+(?:[A-Z][\w.'-]*\s?){1,3}(?:$|[.;(—–]|\s[—–-]\s)")
_REGION_AFTER = re.compile(r"^,\s+((?:[A-Z][\w.'-]*\s?){1,3})(?=$|[,.;(—–]|\s[—–-]\s)")  # ", Nova Scotia, …"
NAMESAKE = "the gold's name with a region neither the question nor the gold names: maybe a namesake elsewhere"


def _vouched(region: str, gold: str, question: str) -> bool:
    """A place's region after a comma is one the question or the gold names, or a country's name that is no
    region's inside a country: a namesake elsewhere is then not meant. A state, province or county ("Paris,
    Texas" for the city of the Louvre; "Georgia", a country and a state) needs knowledge to rule one out."""
    named = content(region, set())
    return set(named) <= set(words(question)) | set(words(gold)) or (
        " ".join(named) in _country_names() and " ".join(named) not in _region_names())


def namesake_risk(detail: str, gold: str, question: str) -> bool:
    """A city is asked and what follows the answer opens with a region it may not be in (`_vouched`)."""
    region = _REGION_AFTER.match(detail)
    return bool(region and _PLACE_ASKED.search(question) and not _vouched(region[1], gold, question))


_SIGN = re.compile(r"(\b[A-Za-z]{1,2})\s?([-−+])(?=[\s.,;)]*$)")  # a type's sign at the end ("AB+", "O-")
# A predicate, not a name: "published in 1951", "narrated by X".
_PREDICATE = re.compile(r"^(?:\w+ly\s+|first\s+)?[a-z]+(?:ed|en|wn|ilt|eld|orn|ound|ung|ade)\s+"
                        r"(?:in|on|at|by|from|to|as|for|with|into|after|before|during|through)\b")
_NOT_A_NAME = re.compile(r"^(?:an?|there|it|its|their|his|her|they|this|that|he|she|these|those|some|someone|somebody"
                         r"|something|many|somewhere|one\s+of|part\s+of)\b", re.IGNORECASE)


def head(claim: str, question: str) -> tuple[str, str]:
    """The claim's head (the phrase that answers) and the rest (its detail)."""
    text = _LEAD_IN.sub("", claim.strip())
    asked = set(words(question)) | FUNCTION_WORDS
    copula = _COPULA.search(text)
    if copula and set(words(text[:copula.start()])) <= asked:
        text = text[copula.end():]
    text = _PREPOSITION.sub("", text.strip())
    cut = _DETAIL.search(text)
    if cut is None or cut.start() == 0:
        return text.strip(" ."), ""
    end = cut.start()
    qualifier = _QUALIFIER.match(text[end:])
    if qualifier:  # a place's qualifier may name another place ("Paris, Texas"): part of the head
        return head(text[:end] + text[end:end + qualifier.end()].replace(",", " ") + text[end + qualifier.end():],
                    question)
    return text[:end].strip(" ."), text[end:]


def names_a_country(text: str) -> bool:
    """The text ends in the name of a country, current or former (ISO 3166 and ISO 3166-3, from pycountry),
    maybe after a direction word."""
    names = _country_names()
    found = words(text)
    return any(" ".join(found[start:]) in names for start in range(len(found)))


@cache
def _country_names() -> frozenset[str]:
    import pycountry  # only where a place is asked and another is named

    current = [name for country in pycountry.countries for name in (
        country.name, getattr(country, "common_name", ""), getattr(country, "official_name", ""))]
    former = [country.name.split(",")[0] for country in pycountry.historic_countries]  # "Zaire, Republic of"
    return frozenset(" ".join(words(name)) for name in current + former if name)


@cache
def _region_names() -> frozenset[str]:
    import pycountry

    return frozenset(" ".join(words(region.name)) for region in pycountry.subdivisions)


def names_something(answer: str, said: list[str]) -> bool:
    """A short head that names a thing (a name, a name with its article, a year), not a description or a
    sentence (an adjective before a common noun, a phrase describing a role, a clause)."""
    if not said or len(said) > NAMING_WORDS or _NOT_A_NAME.match(answer) or _PREDICATE.match(answer) or (
            len(answer.split()) >= 6 and re.search(r"\s(?!(?:of|the|de|van|von|and|la|le|da|di|del|der|du)\s)[a-z]",
                                                   answer)):
        return False  # a clause ("first awarded in 1931", "X reached the final four times"), not a name
    rest = re.sub(r"^the\s+", "", answer.strip(), flags=re.IGNORECASE)
    return answer.strip()[:4].lower() != "the " or bool(re.search(r"[A-Z0-9]", rest))


def is_acronym(letters: str, phrase: list[str]) -> bool:
    """`letters` (two or more) are the initials of the phrase's words, words of up to four letters
    optionally skipped."""
    return (len(letters) >= 2 or len(phrase) <= 1) and _spells(letters, phrase)


def _spells(letters: str, phrase: list[str]) -> bool:
    if not phrase:
        return not letters
    first, rest = phrase[0], phrase[1:]
    return bool(letters and first[0] == letters[0] and _spells(letters[1:], rest)) or (
        len(first) <= 4 and _spells(letters, rest))


def _numeral(word: str) -> int | str | None:
    """A word that is a number: digits, a Roman numeral, an ordinal word, or a code holding digits ("221b")."""
    return int(word) if word.isdigit() else NUMERALS.get(word, word if any(c.isdigit() for c in word) else None)


def _word_apart(said: list[str], wanted: list[str], person: bool, proper: set[str]) -> Finding | None:
    """The same words but one, which is the gold's number written otherwise or another number
    (a ruler's ordinal in words, a probe's serial number), one letter off in a long word of a name (a word
    the gold capitalises, in `proper`: six letters in a name of several words that is not a person's, seven
    otherwise; one letter makes another common word, "nitrate" and "nitrite"), or shortened ("St" for "Street")."""
    differing = [(a, b) for a, b in zip(said, wanted) if a != b]
    if len(said) != len(wanted) or len(differing) != 1:
        return None
    (a, b), several = differing[0], len(said) > 1 and not person
    if len(said) > 1 and _numeral(a) is not None and _numeral(b) is not None:
        same = _numeral(a) == _numeral(b)
        return Finding(Found.MATCH if same else Found.CONFLICT, "text", "the gold's name with "
                       + ("its number written otherwise" if same else f"another number ({a})"))
    if b in proper and min(len(a), len(b)) >= LONG_WORD - several and not (a + b).isdigit() and \
            Levenshtein.distance(a, b) == 1:
        return Finding(Found.MATCH, "spelling", "one letter differs in one word")
    if several and 2 <= len(a) <= 3 and len(b) > len(a) + 1 and a[0] == b[0] and re.search(".*".join(a), b):
        return Finding(Found.MATCH, "spelling", f"a word shortened ({a} for {b})")
    return None


NOTATION = "one is written as a symbol or numeral, the other as a word (only knowledge can tell)"


def _symbol(words: list[str]) -> bool:
    return len(words) == 1 and (len(words[0]) <= 2 or any(c.isdigit() for c in words[0]))


# Words that name a kind of thing, not which one: "Mount A" shares nothing with "Mount B".
_KINDS = frozenset("mount mountain lake river sea ocean deep fall island bay gulf peak cape desert valley strait "
                   "channel canal hms uss university college animation studio company corporation".split())
_DIRECTIONS = frozenset("north south east west northern southern eastern western".split())


def related(claim: list[str], gold: list[str]) -> bool:
    """Any overlap short of a match: a shared word (beyond a particle or a kind of thing), a word
    inside another, alike words, an acronym."""
    claim, gold = ([w for w in text if w not in PARTICLES and w not in _KINDS] or text for text in (claim, gold))
    if not claim or not gold:
        return False
    if ratio("".join(claim), "".join(gold)) >= _RELATED:
        return True
    for a in claim:
        for b in gold:
            if a == b or (min(len(a), len(b)) >= 3 and (a in b or b in a)) or (min(len(a), len(b)) >= 4 and (
                    ratio(a, b) >= _ALIKE or (a[0] == b[0] and ratio(a, b) >= _RELATED))):
                return True
    return (len(claim) == 1 and is_acronym(claim[0], gold)) or (len(gold) == 1 and is_acronym(gold[0], claim))


_PERSON = re.compile(r"\bwho(?:m|se)?\b|\b(?:real|birth|full|maiden|pen)\s+name\b", re.IGNORECASE)
_TITLED = re.compile(r"^(?:sir|dame|dr|professor|lord|lady)\b", re.IGNORECASE)

_RELATIVE = re.compile(r"\b(?:grand|great-?|step|half-?)*(?:brother|sister|father|mother|son|daughter|wife|husband"
                       r"|cousin|uncle|aunt|nephew|niece|sibling|twin)s?\b", re.IGNORECASE)

def _capitalised(answer: str) -> list[str]:
    """The answer's capitalised words, normalised: the words a name is made of."""
    return content(" ".join(re.findall(r"\b[A-Z][\w'-]*", answer)), set())


_EXPANSION = re.compile(r"\bstands?\s+for\b|\b(?:abbreviation|acronym|initialism)\b|\bshort\s+for\b", re.I)
# A work's title asked and answered with a foreign article: maybe its title in the original language.
_WORK_ASKED = re.compile(r"\b(?:opera|operetta|novel|novella|story|film|movie|album|song|book|play|painting|poem"
                         r"|symphony|ballet|musical|work)s?\b", re.IGNORECASE)
_FOREIGN_ARTICLE = re.compile(r"^(?i:der|die|das|le|la|les|il|lo|gli|el|los|las|het|de|den|det|l')\s*[A-Z]")
_SEVERAL = re.compile(r"\b(?:two|three|four|both)\b", re.IGNORECASE)
_ITEM_BREAK = re.compile(r",\s*(?:and\s+)?|\s+and\s+|\s*&\s*", re.IGNORECASE)


def _items(answer: str, gold: str, implied: set[str]) -> Finding | None:
    """For a question asking for several things, a gold listing them ("X and Y") against a claim
    listing as many: the same items in any order match; one that is no item's kind of variant conflicts."""
    said, wanted = ([content(item, implied) for item in _ITEM_BREAK.split(text)] for text in (answer, gold))
    if len(wanted) < 2 or len(said) != len(wanted):
        return None
    if sorted(said) == sorted(wanted):
        return Finding(Found.MATCH, "text", "the gold's items in another order")
    if all(item in wanted or not any(related(item, other) for other in wanted) for item in said):
        return Finding(Found.CONFLICT, "text", "an item the gold does not hold")
    return None


def _other_option(answer: str, gold: str, question: str) -> bool:
    """The answer is the one of two options the question offers ("Which is older, A or B?") that the gold is not:
    the other option is related to the gold and the answer's is not."""
    offered = _OPTIONS.search(question)
    said = words(re.sub(r"^the\s+", "", answer.strip(" ."), flags=re.IGNORECASE))
    options = [words(offered["a"]), words(offered["b"])] if offered else []
    if said not in options:
        return False
    other = options[1 - options.index(said)]
    shared = set(said) & set(other)  # "Bridge" in "the A Bridge or the B Bridge" tells neither apart
    other, said, wanted = ([w for w in text if w not in shared] for text in (other, said, words(gold)))
    return related(other, wanted) and not related(said, wanted)


def sign_spelled(text: str) -> str:
    """A type's closing sign in words ("O-" reads "O negative"), so that the sign is not lost with the punctuation."""
    return _SIGN.sub(lambda m: f"{m[1]} {'positive' if m[2] == '+' else 'negative'}", text)


def compare_text(claim: str, gold: str, question: str) -> Finding:
    """The claim's head against one gold answer in words. `text`: the gold's words, without its place
    qualifier, or as the answer's other name ("X (gold)"); `initials`: an acronym either way. A code the
    rules cannot expand, a word against a symbol, a plural "the" phrase (a nickname) and any other overlap
    are the judge's; a short head naming something that shares nothing with the gold conflicts."""
    implied = set(words(question))
    if not content(gold, implied):
        implied -= set(words(gold))
    answer, detail, gold = (sign_spelled(text) for text in (*head(claim, question), gold))
    said, wanted = content(answer, implied), content(gold, implied)
    spelt, initials = content(answer, set()), content(gold, set())
    spelt = [answer.strip(" .").lower()] if re.fullmatch(r"[A-Z]{2,6}", answer.strip(" .")) else spelt  # "WHO": letters
    if namesake_risk(detail, gold, question) and related(said, wanted):
        return Finding(Found.UNSURE, "place", NAMESAKE)
    if (len(spelt) == 1 and len(initials) > 1 and is_acronym(spelt[0], words(gold))) or (
            len(initials) == 1 and len(spelt) > 1 and is_acronym(initials[0], words(answer))):
        return Finding(Found.MATCH, "initials", "an acronym of the gold, or the gold's acronym spelt out")
    if _other_option(answer, gold, question) or not said and (
            not detail.strip(" .") and len(claim.split()) <= NAMING_WORDS and names_something(answer, spelt)
            and not _symbol(spelt) and content(gold, set(words(question))) and not set(spelt) & set(words(gold))):
        # a bare answer that only repeats the question's entity, sharing nothing with the gold
        return Finding(Found.CONFLICT, "text", "the question's own words given back, or the option it did not pick")
    if not said:
        return Finding(Found.UNSURE, "text", OPEN_OVERLAP[1])
    if _WHICH_ONE.match(detail):  # "X — the one in Y": which of several things of that name, knowledge
        return Finding(Found.UNSURE, "text", "the detail says which of several things of that name")
    if said == wanted or "".join(said) == "".join(wanted):
        return Finding(Found.MATCH, "text", "the gold's words")
    featureless = [w for w in said if w not in _FEATURES] == [w for w in wanted if w not in _FEATURES]
    kinds = {w for w in said if w in _FEATURES}, {w for w in words(gold) if w in _FEATURES}
    if featureless and all(kinds) and kinds[0] != kinds[1]:  # "Bay of X" for "Strait of X": another feature
        return Finding(Found.UNSURE, "text", "the gold's name with another kind of feature")
    if said and wanted and featureless and not (  # "the Niger River" is no country
            _KIND_ASKED.search(question) and set(said) - set(wanted)):
        return Finding(Found.MATCH, "text", "the gold's words, with or without the kind of feature ('Mount', 'Sea')")
    person = bool(_PERSON.search(question) or _TITLED.match(answer))
    proper = set() if _EXPANSION.search(question) else set(_capitalised(gold))  # an expansion's words are exact
    if apart := _word_apart(said, wanted, person, proper):
        return apart
    bare = not _RELATIVE.search(detail) and all(w[0].isupper() or w in PARTICLES for w in answer.split()[1:]) \
        and answer[:1].isupper() and len(answer.split()) > 1  # capitalised names, a surname's particles
    of = len(wanted) > 1 and _numeral(wanted[-1]) is None and words(answer)[:len(wanted) + 1] == [*wanted, "of"]
    named = spelt if any(w not in said for w in _capitalised(answer)) else said  # "X Y", Y the question's: a name
    if (person or ROLE_ASKED.search(question)) and (how := name_match(named, wanted, bare) or (
            of and "the gold's full name, then where from ('of …')")):
        if namesake(detail, wanted):
            return Finding(Found.UNSURE, "name", "the detail names another person of the gold's surname")
        if how == "the surname alone" and _RELATIVE.search(question):
            return Finding(Found.UNSURE, "name", "a surname alone where the question speaks of a relative")
        return Finding(Found.MATCH, "name", how)
    if _SEVERAL.search(question) and (items := _items(answer, gold, implied)) is not None:
        return items
    other = _BRACKETED.match(detail) or _KNOWN_AS.match(detail)
    if other and (content(other[1], implied) == wanted if wanted else other[1].strip() == gold.strip()):  # "(π)"
        return Finding(Found.MATCH, "text", "the gold's words, given as another name for the answer")
    if (place := _PLACE_QUALIFIED.match(_LEAD_IN.sub("", claim.strip()))) and "," not in gold \
            and _PLACE_ASKED.search(question) and content(place[1], implied) == wanted:
        if not _vouched(place[0][len(place[1]):], gold, question):
            return Finding(Found.UNSURE, "place", NAMESAKE)
        return Finding(Found.MATCH, "place", "the gold with a country, or a region the question or gold names")
    located = _LOCATED.match(answer)
    if located and not _PLACE_ASKED.search(question) and content(located[1], implied) == wanted:
        return Finding(Found.MATCH, "text", "the gold, then where it is ('in …')")
    qualified = _QUALIFIER.match(gold[gold.find(","):]) if "," in gold else None
    if qualified and qualified.end() == len(gold) - gold.find(",") and said == content(gold[:gold.find(",")], implied) \
            and not _BOTH_ASKED.search(question):  # "in what city and state …?": the state is asked too
        return Finding(Found.MATCH, "text", "the gold without its place qualifier")
    glued = re.fullmatch(r"[A-Z]{2,4}[a-z]{2,}", answer) and answer[0].lower() == initials[0][0]  # "ULindmark"
    if len(said) == len(wanted) == 1 and all(re.fullmatch(r"(?=.*\d)(?=.*[a-z])[a-z\d]+", w) for w in said + wanted):
        return Finding(Found.CONFLICT, "text", "another code of letters and figures (a formula, a model)")
    if re.fullmatch(r"\d[\d,.]*\s*%?", answer.strip(" .")) and not re.search(r"\d", spelled_to_digits(gold)) and (
            re.search(r"[^\W\d_]{2}", gold) or re.fullmatch(r"\W{1,3}", gold.strip())) \
            and not re.fullmatch(r"[IVXLCDM]+", gold.strip(" .")):
        return Finding(Found.CONFLICT, "text", "a figure where the gold is a name, words or a symbol")
    if re.fullmatch(r"\.[a-z]{2,}", gold.strip()):  # a web domain asked: the answer names one or names something else
        said_domains = re.findall(r"(?<![\w.])\.[a-z]{2,}\b", claim.lower())
        return Finding(Found.MATCH if gold.strip() in said_domains else Found.CONFLICT if not said_domains
                       or len(set(said_domains)) == 1 else Found.UNSURE, "code", "a web domain")
    if len(said) == len(wanted) > 1 and (differ := {(a, b) for a, b in zip(said, wanted) if a != b}) and all(
            a in _DIRECTIONS and b in _DIRECTIONS for a, b in differ):
        return Finding(Found.CONFLICT, "text", "the gold's name with another direction (another place)")
    if _symbol(said) != _symbol(wanted):
        return Finding(Found.UNSURE, "text", NOTATION)
    if re.fullmatch(r"[A-Z]{2,5}", answer.strip(" .")) and not re.fullmatch(r"[A-Z]{2,5}", gold.strip(" .")):
        return Finding(Found.UNSURE, "initials", "a code or abbreviation the rules cannot expand")
    if _PLURAL.fullmatch(answer) and not _PLURAL.fullmatch("the " + gold):  # a side's or people's nickname
        return Finding(Found.UNSURE, "text", f"a plural 'the' phrase may be a nickname ({answer[:60]})")
    if names_something(answer, said) and not glued and not related(said, wanted) \
            and not related(content(detail, implied), wanted):
        if _PLACE_ASKED.search(question) and names_a_country(answer):  # coarser than a city, or wrong: knowledge
            return Finding(Found.UNSURE, "text", f"a country, which may hold the gold ({answer[:60]})")
        if _WORK_ASKED.search(question) and _FOREIGN_ARTICLE.match(answer.strip(" '\"")) \
                and not _FOREIGN_ARTICLE.match(gold.strip(" '\"")):
            return Finding(Found.UNSURE, "text", f"a title with a foreign article, maybe the gold's ({answer[:60]})")
        return Finding(Found.CONFLICT, "text", f"names something else ({answer[:60]})")
    return Finding(Found.UNSURE, "text", f"{OPEN_OVERLAP[0]} ({answer[:60]})")


__all__ = ["NAMESAKE", "OPEN_OVERLAP", "Finding", "Found", "combine", "compare_text", "content", "head", "is_acronym",
           "names_something", "namesake_risk", "related", "sign_spelled", "words"]
