"""Small things of a new user's first hour: a usage error is one line (not the whole usage), `run
--help` comes in sections, a temperature the provider refuses is refused before the run, and
`view` says what is wrong with the path it was given. No model or server is involved."""

from __future__ import annotations

import re

import pytest

import factprobe.eval.cli.main as cli
from factprobe.eval.config.options import HELP_SECTIONS, OTHER
from factprobe.eval.config.run_config import RunConfig
from tests.fakes import refused


@pytest.mark.parametrize("argv, command, words", [
    (["datasets", "nosuch"], "datasets", "invalid choice: 'nosuch'"),
    (["report"], "report", "required: dir"),
    (["audit-grader", "--grader", "nope"], "audit-grader", "invalid choice: 'nope'"),
    (["nosuch"], "", "invalid choice: 'nosuch'"),
])
def test_a_usage_error_is_one_line(capsys, argv, command, words) -> None:
    err = refused(capsys, argv, words)
    prog = f"factprobe {command}".strip()
    assert err.count("\n") == 1 and "usage:" not in err
    assert err.startswith(f"{prog}: ") and f"(see `{prog} --help`)" in err


def test_run_help_comes_in_sections_with_every_option(capsys, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    with pytest.raises(SystemExit):
        cli.main(["run", "--help"])
    text = capsys.readouterr().out
    assert text.startswith("usage: factprobe run [OPTIONS]") and len(text.split("\n\n", 1)[0].splitlines()) == 1
    headings = [line[:-1] for line in text.splitlines() if re.fullmatch(r"[a-z][a-z ,]+:", line)]
    assert headings == ["options", *HELP_SECTIONS]          # no OTHER: every option has its section
    assert OTHER not in text
    placed = [name for names in HELP_SECTIONS.values() for name in names]
    assert sorted(placed) == sorted(RunConfig.option_names())
    for title, names in HELP_SECTIONS.items():
        section = text.split(f"\n{title}:\n", 1)[1].split("\n\n", 1)[0]
        for name in names:
            flag = RunConfig.option_meta(name).get("flag") or "--" + name.replace("_", "-")
            assert flag in section or f"--no-{name.replace('_', '-')}" in section, (title, name)
    assert "--resume" in text.split("\nspeed, limits and resuming:\n", 1)[1]


def test_a_temperature_the_provider_refuses_is_refused_before_the_run(capsys, monkeypatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)   # refused before the key is looked for
    err = refused(capsys, ["run", "--model", "anthropic:claude-x", "--temperature", "1.5"],
                  "--temperature = 1.5: anthropic models take 0 to 1")
    assert err.count("\n") == 1
    refused(capsys, ["run", "--model", "anthropic:claude-x", "--strategies", "best_of_n", "--sample-temperature",
                     "1.2"], "--sample-temperature = 1.2: anthropic models take 0 to 1")
    refused(capsys, ["run", "--temperature", "5"], "--temperature = 5.0: must be less than or equal to 2")
    assert RunConfig(model="anthropic:claude-x", temperature=1.0).temperature == 1.0
    assert RunConfig(model="openai:gpt-x", temperature=1.5).temperature == 1.5


def test_view_says_what_is_wrong_with_its_path(capsys, tmp_path) -> None:
    data = tmp_path / "questions.jsonl"
    data.write_text("{}\n")
    refused(capsys, ["view", str(data)], f"{data} is a file, not a run directory")
    refused(capsys, ["view", str(tmp_path / "gone")], f"{tmp_path / 'gone'} does not exist: there is no run there")
    refused(capsys, ["view", str(tmp_path)], f"{tmp_path} holds no run to show")
