"""The grader's locked-set record (eval/grading/data/locked_measurement.json) and the summary section
that reports it: it was measured on the locked set it names, by the rules this tree ships, and
measuring that set again with these rules gives the recorded figures exactly."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from factprobe.eval.analysis.grader_record import grader_locked_set
from factprobe.eval.analysis.summary import SummaryInput
from factprobe.eval.cli.record_locked import measure
from factprobe.eval.grading.locked_record import FIGURES, RECORD, locked_figures, rules_digest

DATA = Path(__file__).parents[2] / "data"


def test_the_record_names_a_locked_set_of_this_tree() -> None:
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    cases = DATA / record["set"]
    assert record["set"].startswith("grading_cases_locked_v") and cases.is_file()
    assert record["set_sha256"] == hashlib.sha256(cases.read_bytes()).hexdigest(), "the set changed since"


def test_the_rules_are_the_ones_measured() -> None:
    """Failing here means a rule module changed after the locked measurement: the recorded figures no
    longer describe these rules. Write a new locked set (unseen by whoever changes the rules) and
    measure it once: python -m factprobe.eval.cli.record_locked tests/data/grading_cases_locked_vN.jsonl"""
    figures = locked_figures()
    assert figures is not None and figures["rules_changed_since"] is False


def test_measuring_again_gives_the_recorded_figures() -> None:
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    again = measure(DATA / record["set"])
    assert again["rules_sha256"] == record["rules_sha256"]
    assert {key: again[key] for key in FIGURES} == {key: record[key] for key in FIGURES}
    assert again["per_form"] == record["per_form"]


def test_the_digest_follows_the_rule_modules(tmp_path: Path) -> None:
    assert rules_digest() == rules_digest() and len(rules_digest()) == 64
    changed = tmp_path / "record.json"
    changed.write_text(json.dumps({"rules_sha256": "0" * 64}), encoding="utf-8")
    assert locked_figures(changed) == {"rules_sha256": "0" * 64, "rules_changed_since": True}
    assert locked_figures(tmp_path / "absent.json") is None


def test_the_summary_reports_it_only_where_the_rules_graded() -> None:
    ruled = grader_locked_set(SummaryInput(rows=[], manifest={"config": {"grader": "cascade"}}))
    assert ruled is not None and ruled["set"].startswith("grading_cases_locked_v")
    assert grader_locked_set(SummaryInput(rows=[], manifest={"config": {"grader": "judge"}})) is None
