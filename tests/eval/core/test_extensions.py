"""One registry mechanism for every extension kind, with one rule for duplicate names."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from factprobe.agents.plugins import load_plugin
from factprobe.eval.analysis import summary
from factprobe.eval.core.extensions import DEFAULT_ORDER, DuplicateExtensionError, Registry
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


def test_items_are_listed_by_order_then_name_whatever_the_registration_order() -> None:
    registry: Registry[str] = Registry("thing", "factprobe.no_such_group")
    for name, order in [("zeta", 5), ("beta", 20), ("alpha", 20), ("first", 1), ("plugin", DEFAULT_ORDER)]:
        registry.add(name, name.upper(), f"pkg.{name}", order)
    assert list(registry.items()) == ["first", "zeta", "alpha", "beta", "plugin"]


def test_builtin_order_is_fixed_by_the_registrations() -> None:
    """The built-ins keep the order they had when modules were listed by hand; a plugin's item
    (default order) comes after all of them."""
    from factprobe.agents.registry import STRATEGIES
    from factprobe.eval.datasets.registry import LOADERS
    from factprobe.eval.run.confidence import METHODS
    from factprobe.eval.run.steps import POST_STEPS

    assert list(summary.SECTIONS.items()) == [
        "strategies", "baseline", "per_category", "groups", "gains", "modality_gains", "repeats", "ttc", "self_awareness",
        "grading", "grader_locked_set", "per_hop", "per_hop_pooled", "decomposition", "calibration", "calibration_gains", "reliability",
        "video_evidence",
        "taxonomy", "multiple_choice"]
    assert [name.rsplit(".", 1)[1] for name in summary.STRATEGY_METRICS.items()] == [
        "simpleqa_scores", "costs", "retrieval_scores", "verbal_calibration", "confidence_cost",
        "videosimpleqa_f_score"]
    assert [name.rsplit(".", 1)[1] for name in report.TABLES.items()] == [
        "scores_table", "groups_table", "repeats_table", "modality_table", "retrieval_table", "ttc_table", "self_awareness_table", "per_hop_table",
        "decomposition_table", "calibration_table", "calibration_gains_table", "multiple_choice_table"]
    assert [name.rsplit(".", 1)[1] for name in report.PLOTS.items()] == [
        "gains_plot", "ttc_plot", "per_hop_plot", "reliability_diagrams", "confidence_histogram", "risk_coverage_curves",
        "taxonomy_plot", "multiple_choice_plot"]
    assert list(POST_STEPS.items()) == ["grade_samples", "prefix_picks", "forced_reask", "hop_probes",
                                        "chain_hops", "confidence", "video_evidence", "multiple_choice"]
    assert list(METHODS.items()) == ["verbal", "token_prob", "consistency", "p_true"]
    assert list(STRATEGIES.items()) == ["vanilla", "best_of_n", "decompose", "rag", "refusal", "refusal_option",
                                        "option_likelihood", "option_perplexity", "self_refine", "recorded"]
    assert list(LOADERS.items()) == ["jsonl", "simpleqa", "musique", "hotpotqa", "2wiki", "selfaware", "kuq",
                                     "fanoutqa", "compceleb", "videosimpleqa", "mcq", "mmworld", "worldsense",
                                     "worldvqa", "mmsap"]
    for registry in (summary.SECTIONS, summary.STRATEGY_METRICS, report.TABLES, report.PLOTS, POST_STEPS,
                     METHODS, STRATEGIES, LOADERS):
        assert all(entry.order < DEFAULT_ORDER for entry in registry._items.values()
                   if entry.origin.startswith("factprobe.")), registry.kind


def test_the_installed_entry_points_are_the_ones_pyproject_declares() -> None:
    """factprobe's own modules reach their registries only through the entry points of its install;
    an install older than pyproject.toml would silently drop a section (reinstall: pip install -e .)."""
    import tomllib
    from importlib.metadata import entry_points

    declared = tomllib.loads((Path(__file__).parents[3] / "pyproject.toml").read_text())["project"]["entry-points"]
    assert set(declared) == {"factprobe.strategies", "factprobe.summary", "factprobe.report",
                             "factprobe.post_steps", "factprobe.confidence", "factprobe.loaders"}
    for group, points in declared.items():
        installed = {point.name: point.value for point in entry_points(group=group)
                     if point.dist is not None and point.dist.name == "factprobe"}
        assert installed == points, f"{group}: the install is stale; run pip install -e ."


def test_a_registry_imports_only_its_own_entry_point_when_asked_for_one_name() -> None:
    import subprocess
    import sys

    probe = ("import sys\nfrom factprobe.eval.datasets.registry import LOADERS\n"
             "assert LOADERS.get('kuq').name == 'kuq'\n"
             "print(sorted(m.rsplit('.', 1)[1] for m in sys.modules if m.startswith('factprobe.eval.datasets.')))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert "kuq" in out and "musique" not in out and "worldsense" not in out


def test_entry_points_are_read_once_per_sys_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Reading entry points scans every installed distribution: a run asks for several groups, so
    the scan is kept, and read again only when sys.path changes (a folder added may bring more)."""
    from importlib.metadata import entry_points

    from factprobe.eval.core import extensions

    reads: list[int] = []

    def counted() -> Any:
        reads.append(1)
        return entry_points()

    monkeypatch.setattr(extensions, "entry_points", counted)
    monkeypatch.setattr(extensions, "_scanned", {})
    strategies = extensions.declared_points("factprobe.strategies")
    vanilla = extensions.declared_points("factprobe.strategies", "vanilla")
    loaders = extensions.declared_points("factprobe.loaders")
    assert len(reads) == 1
    assert {point.name for point in strategies} == {point.name for point in entry_points(group="factprobe.strategies")}
    assert [point.name for point in vanilla] == ["vanilla"]
    assert {point.value for point in loaders} == {point.value for point in entry_points(group="factprobe.loaders")}
    monkeypatch.syspath_prepend(str(tmp_path))
    extensions.declared_points("factprobe.strategies")
    assert len(reads) == 2
