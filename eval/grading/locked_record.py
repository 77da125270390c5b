"""The rule grader's figures on its newest locked set, as measured once, and whether the rules changed since.

A locked set is labelled answers written by someone who saw neither the rules nor the other case
files' answers, measured once against the rules and never tuned on before that. The measurement is
kept in `data/locked_measurement.json` with a digest of the rule modules' source at the time; a
run's summary reports it (`grader_locked_set`) with `rules_changed_since`, true when the rules a run
uses are not the ones measured. Written by `python -m factprobe.eval.cli.record_locked CASES`.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

RECORD = Path(__file__).parent / "data" / "locked_measurement.json"
# The modules whose code decides a rule grade; any change to one is a change of the rules.
RULE_MODULES = ("base", "dates", "match_codes", "match_formulas", "match_names", "match_text", "match_units",
                "match_values", "match_parts", "numbers", "phrases", "reading", "refusal_context", "reply_lines",
                "rules", "sentence_names", "sentence_slot", "spelled", "wording")
FIGURES = ("n", "decided_agreement", "over_credit", "under_credit", "undecided_share", "f_labels", "f_grades",
           "f_decided", "f_delta", "f_delta_ci_low", "f_delta_ci_high", "kappa")


def rules_digest() -> str:
    """sha256 over the rule modules' source, in a fixed order."""
    digest = hashlib.sha256()
    for name in RULE_MODULES:
        digest.update((Path(__file__).parent / f"{name}.py").read_bytes())
    return digest.hexdigest()


def locked_figures(record: Path = RECORD) -> dict[str, Any] | None:
    """The recorded measurement with `rules_changed_since`; None when no measurement is recorded."""
    if not record.is_file():
        return None
    measured = json.loads(record.read_text(encoding="utf-8"))
    return {**measured, "rules_changed_since": measured["rules_sha256"] != rules_digest()}
