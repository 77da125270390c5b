"""Repeats at temperature 0 repeat identical answers: a run says so once, on the command line as a
note and from the quiet Python API as a warning; a run whose repeats can differ says nothing.
Runs grade recorded answers: no model is loaded and no server is asked."""

from __future__ import annotations

import warnings

import pytest

import factprobe
import factprobe.eval.cli.main as cli
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.core.schema import Question
from factprobe.eval.run.checks import repeat_notes
from tests.fakes import write_questions


@pytest.fixture
def recorded(tmp_path):
    data = write_questions(tmp_path / "q.jsonl", [Question(id=f"q{i}", question=f"Number {i}?", answer=str(i))
                                                  for i in range(2)])
    answers = tmp_path / "a.tsv"
    answers.write_text("id\tanswer\nq0\t0\nq1\t1\n", encoding="utf-8")
    return data, answers


def test_the_command_notes_it_once(recorded, tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "400")
    data, answers = recorded
    base = ["run", "--dataset", f"jsonl:{data}", "--answers", str(answers), "--repeats", "2"]
    assert cli.main([*base, "--out", str(tmp_path / "cold")]) == 0
    out = capsys.readouterr().out
    assert out.count("--repeats 2 at --temperature 0: recorded will give the same answer in every repeat") == 1
    assert cli.main([*base, "--temperature", "0.7", "--out", str(tmp_path / "warm")]) == 0
    assert "same answer in every repeat" not in capsys.readouterr().out


def test_the_quiet_api_warns_once(recorded, tmp_path) -> None:
    data, answers = recorded
    with pytest.warns(UserWarning, match=r"repeats=2 at temperature=0: recorded will give the same answer") as seen:
        factprobe.run(dataset=f"jsonl:{data}", answers=str(answers), repeats=2, out=tmp_path / "cold", quiet=True)
    assert len([w for w in seen if "same answer" in str(w.message)]) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # any warning fails the run below
        factprobe.run(dataset=f"jsonl:{data}", answers=str(answers), repeats=1, out=tmp_path / "one", quiet=True)


def test_sampling_strategies_and_single_runs_get_no_note() -> None:
    assert repeat_notes(RunConfig(strategies=["best_of_n"], repeats=3)) == []
    assert repeat_notes(RunConfig(strategies=["vanilla"], repeats=1)) == []
    assert repeat_notes(RunConfig(strategies=["vanilla"], repeats=3, temperature=0.2)) == []
    [note] = repeat_notes(RunConfig(strategies=["vanilla", "best_of_n"], repeats=3))
    assert ": vanilla will give" in note and "best_of_n" not in note
