"""What comparing a claim with one gold answer under one match kind found."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


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


def combine(findings: list[Finding], notation: str = "") -> Finding:
    """One finding over the gold and its aliases: a match with any wins; then undecided, vague, conflict.

    A conflict stands only when the claim conflicts with every accepted answer; an alias written in
    another notation than the claim (`notation`: that finding's detail) does not count when another
    alias was compared.
    """
    compared = [finding for finding in findings if finding.detail != notation]
    findings = compared or findings
    for wanted in (Found.MATCH, Found.UNSURE, Found.VAGUE, Found.CONFLICT):
        for finding in findings:
            if finding.found is wanted:
                return finding
    return Finding(Found.UNSURE, "text", "nothing to compare")
