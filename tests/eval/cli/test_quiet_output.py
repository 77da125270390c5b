"""Quiet by default: a run prints its main table and where its files are, `--verbose` every table
and plot path; a sweep prints one line per cell and the sweep table. Runs use recorded answers, so
no model is loaded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
from factprobe.eval.core.schema import Question
from tests.fakes import write_questions

QUESTIONS = [Question(id=f"q{i}", question=f"What is {i} plus {i}?", answer=str(2 * i), category="sums")
             for i in range(1, 7)]


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, Path]:
    answers = tmp_path / "answers.jsonl"
    answers.write_text("".join(json.dumps({"id": q.id, "answer": q.answer if i % 2 else "7", "confidence": 80})
                               + "\n" for i, q in enumerate(QUESTIONS)), encoding="utf-8")
    return f"jsonl:{write_questions(tmp_path / 'q.jsonl', QUESTIONS)}", answers


def test_a_run_prints_the_main_table_unless_verbose(tmp_path, files, capsys) -> None:
    dataset, answers = files
    assert cli.main(["run", "--dataset", dataset, "--answers", str(answers), "--out", str(tmp_path / "a")]) == 0
    brief = capsys.readouterr().out
    assert "Strategies vs recorded" in brief and "Calibration" not in brief and "plot: " not in brief
    assert f"report: {tmp_path / 'a' / 'report.html'}" in brief and "summary.json" in brief
    assert cli.main(["run", "--dataset", dataset, "--answers", str(answers), "--out", str(tmp_path / "b"),
                     "--verbose"]) == 0
    full = capsys.readouterr().out
    assert "Strategies vs recorded" in full and "Calibration" in full and "plot: " in full
    assert len(full.splitlines()) > len(brief.splitlines())
    manifest = json.loads((tmp_path / "b" / "manifest.json").read_text())
    assert manifest["config"]["verbose"] is True


def test_a_sweep_prints_a_line_per_cell_and_its_table(tmp_path, files, capsys) -> None:
    dataset, answers = files
    grid = tmp_path / "grid.toml"
    grid.write_text(f'[sweep]\ndataset = "{dataset}"\nanswers = "{answers}"\nseed = [0, 1]\n', encoding="utf-8")
    assert cli.main(["sweep", str(grid), "--out", str(tmp_path / "sw")]) == 0
    printed = capsys.readouterr().out
    lines = [line for line in printed.splitlines() if line.startswith(("000-seed=0:", "001-seed=1:"))]
    assert len(lines) == 2 and all("recorded F 50.0" in line for line in lines)
    assert "Strategies vs" not in printed and "sweep (answerable questions" in printed


def test_a_verbose_sweep_prints_each_cells_report(tmp_path, files, capsys) -> None:
    dataset, answers = files
    grid = tmp_path / "grid.toml"
    grid.write_text(f'[sweep]\ndataset = "{dataset}"\nanswers = "{answers}"\n', encoding="utf-8")
    assert cli.main(["sweep", str(grid), "--out", str(tmp_path / "sw"), "--verbose"]) == 0
    printed = capsys.readouterr().out
    assert "sweep cell 000-all" in printed and "Strategies vs recorded" in printed and "Calibration" in printed
