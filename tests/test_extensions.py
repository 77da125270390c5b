"""One registry mechanism for every extension kind, with one rule for duplicate names."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from factprobe.agents.plugins import load_plugin
from factprobe.eval.analysis import summary
from factprobe.eval.core.extensions import DuplicateExtensionError, Registry
from factprobe.eval.core.schema import Result
from factprobe.eval.report import build as report


def test_same_origin_replaces_another_origin_is_an_error() -> None:
    registry: Registry[int] = Registry("thing", "factprobe.no_such_group")
    registry.add("a", 1, "pkg.f")
    registry.add("a", 2, "pkg.f")                    # the same code run again
    assert registry.items() == {"a": 2}
    with pytest.raises(DuplicateExtensionError, match=r"thing 'a' is registered twice: by pkg.f and by other.g"):
        registry.add("a", 3, "other.g")


def test_a_users_plugin_adds_a_summary_section_and_a_table(tmp_path: Path, monkeypatch, capsys) -> None:
    """Importing a user's file runs its decorators: its section appears in every summary."""
    summary.SECTIONS.load()                                   # then work on a copy, undone afterwards
    report.TABLES.load()
    monkeypatch.setattr(summary.SECTIONS, "_items", dict(summary.SECTIONS._items))
    monkeypatch.setattr(report.TABLES, "_items", dict(report.TABLES._items))
    plugin = tmp_path / "my_section.py"
    plugin.write_text(textwrap.dedent('''
        from factprobe.eval.report.build import report_table
        from factprobe.eval.analysis.summary import summary_section

        @summary_section("answer_lengths")
        def answer_lengths(data):
            return {row.strategy: len(row.answer or "") for row in data.rows}

        @report_table
        def lengths_table(summary, console):
            console.print(f"lengths: {summary['answer_lengths']}")
    '''), encoding="utf-8")
    load_plugin(str(plugin))
    row = Result.model_validate({"question_id": "q", "strategy": "vanilla", "repeat": 0, "question": "?",
                                 "gold": "Paris", "category": "c", "answer": "Paris", "grade": "CORRECT",
                                 "grader": "rules"})
    built = summary.build_summary([row])
    assert built["answer_lengths"] == {"vanilla": 5}
    assert "vanilla" in built["strategies"]                   # the built-in sections still ran
    with pytest.raises(DuplicateExtensionError, match="summary section 'answer_lengths'"):
        summary.summary_section("answer_lengths")(lambda data: None)
