"""What one comparison of an answer's claim with one gold answer found."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Finding(str, Enum):
    """The outcome of comparing a claim with a gold answer, before hedging and refusals are weighed."""

    MATCH = "match"          # states the gold (typed comparison)
    VAGUE = "vague"          # neither confirms nor contradicts ("around 100k", a bound)
    UNDECIDED = "undecided"  # rules cannot tell (a paraphrase, a partial overlap)
    CONFLICT = "conflict"    # contradicts the gold (wrong value, other entity, negation, coarser)
    ABSENT = "absent"        # nothing of the gold's type in the claim


@dataclass(frozen=True)
class Verdict:
    """A finding and the reason the grader records in its note.

    `partial`: the claim agrees with the gold as far as it goes but states less (a year for a full
    date, one item of a two-item list, a name without its qualifier). Alone that is INCORRECT
    (granularity); beside an admission that the rest is unknown it is NOT_ATTEMPTED (SimpleQA).
    """

    finding: Finding
    reason: str
    partial: bool = False


# Which verdict wins when a claim is compared with the gold and each alias.
PRECEDENCE = (Finding.MATCH, Finding.VAGUE, Finding.UNDECIDED, Finding.CONFLICT, Finding.ABSENT)


def best(verdicts: list[Verdict]) -> Verdict:
    """The verdict of highest precedence (an alias that matches wins over one that does not)."""
    return min(verdicts, key=lambda verdict: PRECEDENCE.index(verdict.finding))
