"""`python -m factprobe.eval.cli.record_locked CASES`: measure the rule grader once on a new locked set
and write the record a run's summary reports (factprobe.eval.grading.locked_record). Measuring is
what spends a locked set: run it once, on a set written before the rules it measures."""

from __future__ import annotations

import asyncio
import hashlib
import json
import sys
from datetime import date
from pathlib import Path
from typing import Any

from factprobe.eval.cli.audit import f_delta_interval
from factprobe.eval.grading.audit import audit_summary, grade_cases, load_cases
from factprobe.eval.grading.locked_record import FIGURES, RECORD, rules_digest
from factprobe.eval.grading.rules import RuleGrader


def measure(cases: Path) -> dict[str, Any]:
    """The rule grader's audit figures on a labelled case file, overall and per answer form."""
    rows = asyncio.run(grade_cases(load_cases(cases), RuleGrader()))
    figures = {**audit_summary(rows), **f_delta_interval(rows)}
    adversarial = figures["per_form"].get("adversarial", {})
    return {
        "set": cases.name, "set_sha256": hashlib.sha256(cases.read_bytes()).hexdigest(),
        "measured_on": date.today().isoformat(), "rules_sha256": rules_digest(),
        **{key: figures[key] for key in FIGURES},
        "per_form": {form: {key: values[key] for key in FIGURES if key in values}
                     for form, values in figures["per_form"].items()},
        "adversarial_wrong_graded_correct": adversarial.get("over_credit_n"),
    }


def main(argv: list[str] | None = None) -> int:
    """Measure CASES and write the record."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m factprobe.eval.cli.record_locked CASES.jsonl", file=sys.stderr)
        return 2
    measured = measure(Path(args[0]))
    RECORD.write_text(json.dumps(measured, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(measured, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
