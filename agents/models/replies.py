"""What a reply must be before it is graded or cached: not empty, not far beyond its token budget.

A reply breaks the rules when
- its text is empty or only whitespace;
- the server counts more than `TOKEN_FACTOR` × `max_tokens` completion tokens; or
- its text is longer than `CHARS_PER_TOKEN_LIMIT` × `max_tokens` characters (16 × the ~4
  characters of an average token: no honest reply of `max_tokens` tokens comes near it).
A reply the SDK cannot parse (not UTF-8, not JSON, no choices, no message) is malformed, and so is
one whose `usage` holds a token count that is not a whole number >= 0 (NaN, infinite, negative,
text). All of these are InvalidReply errors: the backends retry them (bounded) and the response cache never stores them.
"""

from __future__ import annotations

import math
from typing import Any

from factprobe.agents.models.base import Completion, GenerationParams, ModelError

TOKEN_FACTOR = 4
CHARS_PER_TOKEN_LIMIT = 16 * 4


class InvalidReply(ModelError):
    """A reply that arrived but cannot be used: empty, oversized or malformed."""


def token_count(usage: Any, field: str) -> int:
    """`usage.<field>` as a token count, 0 when the server sent none; InvalidReply when it is not a
    whole number >= 0 (NaN, infinite, negative, fractional, text or a boolean)."""
    value = getattr(usage, field, None)
    if value is None:
        return 0
    if (isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)
            or value < 0 or value != int(value)):
        raise InvalidReply(f"malformed reply: usage {field} is {value!r}, not a token count")
    return int(value)


def reply_problem(completion: Completion, params: GenerationParams) -> str | None:
    """Why `completion` is not a usable reply to a request with `params`; None when it is."""
    if not isinstance(completion.text, str):
        return f"malformed reply: the content is {type(completion.text).__name__}, not text"
    if not completion.text.strip():
        return "empty reply"
    if completion.completion_tokens > TOKEN_FACTOR * params.max_tokens:
        return (f"oversized reply: {completion.completion_tokens} completion tokens for "
                f"max_tokens {params.max_tokens}")
    if len(completion.text) > CHARS_PER_TOKEN_LIMIT * params.max_tokens:
        return (f"oversized reply: {len(completion.text)} characters for max_tokens "
                f"{params.max_tokens}")
    return None


def checked(completion: Completion, params: GenerationParams) -> Completion:
    """`completion` itself when usable; otherwise InvalidReply saying what is wrong."""
    problem = reply_problem(completion, params)
    if problem is not None:
        raise InvalidReply(problem)
    return completion
