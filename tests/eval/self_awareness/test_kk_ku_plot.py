"""The score_kk against score_ku scatter of `factprobe compare … --html` (MM-SAP Fig. 5): one point
per run and strategy at the run's own self-awareness scores, undefined scores left out and named.

The runs are answered by scripted models in process (tests/fakes.py), on invented questions of
which two have no answer; nothing leaves the machine.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.eval.analysis.loaded_runs import load_runs
from factprobe.eval.core.schema import Question
from factprobe.eval.self_awareness.plot import kk_ku_figure, kk_ku_points, self_awareness_figures
from tests.fakes import ScriptedModel, last_user, write_questions

QUESTIONS = [Question(id=f"known-{n}", question=f"Which invented river runs through town {n}?", answer=f"Vell {n}")
             for n in range(4)]
QUESTIONS += [Question(id=f"open-{n}", question=f"What will the invented mayor of town {n} say next year?",
                       answer=None, answerable=False, unanswerable_reason="future") for n in range(2)]


def scripted(knows: set[str]):
    """Answers the questions in `knows` with their gold and declines every other one."""
    def script(messages, params) -> str:
        question = next(q for q in QUESTIONS if q.question in last_user(messages))
        return f"Answer: {question.answer}" if question.id in knows else "Answer: I don't know"
    return script


def make_run(tmp_path: Path, monkeypatch, name: str, knows: set[str]) -> Path:
    data = write_questions(tmp_path / "questions.jsonl", QUESTIONS)
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: ScriptedModel(scripted(knows), name))
    out = tmp_path / name
    assert cli.main(["run", "--dataset", f"jsonl:{data}", "--strategies", "vanilla", "--repeats", "1",
                     "--no-cache", "--out", str(out)]) == 0
    return out


def regraded_copy(run: Path, out: Path, question_id: str, grade: str) -> Path:
    """A copy of `run` whose row for `question_id` carries `grade` (one run answered, two compared)."""
    shutil.copytree(run, out)
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    for row in rows:
        if row["question_id"] == question_id:
            row["grade"] = grade
    (out / "results.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    return out


def test_compare_html_draws_each_run_at_its_kk_and_ku(tmp_path, monkeypatch, capsys) -> None:
    # cautious: knows two, declines the rest -> KK 2, KU 2 + 2 unanswerable, of 6
    cautious = make_run(tmp_path, monkeypatch, "cautious", {"known-0", "known-1"})
    # sure: also right on a third -> KK 3, KU 1 + 2 unanswerable, of 6
    sure = regraded_copy(cautious, tmp_path / "sure", "known-2", "CORRECT")
    points, left_out = kk_ku_points(load_runs([cautious, sure]))
    assert left_out == []
    assert [(label, round(kk, 2), round(ku, 2)) for label, kk, ku in points] == [
        ("cautious", 33.33, 66.67), ("sure", 50.0, 50.0)]
    summary = json.loads((cautious / "summary.json").read_text())["self_awareness"]["vanilla"]
    assert (100 * summary["score_kk"], 100 * summary["score_ku"]) == pytest.approx(points[0][1:])
    axis = kk_ku_figure(load_runs([cautious, sure])).axes[0]   # MM-SAP Fig. 5: kk across, ku up
    assert (axis.get_xlabel(), axis.get_ylabel()) == ("score_kk (%)", "score_ku (%)")
    assert [tuple(map(lambda v: round(float(v), 2), c.get_offsets()[0])) for c in axis.collections] == [
        (33.33, 66.67), (50.0, 50.0)]

    out = tmp_path / "pages" / "cmp.html"
    assert cli.main(["compare", str(cautious), str(sure), "--html", str(out)]) == 0
    capsys.readouterr()
    assert (out.parent / "cmp_files" / "self_awareness.png").stat().st_size > 0
    assert 'data-name="self_awareness"' in out.read_text()


def test_undefined_scores_are_left_out_and_no_scores_draw_nothing(tmp_path) -> None:
    runs = [SimpleNamespace(name="a", summary={"self_awareness": {
                "refusal": {"score_kk": 0.5, "score_ku": 0.25}, "vanilla": {"score_kk": None, "score_ku": None}}}),
            SimpleNamespace(name="b", summary={})]
    points, left_out = kk_ku_points(runs)
    assert points == [("a: refusal", 50.0, 25.0)] and left_out == ["a: vanilla"]
    assert self_awareness_figures([runs[1]], tmp_path / "cmp_files") == []
    [path] = self_awareness_figures(runs, tmp_path / "cmp_files")
    assert path == tmp_path / "cmp_files" / "self_awareness.png" and path.with_suffix(".svg").is_file()
