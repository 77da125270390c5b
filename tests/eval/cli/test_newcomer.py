"""Small things a newcomer meets: help of --no-… switches, "did you mean" (flags, values, options),
JSON into a closed pipe, plugins recorded by absolute path (and resumed from another directory),
option errors in plain words, tables not squeezed off a terminal."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.eval.config.options import OptionError, add_run_options, checked_options
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.core.schema import Question
from tests.fakes import ScriptedModel, write_questions

ROOT = Path(__file__).resolve().parents[3]


def test_off_switches_say_what_they_turn_off(monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "400")          # one line per option: no wrapping inside a phrase
    parser = argparse.ArgumentParser()
    add_run_options(parser)
    text = " ".join(parser.format_help().split())
    assert "--no-cache turn off what is on by default: read and write the response cache" in text
    assert "--no-hop-probes turn off what is on by default: ask the gold sub-questions" in text
    assert "token_prob_min)" in text and "(default: True)" not in text


def test_a_plugin_file_is_recorded_by_its_absolute_path(tmp_path, monkeypatch) -> None:
    (tmp_path / "mine.py").write_text("X = 1\n")
    monkeypatch.chdir(tmp_path)
    config = RunConfig(plugins=["mine.py", "some.module"])
    assert config.plugins == [str(tmp_path / "mine.py"), "some.module"]


def test_json_into_a_closed_pipe_and_plain_option_errors() -> None:
    """`factprobe datasets describe sample --json | head -1` in a real pipe: no traceback."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "factprobe.eval.cli.main", "datasets", "describe", "sample", "--json"]
    producer = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    first = producer.stdout.readline()
    producer.stdout.close()                       # the reader goes away, as `head -1` does
    err = producer.stderr.read().decode()
    assert producer.wait(timeout=60) == 0 and first.strip() == b"{"
    assert "Traceback" not in err and "BrokenPipeError" not in err
    done = subprocess.run([sys.executable, "-m", "factprobe.eval.cli.main", "run", "--repeats", "0",
                           "--strategies", "vanila"], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 2 and "--repeats = 0: must be greater than or equal to 1" in done.stderr
    assert "Input should" not in done.stderr


def test_a_run_into_a_closed_pipe_still_finishes_and_reports(tmp_path) -> None:
    """`factprobe run … | head -1` in a real pipe: the run goes on silently, writes its report and
    exits with its own status (recorded answers: no model is loaded)."""
    data = write_questions(tmp_path / "q.jsonl", [Question(id=f"q{i}", question=f"Number {i}?", answer=str(i))
                                                  for i in range(3)])
    answers = tmp_path / "answers.tsv"
    answers.write_text("id\tanswer\n" + "".join(f"q{i}\t{i}\n" for i in range(3)), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "factprobe.eval.cli.main", "run", "--dataset", f"jsonl:{data}",
               "--answers", str(answers), "--out", str(tmp_path / "run")]
    producer = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    first = producer.stdout.readline()
    producer.stdout.close()                       # the reader goes away, as `head -1` does
    err = producer.stderr.read().decode()
    assert producer.wait(timeout=120) == 0 and first.startswith(b"factprobe 3 questions"), err
    assert "Traceback" not in err and (tmp_path / "run" / "report.html").is_file()


def test_tables_are_not_squeezed_when_stdout_is_not_a_terminal(monkeypatch) -> None:
    from factprobe.eval.core.format import WIDE, output_console

    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: False)
    assert output_console().width == WIDE
    monkeypatch.setenv("COLUMNS", "100")
    assert output_console().width == 100


def test_did_you_mean_for_flags_values_and_api_options(capsys) -> None:
    assert cli.main(["run", "--limitt", "3"]) == 2
    assert "unrecognized arguments: --limitt 3 (did you mean '--limit'?)" in capsys.readouterr().err
    assert cli.main(["run", "--selector", "majorty"]) == 2
    assert "(did you mean 'majority'?)" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["run", "--hedging", "penalise"])
    assert "(did you mean 'penalize'?)" in capsys.readouterr().err
    for options, expected in (({"sample": 3}, "'sample' is not a run option (did you mean 'samples'?)"),
                              ({"limit": "abc"}, "--limit = 'abc': must be a whole number"),
                              ({"temperature": float("nan")}, "--temperature = nan: must be a finite number")):
        with pytest.raises(OptionError) as caught:
            checked_options(options)
        assert str(caught.value) == expected
        assert "Input should" not in str(caught.value) and "Extra inputs" not in str(caught.value)


def test_file_and_flag_errors_name_no_internal_class_and_use_plain_words(tmp_path, capsys) -> None:
    cases = tmp_path / "cases.jsonl"
    cases.write_text('{"gold": "a", "answer": "a", "label": "CORRECT"}\n', encoding="utf-8")
    with pytest.raises(SystemExit):
        cli.main(["audit-grader", str(cases), "--hedging", "penalise"])
    err = capsys.readouterr().err
    assert "(did you mean 'penalize'?)" in err and "HedgingPolicy" not in err
    assert cli.main(["audit-grader", str(cases)]) == 2
    err = capsys.readouterr().err
    assert "line 1, field `question`: missing" in err and "Field required" not in err


def test_token_prob_min_is_explained_not_just_refused(tmp_path, capsys) -> None:
    assert cli.main(["run", "--confidence", "token_prob_min", "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err
    assert "token_prob_min is recorded by the token_prob method" in err and "--confidence token_prob" in err


def test_resume_from_another_directory_finds_a_plugin_given_by_a_relative_path(
        tmp_path, monkeypatch, own_strategy_registry) -> None:
    """The plugin's strategy answers without a model call; the run is resumed from elsewhere."""
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: ScriptedModel(lambda m, p: "Answer: x"))
    here, elsewhere = tmp_path / "here", tmp_path / "elsewhere"
    here.mkdir()
    elsewhere.mkdir()
    (here / "echo_plugin.py").write_text(
        "import factprobe\nfrom factprobe.agents.linear import linear_graph\n\n"
        "@factprobe.strategy('echo_word', 'the first word', reads=())\n"
        "def build(context):\n"
        "    async def echo(state):\n"
        "        return {'answer': state['question'].question.split()[0]}\n"
        "    return linear_graph({'echo': echo})\n", encoding="utf-8")
    data = write_questions(here / "q.jsonl", [Question(id="a", question="Paris is where?", answer="Paris")])
    out = tmp_path / "run"
    monkeypatch.chdir(here)
    assert cli.main(["run", "--plugin", "echo_plugin.py", "--dataset", f"jsonl:{data}", "--strategies", "echo_word",
                     "--out", str(out)]) == 0
    (out / "summary.json").unlink()                   # the resumed run must report again, with the plugin
    monkeypatch.chdir(elsewhere)
    assert cli.main(["run", "--resume", "--out", str(out)]) == 0
    assert (out / "summary.json").is_file()


def test_a_loader_named_without_its_file_is_told_to_give_it(tmp_path, capsys) -> None:
    assert cli.main(["run", "--dataset", "simpleqa", "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err
    assert "give its file: simpleqa:PATH" in err and "did you mean" not in err
    assert cli.main(["datasets", "describe", "musique:"]) == 2
    assert "give its file: musique:PATH" in capsys.readouterr().err
    assert cli.main(["run", "--dataset", "simpleq", "--out", str(tmp_path / "r")]) == 2
    assert "unknown dataset 'simpleq' (did you mean 'simpleqa'?)" in capsys.readouterr().err
    assert cli.main(["run", "--dataset", "SimpleQA", "--out", str(tmp_path / "r")]) == 2
    assert "'SimpleQA': loader names are lower case: simpleqa:PATH" in capsys.readouterr().err
    assert cli.main(["datasets", "describe", "MuSiQue:data.jsonl"]) == 2
    assert "loader names are lower case: musique:data.jsonl" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


def test_the_dataset_listing_says_how_to_name_a_file(capsys) -> None:
    assert cli.main(["datasets"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("sample ") and any(line.startswith("simpleqa ") for line in lines)
    usage = " ".join(lines[lines.index("") + 1:])
    assert "--dataset LOADER:PATH" in usage and "simpleqa:simple_qa_test_set.csv" in usage
    assert "docs/data.md" in usage and (ROOT / "docs" / "data.md").is_file()


def test_a_temperature_beyond_what_model_apis_accept_is_refused(tmp_path, capsys) -> None:
    for flag in ("--temperature", "--sample-temperature"):
        assert cli.main(["run", flag, "5", "--out", str(tmp_path / "r")]) == 2
        assert f"{flag} = 5.0: must be less than or equal to 2" in capsys.readouterr().err
    assert RunConfig(temperature=2, sample_temperature=0).temperature == 2
    assert not (tmp_path / "r").exists()


def test_view_names_the_missing_path(tmp_path, capsys) -> None:
    missing = tmp_path / "runs" / "gone"
    assert cli.main(["view", str(missing)]) == 2
    err = capsys.readouterr().err
    assert f"{missing} does not exist" in err and "factprobe report" not in err
    missing.mkdir(parents=True)
    assert cli.main(["view", str(missing)]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert f"{missing / 'results.jsonl'} does not exist" in err and "factprobe report" not in err
    (missing / "results.jsonl").write_text("", encoding="utf-8")
    assert cli.main(["view", str(missing)]) == 2
    assert f"{missing / 'report.html'} does not exist: write it with `factprobe report {missing}`" in \
        " ".join(capsys.readouterr().err.split())
