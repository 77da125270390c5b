"""Places, titles and other named answers: the gold's words in the claim, minus the words the question implies.

A gold word that also appears in the question, a leading preposition ("In Amsterdam.") and
stopwords may be left out. The gold must appear as one run of the claim (small typos allowed,
order kept); a capitalised word glued to that run that is neither gold, question nor a type word
("North Dakota" for "Dakota") makes it another entity; a negator just before it ("not Paris")
denies it.
"""

from __future__ import annotations

from factprobe.eval.grading.negation import negated_tokens
from factprobe.eval.grading.tokens import STOPWORDS, TYPE_WORDS, Token, content, same_word, tokenize
from factprobe.eval.grading.verdict import Finding, Verdict

ACRONYM_REASON = "states the gold as an acronym or its expansion"
_PREPOSITIONS = frozenset("in on at by from of to for during near inside within".split())


def required_words(gold: str, question_words: set[str]) -> list[str]:
    """The gold's words an answer must state: not implied by the question, not stopwords."""
    words = [t.norm for t in tokenize(gold)]
    while words and (words[0] in _PREPOSITIONS or words[0] in ("a", "an", "the")):
        words = words[1:]
    required = [w for w in content(words) if w not in question_words and w not in TYPE_WORDS]
    return required or content(words) or words


def _find_run(claim: list[Token], required: list[str], allowed: set[str]) -> tuple[int, int] | None:
    """Start and end (exclusive) of the first run holding the required words in order."""
    for start, token in enumerate(claim):
        if not same_word(token.norm, required[0]):
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
    if not required:
        return Verdict(Finding.ABSENT, "gold has no words")
    allowed = set(gold_words) | question_words | STOPWORDS | TYPE_WORDS
    run = _find_run(claim, required, allowed)
    if run is None:
        present = [w for w in required if any(same_word(t.norm, w) for t in claim)]
        strangers = _glued_strangers(claim, present, set(gold_words) | question_words)
        other_numbers = [t.text for t in claim if t.norm.isdigit() and t.norm not in gold_words]
        if any(w.isdigit() for w in required if w not in present) and other_numbers:
            return Verdict(Finding.CONFLICT, f"a different number in the name ({other_numbers[0]})")
        if present and strangers:
            return Verdict(Finding.CONFLICT, f"names a different entity sharing part of the gold ({strangers[0]})")
        if present and len(present) < len(required):
            missing = [w for w in required if w not in present]
            return Verdict(Finding.UNDECIDED, f"states only part of the gold (missing: {' '.join(missing)})")
        if present:
            return Verdict(Finding.UNDECIDED, "gold words present but not as one phrase")
        return Verdict(Finding.ABSENT, "does not state the gold")
    start, end = run
    if negated_tokens(claim, start, end):
        return Verdict(Finding.CONFLICT, "negates the gold")
    subtitle = _subtitle(claim, end, set(gold_words) | question_words)
    if subtitle:
        return Verdict(Finding.CONFLICT, f"names a longer title than the gold ('{subtitle}')")
    glued = _glued_entity(claim, start, end, set(gold_words) | question_words,
                          gold_typed=any(word in TYPE_WORDS for word in gold_words),
                          lower_case=not any(t.capitalised for t in claim))
    if glued:
        return Verdict(Finding.CONFLICT, f"names a different entity containing the gold ('{glued}')")
    return Verdict(Finding.MATCH, "states the gold")
