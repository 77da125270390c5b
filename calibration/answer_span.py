"""Finding the answer's tokens inside a generated reply, for token-probability confidence.

The reply is rebuilt by concatenating the generated tokens' texts, so every token has a character
range. The answer span is where the parsed answer (what `agents.parsing.parse_answer` returned)
occurs after the first "Answer:" label — the same label the parser anchors on — or from the start
of the reply when there is no label. Every token whose character range overlaps that span belongs
to it: a leading-space token " Paris" counts; the newline and the "Confidence:" line do not. The
match is exact first, then case-insensitive; no match means no span (None), never a guess.

Which call: the latest model call with logprobs whose own reply parses to the final answer, i.e.
the call that produced the answer (for vanilla, its single `generate` call).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from factprobe.agents.parsing import parse_answer
from factprobe.eval.core.schema import CallRecord, TokenLogprob

_LABEL = re.compile(r"^\s*\**\s*(?:final\s+)?answer\s*\**\s*[:：-]", re.IGNORECASE | re.MULTILINE)


def reply_text(tokens: Sequence[TokenLogprob]) -> str:
    return "".join(token.token for token in tokens)


def answer_span(tokens: Sequence[TokenLogprob], answer: str) -> list[TokenLogprob] | None:
    """The tokens covering `answer` after the "Answer:" label, or None when it is not found."""
    if not tokens or not answer:
        return None
    text = reply_text(tokens)
    label = _LABEL.search(text)
    begin = label.end() if label else 0
    start = text.find(answer, begin)
    if start < 0:
        start = text.lower().find(answer.lower(), begin)
    if start < 0:
        return None
    end = start + len(answer)
    span: list[TokenLogprob] = []
    offset = 0
    for token in tokens:
        token_end = offset + len(token.token)
        if offset < end and token_end > start:
            span.append(token)
        offset = token_end
    return span or None


def answer_tokens(calls: Sequence[CallRecord], answer: str | None) -> tuple[list[TokenLogprob] | None, str]:
    """The final answer's tokens from the call that produced it, and a note on where they came from
    (or why there are none: no answer, no logprobs, no call whose reply gives this answer)."""
    if not answer:
        return None, "no answer"
    with_logprobs = [call for call in calls if call.logprobs]
    if not with_logprobs:
        return None, "no call returned logprobs"
    for call in reversed(with_logprobs):
        tokens = call.logprobs or []   # not empty: kept above
        if parse_answer(reply_text(tokens)) != answer:
            continue
        span = answer_span(tokens, answer)
        if span:
            return span, f"call {call.purpose!r}"
    return None, "no call with logprobs produced this answer"
