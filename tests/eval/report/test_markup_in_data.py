"""Rich markup in a run's data ("[/bold]x[red]" as a category, "[red]" in a strategy label or an
error) prints literally in the terminal tables: it neither crashes `report` or `compare` nor
vanishes or styles the text."""

from __future__ import annotations

from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.eval.core.console import RedactingConsole
from factprobe.eval.core.schema import Question
from factprobe.eval.report.tables.groups import groups_table
from factprobe.eval.report.tables.literal import LiteralTable
from tests.fakes import ScriptedModel, write_questions

CATEGORY = "[/bold]x[red]"
QUESTIONS = [Question(id=f"q{i}", question=f"Which city is capital number {i}?", answer="Paris",
                      category=CATEGORY if i % 2 else "[bold]plain") for i in range(4)]


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("markup")
    data = write_questions(folder / "q.jsonl", QUESTIONS)
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: ScriptedModel(
            lambda messages, params: "Answer: Paris\nConfidence: 80", "[red]model"))
        out = folder / "run"
        assert cli.main(["run", "--dataset", f"jsonl:{data}", "--strategies", "vanilla,refusal", "--no-cache",
                         "--model", "[red]model", "--out", str(out)]) == 0
    return out


def test_report_group_by_category_prints_the_markup_literally(run_dir: Path, capsys) -> None:
    capsys.readouterr()
    assert cli.main(["report", str(run_dir), "--group-by", "category"]) == 0
    out = capsys.readouterr().out
    assert CATEGORY in out and "[bold]plain" in out


def test_compare_prints_the_markup_literally(run_dir: Path, capsys) -> None:
    capsys.readouterr()
    assert cli.main(["compare", str(run_dir), str(run_dir)]) == 0
    out = capsys.readouterr().out
    assert CATEGORY in out and "[red]model" in out


def printed(draw) -> str:
    console = RedactingConsole(record=True, width=200, color_system=None)
    draw(console)
    return console.export_text()


def test_an_error_and_a_strategy_label_print_literally() -> None:
    error = {"groups": {"by": ["category"], "where": None, "error": "no field [red]x[/bold] in these rows"}}
    assert "scores by category: no field [red]x[/bold] in these rows" in printed(lambda c: groups_table(error, c))
    table = LiteralTable(title="vs [bold]base")
    table.add_column("[i]strategy")
    table.add_row("[red]s vs [/red]t")
    text = printed(lambda c: c.print(table))
    assert "vs [bold]base" in text and "[i]strategy" in text and "[red]s vs [/red]t" in text
