"""What an answer claims: its refusal and hedging, the guess that remains, and its alternatives.

"I'm not sure. Maybe Lyon?" is a refusal clause followed by a hedged guess ("Maybe Lyon?"); the
guess is what gets graded. "Lyon or Paris" holds two candidates; "Malia, Sasha and Susan" is a
short list whose items are compared one by one.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from factprobe.eval.grading.context import is_context
from factprobe.eval.grading.phrases import denies_premise, is_hedged, is_refusal
from factprobe.eval.grading.tokens import HEDGE_WORDS, STOPWORDS, content, names_in, tokenize

_CLAUSE_BREAK = re.compile(
    r"(?<=[.!?;])\s+(?=\S)|\s+[—–]\s+|\s*\((?=[^)]*\b(?:not\s+sure|i\s+think|unsure)\b)"
    r"|,?\s+\b(?:but|however|though|although|yet)\b,?\s+|^(?:but|however),?\s+",
    re.IGNORECASE,
)
# Periods that end an abbreviation or an initial, not a sentence ("3 Sept. 1997", "E. J. Smith").
_ABBREVIATION_DOT = re.compile(
    r"\b(Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|St|Mt|Ft|Dr|Mr|Mrs|Ms|Prof|Jr|Sr|Gen|Capt|Col"
    r"|Rev|No|vs|approx|ca|c|[A-Z])\.(?=\s)")
_OR = re.compile(r"\s*(?:\band/or\b|\bor\b)\s*|,\s*(?=(?:maybe|perhaps|possibly)\s+\w)|\s+/\s+"
                 r"|(?-i:(?<=[a-z])/(?=[A-Z]))", re.IGNORECASE)
# A label before a list ("Candidates: …").
_LABEL = re.compile(r"^\s*(?:candidates|options|possibilities|choices|possible\s+answers)\s*:\s*", re.IGNORECASE)
# A person's name of two words or more (particles such as "van" allowed), or one capitalised name.
_NAME_WORD = r"(?:[A-Z][\w'’.-]*|van|von|de|da|der|del|du|la|le)"
_NAME_ITEM = re.compile(rf"{_NAME_WORD}(?:\s+{_NAME_WORD})+")
_ONE_NAME = re.compile(r"[A-Z][\w'’.-]*")
# What follows a name without being another item: "(1881–1955)", ", a Scottish physician and …".
_ASIDE = re.compile(r"\s*\([^)]*\)|,\s+(?:a|an)\s+.*$"
                    r"|,\s+the\s+(?:[A-Z]\w*\s+)?(?!and\b|or\b)[a-z].*$")
_EITHER = re.compile(r"^\s*(?:it'?s\s+|it\s+(?:is|was)\s+)?either\s+", re.IGNORECASE)
_LIST = re.compile(r"\s*(?:,\s*(?:and\s+)?|\s+and\s+|\s*&\s*)", re.IGNORECASE)
# "No, actually Lyon", "No wait, Lyon", "Actually, Lyon"; not "No human has landed there".
_SELF_CORRECTION = re.compile(
    r"^(?:(?:no|nope)\s*[,:!]\s*|(?:no|nope)\s+(?=(?:wait|actually|i\s+mean|sorry)\b))"
    r"(?:(?:wait|actually|i\s+mean|sorry)\b[,:!]?\s*)?"
    r"|^(?:actually|correction|wait|i\s+mean|scratch\s+that)\b[,:!]?\s+", re.IGNORECASE)
# A later clause that offers another candidate ("though Lyon is also possible", "some sources say Lyon").
_ALTERNATIVE = re.compile(
    r"\b(?:also\s+(?:possible|likely|plausible)|could\s+also\s+be|might\s+also\s+be|may\s+also\s+be"
    r"|alternatively|another\s+possibility|other\s+sources|some\s+sources|others\s+(?:say|claim|suggest)"
    r"|some\s+(?:people\s+|accounts\s+|historians\s+)?(?:say|claim|suggest|argue|give|list|credit)"
    r"|or\s+(?:maybe|perhaps|possibly)|(?:it|that)\s+(?:might|could|may)\s+(?:also\s+|well\s+)?be)\b", re.IGNORECASE)
_BARE_CORRECTION = re.compile(r"^(?:(?:hmm+|um+|uh+|well|oh)[,.]?\s*)?(?:no|nope|wait|actually|scratch\s+that)\W*$",
                              re.IGNORECASE)
# "Many think Jupiter", "Some people say Lyon": a view the answer reports, then corrects.
_HEARSAY = re.compile(r"^(?:many|some|most|people|others|it\s+is\s+often|often)\s+(?:people\s+)?"
                      r"(?:think|say|believe|assume|claim|guess|answer|confuse|mistake)", re.IGNORECASE)
_CORRECTION_WORDS = re.compile(
    r"\b(?:actually|in\s+fact|in\s+reality|rather)\b"
    # "…until 1963; now it's Mombasa": what holds today replaces what held before
    r"|^(?:but\s+)?(?:now|today|currently|nowadays)\b|\bnow\s+(?:it'?s|it\s+is)\b"
    r"|\b(?:is|it'?s)\s+now\s+(?:called|named|known\s+as)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Reading:
    """An answer taken apart: the stance it takes and the guess it makes."""

    refused: bool
    hedged: bool
    denies_premise: bool
    guess: str
    candidates: list[str] = field(default_factory=list)
    listed: bool = False  # written as a list (bullets, one per line, semicolons): its items may be one answer

    @property
    def has_guess(self) -> bool:
        return bool(self.candidates)


def clauses(answer: str) -> list[str]:
    """The answer cut at sentence ends, dashes and contrast words ("but", "however")."""
    text = _ABBREVIATION_DOT.sub(r"\1", answer.replace("\u2019", "'"))
    parts = _CLAUSE_BREAK.split(text)
    return [part.strip() for part in parts if part and part.strip()]


def _meaningful(text: str) -> bool:
    words = content([t.norm for t in tokenize(text)])
    return any(word not in HEDGE_WORDS for word in words)


def split_alternatives(guess: str, keep_or: bool) -> list[str]:
    """"Either Lyon or Paris" -> ["Lyon", "Paris"]; unchanged when the gold itself holds "or"."""
    guess = _EITHER.sub("", guess)
    if keep_or:
        return [guess]
    return [part for part in _OR.split(guess) if part and _meaningful(part)]


def split_list(text: str, people: bool = False) -> list[str]:
    """Items of a short list ("Malia, Sasha and Susan"); the text itself when it is not one.

    Asides are not items: a parenthesis or an apposition ("Fleming, a physician and chemist"), nor
    a label ("Candidates: …"). Commas alone make a list of people's names (`people`) or of three
    names or more: "Paris, France" is one place, "Ada Lind, Otto Brandt" two people.
    """
    text = _ASIDE.sub("", _LABEL.sub("", text)).strip() or text
    items = [item.strip(" .") for item in _LIST.split(text) if item and item.strip(" .")]
    if len(items) < 2 or len(text.split()) > 12 or any(len(item.split()) > 4 for item in items):
        return [text]
    named = all(_NAME_ITEM.fullmatch(item) or _ONE_NAME.fullmatch(item) for item in items)
    if " and " not in f" {text.lower()} " and "&" not in text and not (
            named and (people or len(items) >= 3)):
        return [text]  # "Paris, France" is one place; "Jupiter, Saturn, Neptune" three candidates
    return items


def _guess_after_refusal(clause: str) -> list[str]:
    """Comma-separated pieces of a refusal clause that are a guess.

    A hedged piece after the refusal ("I can't recall, maybe Lyon") or any piece before it
    ("Lyon or Paris, I'm not sure which").
    """
    pieces = [piece.strip() for piece in re.split(r",\s*|\s+so\s+", clause)]
    first_refusal = next((i for i, piece in enumerate(pieces) if is_refusal(piece)), 0)
    return [piece for i, piece in enumerate(pieces) if i != first_refusal and piece and not is_refusal(piece)
            and _meaningful(piece) and (i < first_refusal or is_hedged(piece))]


_BULLET = re.compile(r"^\s*(?:[-*•·+]|\(?\d{1,2}[.)]|\(?[a-h][.)])\s+")
_LEAD_IN = re.compile(r":\s*$")
_LABELLED = re.compile(r"^\s*[A-Za-z][\w ]{0,20}:\s*\S")  # "Confidence: high", "Note: …"
_ITEM_WORDS = 4  # words up to which an unmarked line or a ";" piece can be a bare candidate


def _bare_candidate(piece: str) -> bool:
    """A short piece that only names something ("Bach", "J. S. Bach", "Mount Fuji"), not a sentence."""
    tokens = tokenize(piece)
    if not tokens or len(tokens) > _ITEM_WORDS or _LABELLED.match(piece) or re.search(r"[.!?]\s+\S", piece):
        return False
    return all(t.capitalised or not t.norm.isalpha() or t.norm in ("of", "the", "de", "van", "von", "and")
               for t in tokens) and tokens[0].norm not in STOPWORDS - {"the"}


def listed_items(answer: str) -> list[str] | None:
    """The candidates of an answer written as a list, or None when it is not one.

    A list is two or more lines that all carry a bullet or a number ("- Bach", "2. Handel"), two or
    more lines that each only name something, or names separated by semicolons ("Bach; Handel"). A
    lead-in line ending in ":" is skipped. "X.\nIt was built in 1889." is one answer and its
    explanation; "Answer: X\nConfidence: 80" is one answer.
    """
    lines = [line.strip() for line in answer.strip().splitlines() if line.strip()]
    if lines and _LEAD_IN.search(lines[0]) and len(lines) > 2:
        lines = lines[1:]
    if len(lines) >= 2 and all(_BULLET.match(line) for line in lines):
        return [_BULLET.sub("", line).strip() for line in lines]
    if len(lines) >= 2 and all(_bare_candidate(line.rstrip(" .;,")) for line in lines):
        return [line.rstrip(" .;,") for line in lines]
    pieces = [piece.strip(" .") for piece in answer.strip().split(";")]
    if len(lines) == 1 and len(pieces) >= 2 and all(_bare_candidate(piece) for piece in pieces):
        return pieces
    return None


_FIELD = re.compile(r"^\s*(?P<label>[A-Za-z][\w ]{0,20}?)\s*:\s*(?P<value>\S.*)$")
_STEM = 4  # letters a field's label must share with a question word ("Composer" for "composed")


def answer_field(items: list[str], question: str) -> list[str]:
    """The value of the one field a list of "Label: value" lines gives for what was asked.

    "- Composer: X\n- Premiere: Paris, 1913" for "Who composed …?" answers X; the other fields are
    context, not candidates. The items unchanged when they are not all fields or no single label
    names what the question asks.
    """
    fields = [_FIELD.match(item) for item in items]
    if len(items) < 2 or not all(fields):
        return items
    asked = {t.norm[:_STEM] for t in tokenize(question) if t.norm not in STOPWORDS and len(t.norm) >= _STEM}
    chosen = [f["value"].strip() for f in fields if f is not None and any(
        t.norm[:_STEM] in asked for t in tokenize(f["label"]) if len(t.norm) >= _STEM)]
    return chosen if len(chosen) == 1 else items


_CONFIDENCE = re.compile(
    r"\(?\b(?:confidence|certainty)(?:\s+(?:score|level))?\s*[:=(]?\s*\d{1,3}(?:\.\d+)?\s*%?\)?\.?", re.IGNORECASE)


# A line giving the conclusion after reasoning: "Final answer: 1969", "**Answer:** Lyon".
_CONCLUSION = re.compile(r"\n[ \t>#*_-]*(?:final\s+answer|answer)[*_]*\s*[:：][*_]*[ \t]*(?P<value>\S[^\n]*)",
                         re.IGNORECASE)


def answer_text(answer: str) -> str:
    """The answer without a stated confidence; the "answer" field of a JSON reply; the conclusion after reasoning."""
    stripped = answer.strip()
    conclusions = list(_CONCLUSION.finditer(stripped))
    if conclusions:
        stripped = conclusions[-1]["value"].strip(" *_")
    if stripped.startswith("{") and stripped.endswith("}"):
        try:
            reply = json.loads(stripped)
        except ValueError:
            reply = None
        if isinstance(reply, dict) and isinstance(reply.get("answer"), (str, int, float)):
            return str(reply["answer"])
    return _CONFIDENCE.sub(" ", stripped).strip()


def read_answer(answer: str, keep_or: bool = False, question: str | None = None) -> Reading:
    """Take the answer apart into refusal, hedging, premise denial, and the guess's candidates.

    Given the question, statements beside a refusal that only give context about the question's
    subject are not a guess ("It's a baroque painting, but I don't know who painted it").
    """
    answer = answer_text(answer)
    items = listed_items(answer)
    if items is not None and question is not None:   # without the question no field is the answer
        items = answer_field(items, question)
    parts = items if items is not None else clauses(answer)
    refused = False
    kept: list[str] = []
    alternatives: list[str] = []
    correcting = False
    for part in parts:
        if _BARE_CORRECTION.match(part):
            correcting = bool(kept)  # "Jupiter? Hmm, no — Saturn.": what follows replaces what came before
            continue
        if _HEARSAY.match(part) and not kept and len(parts) > 1:
            continue  # "Many think Jupiter, but it's Saturn": others' view before the answer
        if is_refusal(part):
            refused = True
            kept.extend(_guess_after_refusal(part))
        elif _meaningful(part) and kept and _ALTERNATIVE.search(part):
            if names_in(part) or re.search(r"\d", part):
                alternatives.append(part)  # "…, but it might be Milan"; not "…, but it might be worth checking"
        elif _meaningful(part):
            if correcting or _SELF_CORRECTION.match(part) or (kept and _CORRECTION_WORDS.search(part)):
                kept, correcting = [], False  # "Paris? No, actually Lyon.": the correction replaces what came before
                part = _SELF_CORRECTION.sub("", part)
            kept.append(part)
    if refused and question is not None:
        kept = [part for part in kept if not is_context(part, question)]
    guess = "; ".join(part.rstrip(" .;") for part in kept).strip()
    if items is not None:
        candidates = [c for part in kept for c in split_alternatives(part.rstrip(" .;"), keep_or)] + alternatives
    else:
        candidates = (split_alternatives(guess, keep_or) + alternatives) if guess else []
    return Reading(
        refused=refused or (not kept and is_refusal(answer)),
        hedged=is_hedged(answer),
        denies_premise=denies_premise(guess) if guess else False,
        guess=guess,
        candidates=candidates,
        listed=items is not None and len(candidates) > 1 and len(kept) == len(candidates),
    )


__all__ = ["Reading", "answer_field", "answer_text", "clauses", "listed_items", "read_answer", "split_alternatives",
           "split_list"]
