"""What a run was asked to show leads its printed tables: the --where / --group-by scores, and the
benchmark's own headline (KK/KU/SA for MM-SAP, accuracy beside chance for multiple choice) before
the SimpleQA table. Runs grade recorded answers: no model is loaded and no server is asked."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

import factprobe.eval.cli.main as cli
from factprobe.eval.core.schema import Question
from factprobe.eval.report.build import TABLES, terminal_tables
from factprobe.eval.report.tables.groups import groups_table
from factprobe.eval.report.tables.scores import scores_table
from tests.fakes import write_jsonl, write_questions

CATEGORIES = ["People", "Places", "Science"]


def _answers(path: Path, answers: dict[str, str]) -> Path:
    path.write_text("id\tanswer\n" + "".join(f"{key}\t{value}\n" for key, value in answers.items()),
                    encoding="utf-8")
    return path


def _printed(capsys, argv: list[str]) -> str:
    assert cli.main(argv) == 0
    return " ".join(capsys.readouterr().out.split())


def test_where_scores_lead_the_printed_run_table(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "300")
    data = write_questions(tmp_path / "q.jsonl", [
        Question(id=f"q{i}", question=f"Number {i}?", answer=str(i), category=CATEGORIES[i % 3]) for i in range(9)])
    # People (q0, q3, q6) all correct; the others all wrong: the filter changes CO from 33.3 to 0.0
    answers = _answers(tmp_path / "a.tsv", {f"q{i}": str(i) if i % 3 == 0 else "999" for i in range(9)})
    out = _printed(capsys, ["run", "--dataset", f"jsonl:{data}", "--answers", str(answers),
                            "--out", str(tmp_path / "run"), "--where", "category!=People"])
    filtered, everything = out.index("Scores by all where category!=People"), out.index("Strategies vs")
    assert filtered < everything
    assert "recorded all 6 0.0 100.0 0.0" in out[filtered:everything]
    assert "recorded 33.3 66.7 0.0" in out[everything:]
    assert "the scores where category!=People are in the table above" in out


def test_group_by_leads_and_an_unfiltered_run_prints_the_main_table_alone(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "300")
    data = write_questions(tmp_path / "q.jsonl", [
        Question(id=f"q{i}", question=f"Number {i}?", answer=str(i), category=CATEGORIES[i % 3]) for i in range(6)])
    answers = _answers(tmp_path / "a.tsv", {f"q{i}": str(i) for i in range(6)})
    grouped = _printed(capsys, ["run", "--dataset", f"jsonl:{data}", "--answers", str(answers),
                                "--out", str(tmp_path / "grouped"), "--group-by", "category"])
    assert grouped.index("Scores by category") < grouped.index("Strategies vs")
    assert "recorded Places 2 100.0" in grouped
    plain = _printed(capsys, ["run", "--dataset", f"jsonl:{data}", "--answers", str(answers),
                              "--out", str(tmp_path / "plain")])
    assert "Strategies vs" in plain and "Scores by" not in plain


def test_multiple_choice_accuracy_beside_chance_leads(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "300")
    data = write_jsonl(tmp_path / "mc.jsonl", [
        {"id": f"m{i}", "question": f"Which colour {i}?", "choices": ["red", "blue", "green", "pink"],
         "answer": "blue"} for i in range(4)])
    answers = _answers(tmp_path / "a.tsv", {f"m{i}": "blue" for i in range(4)})
    out = _printed(capsys, ["run", "--dataset", f"mcq:{data}", "--answers", str(answers),
                            "--out", str(tmp_path / "run")])
    assert out.index("Multiple choice") < out.index("Strategies vs")
    assert "recorded 4 100.0 25.0" in out                 # accuracy, then chance for four options


def _summary(**sections: object) -> dict:
    return {"strategies": {}, **sections}


def test_the_headline_table_follows_what_the_summary_holds() -> None:
    tables = TABLES.values()
    names = lambda summary, verbose=False: [t.__name__ for t in terminal_tables(summary, tables, verbose)]  # noqa: E731
    assert names(_summary()) == ["scores_table"]
    assert names(_summary(multiple_choice={"vanilla": {}})) == ["multiple_choice_table", "scores_table"]
    # MM-SAP: its knowledge quadrants lead, not the multiple-choice accuracy
    mmsap = _summary(multiple_choice={"vanilla": {}}, self_awareness={"vanilla": {}})
    assert names(mmsap) == ["self_awareness_table", "scores_table"]
    grouped = _summary(groups={"by": ["category"]}, self_awareness={"vanilla": {}})
    assert names(grouped)[:3] == ["groups_table", "self_awareness_table", "scores_table"]
    every = names(grouped, verbose=True)
    assert every[:3] == ["groups_table", "self_awareness_table", "scores_table"]
    assert len(every) == len(tables) and len(set(every)) == len(every)


def test_the_self_awareness_table_prints_kk_ku_sa_first() -> None:
    from factprobe.eval.self_awareness.table import self_awareness_table

    entry = {"n": 10, "n_unanswerable": 2, "score_kk": 0.5, "score_ku": 0.2, "score_sa": 0.7, "answer_rate": 0.8,
             "answer_accuracy": 0.625, "unknown_knowns_rate": 0.1, "undetermined": 0, "excluded": 0}
    summary = _summary(self_awareness={"refusal": entry})
    console = Console(file=io.StringIO(), width=300)
    for table in terminal_tables(summary, [scores_table, groups_table, self_awareness_table], verbose=False):
        if table is not scores_table:          # an empty summary has no main table to print
            table(summary, console)
    assert "refusal 10 2 50.0 20.0 70.0" in " ".join(console.file.getvalue().split())
