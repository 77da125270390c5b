"""The rule grader's figures on its newest locked set, as measured once, and whether the rules changed since.

A locked set is labelled answers written by someone who saw neither the rules nor the other case
files' answers, measured once against the rules and never tuned on before that. The measurement is
kept in `data/locked_measurement.json` with a digest of the rule modules' source at the time; a
run's summary reports it (`grader_locked_set`) with `rules_changed_since`, true when the rules a run
uses are not the ones measured. Written by `python -m factprobe.eval.grading.locked_record CASES`.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sys
from datetime import date
from pathlib import Path
from typing import Any

RECORD = Path(__file__).parent / "data" / "locked_measurement.json"
# The modules whose code decides a rule grade; any change to one is a change of the rules.
RULE_MODULES = ("base", "dates", "match_codes", "match_text", "match_values", "numbers", "phrases", "reading",
                "rules", "spelled")
FIGURES = ("n", "decided_agreement", "over_credit", "under_credit", "undecided_share", "f_labels", "f_grades",
           "f_delta", "f_delta_ci_low", "f_delta_ci_high", "kappa")


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


def measure(cases: Path) -> dict[str, Any]:
    """The rule grader's audit figures on a labelled case file, overall and per answer form."""
    from factprobe.eval.grading.audit import audit_summary, grade_cases, load_cases
    from factprobe.eval.grading.rules import RuleGrader

    figures = audit_summary(asyncio.run(grade_cases(load_cases(cases), RuleGrader())))
    adversarial = figures["per_form"].get("adversarial", {})
    return {
        "set": cases.name, "set_sha256": hashlib.sha256(cases.read_bytes()).hexdigest(),
        "measured_on": date.today().isoformat(), "rules_sha256": rules_digest(),
        **{key: figures[key] for key in FIGURES},
        "per_form": {form: {key: values.get(key) for key in FIGURES if key in values}
                     for form, values in figures["per_form"].items()},
        "adversarial_wrong_graded_correct": adversarial.get("over_credit_n"),
    }


def main(argv: list[str] | None = None) -> int:
    """Measure CASES and write the record (once per locked set: measuring is what spends it)."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m factprobe.eval.grading.locked_record CASES.jsonl", file=sys.stderr)
        return 2
    measured = measure(Path(args[0]))
    RECORD.write_text(json.dumps(measured, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(measured, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
