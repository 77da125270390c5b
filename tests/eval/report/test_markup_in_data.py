"""Rich markup in a run's data ("[/bold]x[red]" as a category, "[red]" in a strategy label or an
error) prints literally in the terminal tables: it neither crashes `report` or `compare` nor
vanishes or styles the text."""

from __future__ import annotations

import json
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


def test_audit_grader_prints_case_types_and_its_file_name_literally(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "[red]cases[/red]"          # the folder "[red]cases[" and in it "red]"
    folder.mkdir(parents=True)
    cases = folder / "c.jsonl"
    lines = [{"question": "Capital of France?", "gold": "Paris", "answer": "Paris", "label": "CORRECT",
              "case_type": "[/bold]"},
             {"question": "Capital of Italy?", "gold": "Rome", "answer": "Milan", "label": "INCORRECT",
              "case_type": "[red]x[/red]"}]
    cases.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    capsys.readouterr()
    assert cli.main(["audit-grader", str(cases)]) == 0
    captured = capsys.readouterr()
    assert "[/bold]" in captured.out and "[red]x[/red]" in captured.out and str(cases) in captured.out
    assert "Traceback" not in captured.err


def test_a_sweep_prints_cell_names_and_option_values_literally(tmp_path: Path, capsys,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Two datasets whose paths hold markup ("[/bold]" is the folder "[" and the file "bold]…");
    the answers are recorded, so no model is loaded."""
    monkeypatch.chdir(tmp_path)                     # short relative paths: the table shows them whole
    paths = [Path("[red]x[/red].jsonl"), Path("[") / "bold]y.jsonl"]
    for path in paths:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_questions(path, QUESTIONS)
    answers = tmp_path / "answers.jsonl"
    answers.write_text("".join(json.dumps({"id": q.id, "answer": "Paris", "confidence": 80}) + "\n"
                               for q in QUESTIONS), encoding="utf-8")
    grid = tmp_path / "grid.toml"
    datasets = ", ".join(json.dumps(f"jsonl:{path}") for path in paths)
    grid.write_text(f'[sweep]\ndataset = [{datasets}]\nanswers = "{answers}"\n', encoding="utf-8")
    capsys.readouterr()
    assert cli.main(["sweep", str(grid), "--out", "sw"]) == 0
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    # each cell's line, its name made of the dataset's path with "/" as "_"
    assert "000-dataset=jsonl_[red]x[_red].jsonl: recorded F 100.0" in captured.out
    assert "001-dataset=jsonl_[_bold]y.jsonl: recorded F 100.0" in captured.out
    # the table's dataset column
    assert "jsonl:[red]x[/red].jsonl" in captured.out and "jsonl:[/bold]y.jsonl" in captured.out


def test_a_run_directory_named_with_markup_prints_literally(tmp_path: Path, capsys,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """`--out …/[/bold]run` (the folder "[" holding "bold]run"): the lines naming it neither crash nor lose it."""
    data = write_questions(tmp_path / "q.jsonl", QUESTIONS)
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: ScriptedModel(
        lambda messages, params: "Answer: Paris\nConfidence: 80"))
    out = tmp_path / "[" / "bold]run"
    out.parent.mkdir()
    capsys.readouterr()
    assert cli.main(["run", "--dataset", f"jsonl:{data}", "--strategies", "vanilla", "--no-cache",
                     "--out", str(out)]) == 0
    printed = " ".join(capsys.readouterr().out.split())
    assert f"run directory: {out}" in printed and f"report: {out / 'report.html'}" in printed
    assert cli.main(["run", "--resume", "--out", str(out)]) == 0
    assert f"nothing to run: every row of {out} is done" in " ".join(capsys.readouterr().out.split())
