"""Issue 32's small open cases of bad input: each exits 2 with one line naming the option, or the
file, line and field, and never a traceback (or, where it is only worth a note, says so and goes on)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.eval.core.schema import Question
from tests.fakes import ScriptedModel, refused, write_questions

DEEP = "[" * 100_000 + "]" * 100_000
QUESTIONS = [Question(id="fr", question="Which city is the capital of France?", answer="Paris"),
             Question(id="it", question="Which city is the capital of Italy?", answer="Rome")]
ROW = {"question_id": "q1", "strategy": "vanilla", "repeat": 0, "question": "Q?", "gold": "a",
       "category": "c", "grade": "CORRECT", "grader": "rules"}


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two questions, and a scripted model in place of any `--model`."""
    model = ScriptedModel(lambda messages, params: "Answer: Paris")
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: model)
    return write_questions(tmp_path / "questions.jsonl", QUESTIONS)


@pytest.fixture
def run_dir(tmp_path: Path, data: Path) -> Path:
    out = tmp_path / "run"
    assert cli.main(["run", "--dataset", f"jsonl:{data}", "--strategies", "vanilla", "--out", str(out)]) == 0
    return out


@pytest.fixture
def two_runs(run_dir: Path, tmp_path: Path, data: Path) -> list[str]:
    other = tmp_path / "other"
    assert cli.main(["run", "--dataset", f"jsonl:{data}", "--strategies", "vanilla", "--out", str(other),
                     "--seed", "1"]) == 0
    return [str(run_dir), str(other)]


def test_compare_html_to_an_unwritable_path(two_runs: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    refused(capsys, ["compare", *two_runs, "--html", "/proc"], "--html", "/proc")


def test_compare_html_under_a_file(two_runs: list[str], tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    plain = tmp_path / "plain"
    plain.write_text("x")
    refused(capsys, ["compare", *two_runs, "--html", str(plain / "page.html")], "--html", "plain")


@pytest.mark.parametrize("command", ["report", "compare"])
def test_results_nested_deeply(two_runs: list[str], command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Already refused before issue 32 (a results line is read with orjson, which stops early)."""
    with (Path(two_runs[0]) / "results.jsonl").open("a", encoding="utf-8") as results:
        results.write(DEEP + "\n")
    refused(capsys, [command, *two_runs[:1 if command == "report" else 2]], "results.jsonl, line 3",
            "not valid JSON")


def test_grading_cases_nested_deeply(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases = tmp_path / "cases.jsonl"
    cases.write_text(DEEP + "\n")
    refused(capsys, ["audit-grader", str(cases), "--grader", "rules"], "cases.jsonl, line 1", "nested too deeply")


def test_id_file_nested_deeply(tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ids = tmp_path / "ids.txt"
    ids.write_text(DEEP + "\n")
    refused(capsys, ["run", "--dataset", f"jsonl:{data}", "--only-ids", str(ids), "--out", str(tmp_path / "o")],
            "--only-ids", "ids.txt")


def test_negative_repeat_in_results(run_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = (run_dir / "results.jsonl").read_text().splitlines()
    rows[1] = json.dumps({**json.loads(rows[1]), "repeat": -1})
    (run_dir / "results.jsonl").write_text("\n".join(rows) + "\n")
    refused(capsys, ["report", str(run_dir)], "results.jsonl, line 2", "repeat")


def test_negative_repeats_option(data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    refused(capsys, ["run", "--dataset", f"jsonl:{data}", "--repeats", "-1", "--out", str(tmp_path / "o")],
            "--repeats")


def test_negative_repeats_in_a_sweep(tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    grid = tmp_path / "grid.toml"
    grid.write_text(f'[sweep]\ndataset = "jsonl:{data}"\nrepeats = -1\n')
    refused(capsys, ["sweep", str(grid), "--out", str(tmp_path / "s")], "grid.toml", "repeats")


def test_negative_repeat_in_a_dataset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"id": "q1", "question": "Q?", "answer": "a", "repeat": -1}) + "\n")
    refused(capsys, ["run", "--dataset", f"jsonl:{data}", "--out", str(tmp_path / "o")], "d.jsonl, line 1",
            "repeat")


def test_only_ids_naming_an_unknown_id(tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ids = tmp_path / "ids.txt"
    ids.write_text("fr\nnosuch\nghost\n")
    refused(capsys, ["run", "--dataset", f"jsonl:{data}", "--only-ids", str(ids), "--out", str(tmp_path / "o")],
            "--only-ids", "ids.txt", "ghost, nosuch")
    assert not (tmp_path / "o" / "results.jsonl").exists()


def test_exclude_ids_naming_an_unknown_id_is_a_note(tmp_path: Path, data: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    ids = tmp_path / "ids.txt"
    ids.write_text("fr\nnosuch\n")
    out = tmp_path / "o"
    assert cli.main(["run", "--dataset", f"jsonl:{data}", "--exclude-ids", str(ids), "--strategies", "vanilla",
                     "--out", str(out)]) == 0
    printed = capsys.readouterr()
    assert "note: --exclude-ids" in printed.out and "1 of its ids name no question of the dataset: nosuch" in printed.out
    assert "Traceback" not in printed.err
    assert [json.loads(line)["question_id"] for line in (out / "results.jsonl").read_text().splitlines()] == ["it"]


def test_missing_media_folder(tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "no-such-media"
    refused(capsys, ["run", "--dataset", f"jsonl:{data}", "--media", str(missing), "--out", str(tmp_path / "o")],
            "--media", "no-such-media")


@pytest.mark.parametrize("flag, spec, problem", [
    ("--model", "openai:@http://127.0.0.1:9/v1", "no model name before `@`"),
    ("--model", "openai: @http://127.0.0.1:9/v1", "no model name before `@`"),
    ("--judge", "openai:@http://127.0.0.1:9/v1", "no model name before `@`"),
    ("--model", "openai:", "unknown model"),
])
def test_model_spec_without_a_name(flag: str, spec: str, problem: str, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Refused before any server is asked (port 9 is closed: 'could not be reached' would be the
    old, accidental refusal)."""
    data = write_questions(tmp_path / "q.jsonl", QUESTIONS)
    err = refused(capsys, ["run", "--dataset", f"jsonl:{data}", flag, spec, "--out", str(tmp_path / "o")],
                  repr(spec), problem)
    assert "could not be reached" not in err


@pytest.mark.parametrize("line, key", [("seed = []", "seed"), ("strategies = []", "strategies"),
                                       ("out = [\"a\", \"b\"]", "out"), ("out = 3", "out")])
def test_sweep_grid_keys_refused(line: str, key: str, tmp_path: Path, data: Path,
                                 capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing is written, not even the default runs/ (looked for in an empty working directory, since a
    checkout where `make run` ran already holds one)."""
    monkeypatch.chdir(tmp_path)
    grid = tmp_path / "grid.toml"
    grid.write_text(f'[sweep]\ndataset = "jsonl:{data}"\n{line}\n')
    out = [] if key == "out" else ["--out", str(tmp_path / "s")]
    refused(capsys, ["sweep", str(grid), *out], "grid.toml", f"{key} =")
    assert not (tmp_path / "s").exists() and not Path("runs").exists()
