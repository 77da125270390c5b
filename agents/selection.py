"""Choosing one answer among samples: majority vote, highest confidence, or the model's own pick.

Pure functions over recorded samples, shared by the best_of_n graph and the offline test-time-compute
curves, so a curve recomputed from results.jsonl selects exactly as the run did.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from factprobe.agents.prompts import SELECT_SYSTEM, SELECT_USER, question_block
from factprobe.eval.core.normalize import normalize_answer

SELECTORS = ("model", "majority", "confidence")

_BEST_LINE = re.compile(r"^\W*best(?:\s+(?:answer|candidate))?\W*?(?:[:：=-]|\s+is\b)?\s*(?:candidate\s*)?"
                        r"[#\[(]?\s*(\d+)\b", re.IGNORECASE | re.MULTILINE)
_ONLY_NUMBER = re.compile(r"^\W*(?:candidate\s*)?[#\[(]?\s*(\d+)\s*[\])]?\W*$", re.IGNORECASE)
_CANDIDATE_REF = re.compile(r"\bcandidate\s*(?:number\s*)?[#\[(]?\s*(\d+)\b", re.IGNORECASE)
_ANSWER_IS = re.compile(r"^\W*(?:the\s+)?(?:best\s+)?answer(?:\s+to\s+(?:this|the)\s+question)?\s+is\s*:?\s*"
                        r"(?P<rest>[^\n]*?)\s*(?:\.\s|\.?$)", re.IGNORECASE | re.MULTILINE)
_INDEX = re.compile(r"^(?:candidate\s*)?[#\[(]?(\d+)[\])]?$", re.IGNORECASE)


def majority_index(answers: Sequence[str | None]) -> int:
    """Index of the first sample whose normalised answer is the most frequent (self-consistency).

    Missing or empty answers do not vote; ties go to the answer that occurred first; with no
    votes at all the first sample is chosen.
    """
    keys = [normalize_answer(answer) if answer else "" for answer in answers]
    votes = Counter(key for key in keys if key)
    if not votes:
        return 0
    best = max(votes.values())
    return next(i for i, key in enumerate(keys) if key and votes[key] == best)


def confidence_index(confidences: Sequence[float | None]) -> int:
    """Index of the sample with the highest stated confidence; None loses, ties go to the first.

    With no stated confidence at all the first sample is chosen.
    """
    best_index, best_value = 0, None
    for index, value in enumerate(confidences):
        if value is not None and (best_value is None or value > best_value):
            best_index, best_value = index, value
    return best_index


def candidate_lines(answers: Sequence[str | None]) -> str:
    """Numbered candidates (1-based) as the selection prompt shows them."""
    return "\n".join(f"{number}. {answer or '(no answer)'}" for number, answer in enumerate(answers, 1))


def selection_messages(question: str, passages: list[dict] | None,
                       answers: Sequence[str | None]) -> list[dict[str, str]]:
    """The prompt asking the model to pick the best of its numbered candidates."""
    user = SELECT_USER.format(question_block=question_block(question, passages),
                              candidates=candidate_lines(answers))
    return [{"role": "system", "content": SELECT_SYSTEM}, {"role": "user", "content": user}]


def parse_pick(text: str, answers: Sequence[str | None]) -> int | None:
    """The 0-based index the model picked, or None when its reply names no candidate clearly.

    Tried in order: an anchored "Best: k" line; a reply that is only a number ("2", "[2]",
    "Candidate 2"); a single distinct "candidate k" mention; a reply opening with "The answer is X"
    where X is a candidate's answer (that candidate) or else a number k (candidate k); a reply whose
    first line is exactly one candidate's answer (small models often repeat the answer instead of its
    number). A number outside 1..N is no pick.
    """
    count = len(answers)

    def valid(number: str) -> int | None:
        index = int(number) - 1
        return index if 0 <= index < count else None

    match = _BEST_LINE.search(text)
    if match:
        return valid(match.group(1))
    stripped = text.strip()
    match = _ONLY_NUMBER.match(stripped)
    if match:
        return valid(match.group(1))
    mentioned = {int(m) for m in _CANDIDATE_REF.findall(text)}
    if len(mentioned) == 1:
        return valid(str(mentioned.pop()))
    said = _ANSWER_IS.match(stripped)
    if said:
        rest = said.group("rest").strip()
        named = same_answer(rest, answers)
        if named is not None:
            return named
        number = _INDEX.match(rest)
        if number:
            return valid(number.group(1))
    return same_answer(stripped.splitlines()[0], answers) if stripped else None


def same_answer(reply: str, answers: Sequence[str | None]) -> int | None:
    """Index of the first candidate whose normalised answer equals the reply's, if any."""
    key = normalize_answer(reply)
    if not key:
        return None
    return next((i for i, answer in enumerate(answers) if answer and normalize_answer(answer) == key), None)
