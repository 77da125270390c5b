"""Places, titles and other named answers: the gold's words in the claim, minus the words the question implies.

A gold word that also appears in the question, a leading preposition ("In Amsterdam.") and
stopwords may be left out. The gold must appear as one run of the claim (small typos allowed,
order kept); a capitalised word glued to that run that is neither gold, question nor a type word
("North Dakota" for "Dakota") makes it another entity; a negator just before it ("not Paris")
denies it.
"""

from __future__ import annotations

from factprobe.eval.grading.negation import negated_tokens
from factprobe.eval.grading.short_forms import kind_swapped, team_nickname
from factprobe.eval.grading.tokens import STOPWORDS, TYPE_WORDS, Token, content, same_word, tokenize
from factprobe.eval.grading.verdict import Finding, Verdict

ACRONYM_REASON = "states the gold as an acronym or its expansion"
# Words that tell apart places of one name ("South Dakota", "New Guinea"); without them an answer is coarser.
QUALIFIERS = frozenset("north south east west northern southern eastern western central upper lower new old "
                       "great greater little".split())
_PREPOSITIONS = frozenset("in on at by from of to for during near inside within".split())


def required_words(gold: str, question_words: set[str]) -> list[str]:
    """The gold's words an answer must state: not implied by the question, not stopwords.

    A hyphenated name stays whole: "Guinea-Bissau" asked about Bissau still needs "Bissau".
    """
    tokens = tokenize(gold)
    while tokens and (tokens[0].norm in _PREPOSITIONS or tokens[0].norm in ("a", "an", "the")):
        tokens = tokens[1:]
    words = [t.norm for t in tokens]
    hyphenated = {index for index, token in enumerate(tokens) if index and token.gap == "-"}
    hyphenated |= {index - 1 for index in hyphenated}
    required = [t.norm for index, t in enumerate(tokens) if t.norm not in STOPWORDS and (
        index in hyphenated or (t.norm not in question_words and t.norm not in TYPE_WORDS))]
    return required or content(words) or words


def _find_run(claim: list[Token], required: list[str], allowed: set[str], skip: int = 0) -> tuple[int, int] | None:
    """Start and end (exclusive) of the first run, from position `skip`, holding the required words in order."""
    for start, token in enumerate(claim):
        if start < skip or not same_word(token.norm, required[0]):
            continue
        position, index = 1, start + 1
        while position < len(required) and index < len(claim):
            word = claim[index].norm
            if same_word(word, required[position]):
                position += 1
            elif word not in allowed:
                break
            index += 1
        if position == len(required):
            return start, index
    return None


def _joined_compounds(claim: list[Token], gold_words: set[str]) -> list[Token]:
    """Claim words written apart that make one gold word ("deoxyribo nucleic" -> "deoxyribonucleic")."""
    joined: list[Token] = []
    index = 0
    while index < len(claim):
        token = claim[index]
        following = claim[index + 1] if index + 1 < len(claim) else None
        if following is not None and following.gap in (" ", "-") and token.norm not in gold_words \
                and any(same_word(token.norm + following.norm, word) for word in gold_words):
            joined.append(Token(token.text + following.text, token.norm + following.norm, token.start,
                                following.end, token.gap))
            index += 2
            continue
        joined.append(token)
        index += 1
    return joined


# "near Stockholm", "north of Lyon": the gold named as a reference point, not as the answer.
_RELATIONS = (("near",), ("outside",), ("beside",), ("nearby",), ("close", "to"), ("next", "to"), ("north", "of"),
              ("south", "of"), ("east", "of"), ("west", "of"), ("northeast", "of"), ("northwest", "of"),
              ("southeast", "of"), ("southwest", "of"), ("far", "from"), ("suburb", "of"), ("across", "from"))


def _landmark(claim: list[Token], start: int) -> bool:
    """The run at `start` follows a spatial relation ("near", "north of") in the same clause."""
    words = [t.norm for t in claim[max(0, start - 2):start]]
    if start < len(claim) and any(ch in claim[start].gap for ch in ",;.:"):
        return False
    return any(tuple(words[-len(relation):]) == relation for relation in _RELATIONS)


def _not_the_answer(claim: list[Token], start: int, end: int, gold_tokens: list[Token]) -> str | None:
    """Why the gold stated at claim[start:end] is not put forward as the answer, if it is not.

    "Jupiter's moon Ganymede" names something of the gold; "Jupiter-like" a word built on it;
    "Saturn (Jupiter is smaller)" mentions it only in an aside.
    """
    following = claim[end] if end < len(claim) else None
    possessive = claim[end - 1].text.lower().endswith(("'s", "’s")) and not gold_tokens[-1].text.lower().endswith(
        ("'s", "’s"))
    if possessive and following is not None and following.gap == " ":
        return f"names something of the gold ({claim[end - 1].text} {following.text})"
    if following is not None and following.gap == "-" and not following.capitalised:
        return f"a word built on the gold ({claim[end - 1].text}-{following.text})"
    opened = "".join(t.gap for t in claim[:start + 1])
    if opened.count("(") > opened.count(")"):
        outside = [t for t in claim[:start] if t.capitalised and t.norm not in STOPWORDS]
        if outside:
            return "mentions the gold only in an aside"
    return None


def _widen(claim: list[Token], start: int, end: int, gold_words: set[str]) -> tuple[int, int]:
    """The run grown over touching gold words the required words left out ("Republic of the Congo")."""
    while start > 0 and claim[start - 1].norm in gold_words and len(claim[start].gap) <= 1:
        start -= 1
    while end < len(claim) and claim[end].norm in gold_words and len(claim[end].gap) <= 1:
        end += 1
    return start, end


def _glued_entity(claim: list[Token], start: int, end: int, known: set[str], gold_typed: bool,
                  lower_case: bool) -> str | None:
    """A capitalised word touching the run that makes it a different name, if any.

    A type word ("Mount", "River") may stand beside a gold that has none; beside a gold that has
    its own ("Golden Gate Park"), another type word ("Golden Gate Bridge") is another entity.
    """
    for index in (start - 1, end):
        if not 0 <= index < len(claim):
            continue
        token = claim[index]
        gap = claim[index + 1].start - token.end if index == start - 1 else token.start - claim[index - 1].end
        if gap > 1:
            continue  # separated by punctuation, e.g. "Paris, France"
        if lower_case and index == start - 1 and token.norm.isalpha() and token.norm not in STOPWORDS \
                and token.norm not in known and token.norm not in TYPE_WORDS:
            return token.text  # "north dakota" written in lower case
        if (token.capitalised and token.norm.isalpha() and token.norm not in STOPWORDS
                and token.norm not in known and (gold_typed or token.norm not in TYPE_WORDS)
                and not token.norm.endswith("ly")):
            return token.text
    return None


def _subtitle(claim: list[Token], end: int, known: set[str]) -> str | None:
    """A capitalised subtitle right after the run ("Star Wars: The Empire Strikes Back")."""
    if end >= len(claim) or claim[end].gap.strip() not in (":", "-", "–", "—"):
        return None
    return next((t.text for t in claim[end:end + 3]
                 if t.capitalised and t.norm not in STOPWORDS and t.norm not in known), None)


def _glued_strangers(claim: list[Token], present: list[str], known: set[str]) -> list[str]:
    """Capitalised words touching a gold word that are not gold ("Mount Kenya" for Mount Kilimanjaro)."""
    strangers = []
    for index, token in enumerate(claim):
        if not any(same_word(token.norm, word) for word in present):
            continue
        for other in (index - 1, index + 1):
            if not 0 <= other < len(claim):
                continue
            neighbour = claim[other]
            touching = len((claim[max(index, other)].gap)) <= 1
            if (touching and neighbour.capitalised and neighbour.norm.isalpha() and neighbour.norm not in STOPWORDS
                    and neighbour.norm not in known and not any(same_word(neighbour.norm, w) for w in known)):
                strangers.append(neighbour.text)
    return strangers


def _other_modifier(claim: list[Token], required: list[str], missing: list[str], known: set[str]) -> str | None:
    """The claim's phrase when it keeps the gold's head noun but swaps its modifier, if it does.

    "Great White Shark" for "whale shark": the gold's last word (its head) is stated, the gold's
    words before it are not, and another word stands right before it: a different kind of the
    same thing. "The pressure of the air" (no word before the head) and a gold that names an
    action ("transport oxygen" for "carrying oxygen") stay undecided.
    """
    head = required[-1]
    if head in missing or len(required) > 3 or not all(word in required[:-1] for word in missing):
        return None
    if any(word.endswith("ing") for word in required[:-1]):
        return None  # "carrying oxygen" names an action: another verb for it is a paraphrase, not another kind
    for index, token in enumerate(claim):
        if index == 0 or not same_word(token.norm, head):
            continue
        before = claim[index - 1]
        if token.gap in (" ", "-") and before.norm.isalpha() and before.norm not in STOPWORDS \
                and before.norm not in known and not before.norm.endswith("ly"):
            return " ".join(t.text for t in claim[max(0, index - 2):index + 1])
    return None


def acronym(words: list[Token]) -> str:
    """Initials of the capitalised words ("Food and Agriculture Organization" -> "fao")."""
    return "".join(t.norm[0] for t in words if t.capitalised and t.norm.isalpha())


def _spelled_acronyms(claim: list[Token]) -> set[str]:
    """Initials of each run of capitalised words in the claim ("Food and Agriculture Organization")."""
    found: set[str] = set()
    for start, token in enumerate(claim):
        if not token.capitalised:
            continue
        initials = ""
        for word in claim[start:]:
            if word.capitalised and word.norm.isalpha():
                initials += word.norm[0]
                found.add(initials)
            elif word.norm not in ("and", "of", "for", "the", "on", "in"):
                break
    return found


def _acronym_match(claim: list[Token], gold_tokens: list[Token]) -> bool:
    """An acronym of the gold in the claim, or the gold's acronym spelled out in the claim."""
    gold_short = acronym(gold_tokens)
    if len(gold_tokens) >= 2 and len(gold_short) >= 3 and any(
            t.text.isupper() and t.norm == gold_short for t in claim):
        return True
    if len(gold_tokens) == 1 and gold_tokens[0].text.isupper() and len(gold_tokens[0].norm) >= 3:
        return gold_tokens[0].norm in _spelled_acronyms(claim)
    return False


def match_text(claim: list[Token], gold: str, question_words: set[str]) -> Verdict:
    """Compare a claim with a named gold (place, title, term)."""
    gold_tokens = tokenize(gold)
    if _acronym_match(claim, gold_tokens):
        return Verdict(Finding.MATCH, ACRONYM_REASON)
    gold_words = [t.norm for t in gold_tokens]
    required = required_words(gold, question_words)
    claim = _joined_compounds(claim, set(required))
    if not required:
        return Verdict(Finding.ABSENT, "gold has no words")
    allowed = set(gold_words) | question_words | STOPWORDS | TYPE_WORDS
    run = _find_run(claim, required, allowed)
    landmark = None
    while run is not None and _landmark(claim, run[0]):
        landmark = landmark or run
        run = _find_run(claim, required, allowed, skip=run[0] + 1)
    if run is None and landmark is not None:
        return Verdict(Finding.UNDECIDED, "mentions the gold only as a landmark "
                       f"({' '.join(t.text for t in claim[max(0, landmark[0] - 2):landmark[1]])})")
    if run is None:
        present = [w for w in required if any(same_word(t.norm, w) for t in claim)]
        strangers = _glued_strangers(claim, present, set(gold_words) | question_words)
        other_numbers = [t.text for t in claim if t.norm.isdigit() and t.norm not in gold_words]
        if any(w.isdigit() for w in required if w not in present) and other_numbers:
            return Verdict(Finding.CONFLICT, f"a different number in the name ({other_numbers[0]})")
        named = all(t.capitalised or t.norm in STOPWORDS or not t.norm.isalpha() for t in gold_tokens)
        if present and strangers and named:  # a description ("aid to rebuild Western Europe") is not a name
            return Verdict(Finding.CONFLICT, f"names a different entity sharing part of the gold ({strangers[0]})")
        if present and len(present) < len(required):
            missing = [w for w in required if w not in present]
            if all(word in QUALIFIERS for word in missing):
                return Verdict(Finding.CONFLICT, f"less specific than the gold (drops '{' '.join(missing)}')",
                               partial=True)
            if team_nickname(claim, gold_tokens, present, question_words):
                return Verdict(Finding.MATCH, "names the team by its nickname")
            if kind_swapped(claim, gold_tokens, missing, question_words):
                return Verdict(Finding.MATCH, "names the gold with the question's word for its kind")
            other = _other_modifier(claim, required, missing, set(gold_words) | question_words)
            if other:
                return Verdict(Finding.CONFLICT, f"the gold's head noun with another modifier ({other})")
            return Verdict(Finding.UNDECIDED, f"states only part of the gold (missing: {' '.join(missing)})")
        if present:
            return Verdict(Finding.UNDECIDED, "gold words present but not as one phrase")
        return Verdict(Finding.ABSENT, "does not state the gold")
    start, end = _widen(claim, *run, set(gold_words))
    if negated_tokens(claim, start, end):
        return Verdict(Finding.CONFLICT, "negates the gold")
    aside = _not_the_answer(claim, start, end, gold_tokens)
    if aside:
        return Verdict(Finding.UNDECIDED, aside)
    subtitle = _subtitle(claim, end, set(gold_words) | question_words)
    if subtitle:
        return Verdict(Finding.CONFLICT, f"names a longer title than the gold ('{subtitle}')")
    glued = _glued_entity(claim, start, end, set(gold_words) | question_words,
                          gold_typed=any(word in TYPE_WORDS for word in gold_words),
                          lower_case=not any(t.capitalised for t in claim))
    if glued:
        return Verdict(Finding.CONFLICT, f"names a different entity containing the gold ('{glued}')")
    return Verdict(Finding.MATCH, "states the gold")
