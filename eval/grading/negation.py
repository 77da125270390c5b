"""Whether a mention in a claim is denied: "not Paris", "it wasn't in 1882", "Paris is not right"."""

from __future__ import annotations

from factprobe.eval.grading.phrases import NEGATING_PHRASES, NEGATORS
from factprobe.eval.grading.spelled import spelled_to_digits
from factprobe.eval.grading.tokens import Token, tokenize

_NOT_AFTER = (("is", "not"), ("was", "not"), ("isnt",), ("wasnt",), ("is", "wrong"), ("is", "incorrect"),
              ("was", "wrong"), ("is", "a", "misconception"))
_IDIOMS = frozenset({"until", "till", "only", "just", "far", "later", "earlier", "before", "after", "less", "more"})


def _same_clause_run(claim: list[Token], index: int, step: int, limit: int) -> list[str]:
    """Up to `limit` words next to position `index`, walking by `step`, with no punctuation between."""
    words: list[str] = []
    current = index
    while len(words) < limit:
        neighbour = current + step
        if not 0 <= neighbour < len(claim):
            break
        left, right = (claim[neighbour], claim[current]) if step < 0 else (claim[current], claim[neighbour])
        if right.start - left.end > 1:
            break
        words.append(claim[neighbour].norm)
        current = neighbour
    return words if step > 0 else list(reversed(words))


def negated_tokens(claim: list[Token], start: int, end: int) -> bool:
    """True when the words claim[start:end] are denied by a negator just before or a denial just after."""
    before = _same_clause_run(claim, start, -1, 3)
    if any(word in _IDIOMS for word in before):
        return False  # "not until 1932", "not far from Paris"
    if any(word in NEGATORS for word in before):
        return True
    if any(pair in list(zip(before, before[1:])) for pair in NEGATING_PHRASES):
        return True
    after = tuple(_same_clause_run(claim, end - 1, 1, 3))
    return any(after[:len(phrase)] == phrase for phrase in _NOT_AFTER)


def negated_span(text: str, start: int, end: int) -> bool:
    """The same test for a character span of the text (positions after spelled numbers become digits)."""
    claim = tokenize(spelled_to_digits(text))
    inside = [i for i, token in enumerate(claim) if token.start >= start and token.end <= end]
    return bool(inside) and negated_tokens(claim, inside[0], inside[-1] + 1)
