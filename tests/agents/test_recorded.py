"""The recorded strategy: answers read from a file (a human baseline), graded and reported like
any strategy, with bad files refused before any question and missing answers counted as errors."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.agents.strategies.recorded import AnswersFileError, RecordedAnswer, read_answers
from factprobe.eval.core import text_files
from factprobe.eval.core.schema import Question
from factprobe.eval.run.failures import EXIT_TOO_MANY_ERRORS
from factprobe.eval.store.run_dir import RunDir
from tests.fakes import ScriptedModel, last_user, peak_bytes_raising, refused, write_questions

QUESTIONS = [
    Question(id="danube", question="Which river flows through Vienna?", answer="Danube", category="rivers"),
    Question(id="mercury", question="Which planet is closest to the Sun?", answer="Mercury", category="space"),
    Question(id="everest", question="What is the highest mountain on Earth?", answer="Mount Everest",
             category="mountains"),
]
ANSWERS_TSV = "id\tanswer\tconfidence\tannotator\ndanube\tthe Danube\t90\tp1\nmercury\tVenus\t60\tp2\n"


@pytest.fixture
def dataset(tmp_path: Path) -> str:
    return f"jsonl:{write_questions(tmp_path / 'questions.jsonl', QUESTIONS)}"


@pytest.fixture
def no_model(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(spec, **kwargs):
        raise AssertionError("a run of recorded answers alone must not load a model")

    monkeypatch.setattr(pipeline, "load_model", refuse)


def test_recorded_answers_are_graded_and_a_missing_id_is_an_error_row(tmp_path, dataset, no_model) -> None:
    answers = tmp_path / "people.tsv"
    answers.write_text(ANSWERS_TSV, encoding="utf-8")
    out = tmp_path / "run"
    # one question of three has no recorded answer: an ERROR row, above the default --max-error-rate
    assert cli.main(["run", "--dataset", dataset, "--answers", str(answers), "--out", str(out)]) \
        == EXIT_TOO_MANY_ERRORS
    rows = {row.question_id: row for row in RunDir(out).read_results()}
    assert {row.strategy for row in rows.values()} == {"recorded"}
    assert rows["danube"].grade == "CORRECT" and rows["danube"].confidence == 90
    assert rows["mercury"].grade == "INCORRECT" and rows["mercury"].confidence == 60
    assert rows["everest"].grade == "ERROR" and "no recorded answer for question 'everest'" in rows["everest"].error
    assert rows["danube"].trace[0]["line"] == 2 and rows["danube"].llm_calls == 0
    summary = json.loads((out / "summary.json").read_text())
    recorded = summary["strategies"]["recorded"]
    assert (recorded["correct"], recorded["incorrect"], recorded["errors"]) == (1, 1, 1)
    assert recorded["latency_s_mean"] is None and recorded["prompt_tokens_mean"] is None
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["model"]["backend"] == "none" and manifest["strategy_flags"]["recorded"]["recorded"]
    assert manifest["config"]["answers"] == str(answers)


def test_recorded_beside_a_model_strategy_gets_paired_gains_without_cost_ratios(tmp_path, dataset,
                                                                               monkeypatch) -> None:
    def script(messages, params) -> str:
        return "Answer: Danube\nConfidence: 70" if "Vienna" in last_user(messages) else "Answer: Mars\nConfidence: 50"

    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: ScriptedModel(script))
    answers = tmp_path / "people.jsonl"
    answers.write_text("".join(json.dumps(record) + "\n" for record in (
        {"question_id": "danube", "answer": "Danube"}, {"id": "mercury", "answer": "Mercury", "confidence": 95},
        {"id": "everest", "answer": None})), encoding="utf-8")
    out = tmp_path / "run"
    assert cli.main(["run", "--dataset", dataset, "--strategies", "vanilla,recorded", "--answers", str(answers),
                     "--out", str(out)]) == 0
    grades = {row.question_id: row.grade for row in RunDir(out).read_results() if row.strategy == "recorded"}
    assert grades == {"danube": "CORRECT", "mercury": "CORRECT", "everest": "NOT_ATTEMPTED"}
    summary = json.loads((out / "summary.json").read_text())
    gain = summary["gains"]["recorded"]
    assert gain["f_score_delta"] > 0 and gain["latency_ratio"] is None and gain["tokens_ratio"] is None
    assert summary["strategies"]["vanilla"]["latency_s_mean"] is not None


BAD_FILES = [
    ("a.tsv", "id\tanswer\tconfidence\nx\tParis\t90\ny\tRome\thigh\n", "line 3, field `confidence`"),
    ("a.tsv", "id\tanswer\tconfidence\nx\tParis\t190\n", "line 2, field `confidence`"),
    ("a.tsv", "id\tresponse\nx\tParis\n", "line 2: field `answer` is missing"),
    ("a.tsv", "id\tanswer\tconfidance\nx\tParis\t3\n", "unknown field `confidance` (did you mean `confidence`?)"),
    ("a.jsonl", '{"id": "x", "answer": "Paris"}\n{"id": "x", "answer": "Rome"}\n', "line 2, field `id`: 'x' is answered twice"),
    ("a.jsonl", '{"id": "x", "answer": "Paris"}\n{"id": "y", "answer": 3}\n', "line 2, field `answer`"),
    ("a.jsonl", '{"id": "x", "answer": "Paris"\n', "line 1: not valid JSON"),
    ("a.jsonl", '{"id": "x", "answer": "Paris", "repeat": -1}\n', "line 1, field `repeat`"),
    ("a.tsv", "", "holds no answers"),
]


@pytest.mark.parametrize(("name", "text", "expected"), BAD_FILES)
def test_a_bad_answers_file_stops_the_run_naming_file_line_and_field(tmp_path, dataset, no_model, capsys,
                                                                     name, text, expected) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    out = tmp_path / "run"
    assert cli.main(["run", "--dataset", dataset, "--answers", str(path), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and expected in err, err
    assert not (out / "manifest.json").exists()


def test_recorded_and_answers_go_together(tmp_path, dataset, no_model, capsys) -> None:
    assert cli.main(["run", "--dataset", dataset, "--strategies", "recorded", "--out", str(tmp_path / "a")]) == 2
    assert "give --answers FILE" in capsys.readouterr().err
    answers = tmp_path / "people.tsv"
    answers.write_text(ANSWERS_TSV, encoding="utf-8")
    assert cli.main(["run", "--dataset", dataset, "--strategies", "vanilla", "--answers", str(answers),
                     "--out", str(tmp_path / "b")]) == 2
    assert "add it to --strategies" in capsys.readouterr().err


def test_answers_per_repeat_and_resume_from_another_directory(tmp_path, dataset, no_model, monkeypatch) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    (first / "a.jsonl").write_text("".join(json.dumps({"id": qid, "answer": answer, "repeat": repeat}) + "\n"
                                           for qid, answer, repeat in (("danube", "Danube", 0), ("danube", "Rhine", 1),
                                                                       ("mercury", "Mercury", 0), ("mercury", "Mercury", 1),
                                                                       ("everest", "K2", 0), ("everest", "K2", 1))))
    out = tmp_path / "run"
    monkeypatch.chdir(first)
    assert cli.main(["run", "--dataset", dataset, "--answers", "a.jsonl", "--repeats", "2", "--out", str(out)]) == 0
    grades = {(row.question_id, row.repeat): row.grade for row in RunDir(out).read_results()}
    assert grades[("danube", 0)] == "CORRECT" and grades[("danube", 1)] == "INCORRECT"
    monkeypatch.chdir(second)                      # the manifest holds the file's absolute path
    assert cli.main(["run", "--resume", "--out", str(out)]) == 0


LIMIT = 256 * 1024     # text_files.MAX_LINE_BYTES lowered, so the long lines below stay a few MB
HUGE = 6 * 2**20


def long_line_file(path: Path, head: bytes, filler: bytes = b"x") -> Path:
    """`head`, then line 2: `filler` to HUGE bytes (24 times the lowered limit), written in pieces."""
    with path.open("wb") as handle:
        handle.write(head)
        for _ in range(HUGE // 2**16):
            handle.write(filler * (2**16 // len(filler)))
        handle.write(b"\n")
    return path


@pytest.mark.parametrize(("name", "head"), [
    ("a.jsonl", b'{"id": "danube", "answer": "Danube"}\n{"id": "mercury", "answer": "'),
    ("a.tsv", b"id\tanswer\ndanube\t"),
    ("answers", b'{"id": "danube", "answer": "Danube"}\n{"id": "mercury", "answer": "'),   # sniffed as JSONL
])
def test_a_line_over_the_limit_stops_the_run_naming_file_and_line(tmp_path, dataset, no_model, capsys,
                                                                  monkeypatch, name, head) -> None:
    monkeypatch.setattr(text_files, "MAX_LINE_BYTES", LIMIT)
    path = long_line_file(tmp_path / name, head)
    out = tmp_path / "run"
    refused(capsys, ["run", "--dataset", dataset, "--answers", str(path), "--out", str(out)],
            f"{path}, line 2: longer than {LIMIT:,} bytes")
    assert not (out / "manifest.json").exists()


def test_the_long_line_is_not_read_whole(tmp_path, monkeypatch) -> None:
    """Python's allocations while reading stay far below the line's size (the whole-file read held
    it twice: bytes and text)."""
    monkeypatch.setattr(text_files, "MAX_LINE_BYTES", LIMIT)
    path = long_line_file(tmp_path / "a.jsonl", b'{"id": "danube", "answer": "Danube"}\n{"id": "m", "answer": "')
    peak = peak_bytes_raising(lambda: read_answers(path), AnswersFileError, "line 2: longer than")
    assert peak < HUGE / 4, f"peak {peak:,} bytes"


def test_a_line_that_is_not_utf8_is_named(tmp_path) -> None:
    path = tmp_path / "a.tsv"
    path.write_bytes(b"id\tanswer\ndanube\tDanube\nmercury\tV\xe9nus\n")
    with pytest.raises(AnswersFileError, match=re.escape(f"{path.resolve()}, line 3: not UTF-8 text (byte 0xe9")):
        read_answers(path)


def test_a_good_file_reads_as_before(tmp_path) -> None:
    """Records, their lines (blank lines counted), the answers as written and the sha256 of the
    file's bytes, a byte-order mark included."""
    jsonl = tmp_path / "a.jsonl"
    jsonl.write_bytes(b'\xef\xbb\xbf{"id": "danube", "answer": " Danube ", "confidence": 80}\n\n'
                      b'{"question_id": 7, "answer": null, "repeat": 1}\r\n')
    answers = read_answers(jsonl)
    assert answers.sha256 == hashlib.sha256(jsonl.read_bytes()).hexdigest()
    assert answers.by_key == {("danube", None): RecordedAnswer("Danube", 80.0, 1),
                              ("7", 1): RecordedAnswer(None, None, 3)}
    tsv = tmp_path / "a.tsv"
    tsv.write_text("id\tanswer\tnote\n\ndanube\tthe Danube\tx\r\nmercury\t\t\n", encoding="utf-8")
    assert read_answers(tsv).by_key == {("danube", None): RecordedAnswer("the Danube", None, 3),
                                        ("mercury", None): RecordedAnswer(None, None, 4)}
    sniffed = tmp_path / "answers"
    sniffed.write_text('\n  {"id": "danube", "answer": "Danube"}\n', encoding="utf-8")
    assert read_answers(sniffed).by_key == {("danube", None): RecordedAnswer("Danube", None, 2)}


def test_a_quoted_cell_keeps_its_line_break(tmp_path) -> None:
    """A quoted CSV cell over two lines keeps the line break (the whole-file read lost it: "theDanube")."""
    path = tmp_path / "a.csv"
    path.write_text('id,answer\ndanube,"the\nDanube"\nmercury,Venus\n', encoding="utf-8")
    assert read_answers(path).by_key == {("danube", None): RecordedAnswer("the\nDanube", None, 3),
                                         ("mercury", None): RecordedAnswer("Venus", None, 4)}
