"""The "Reproducing the papers" tables of docs/benchmarks.md: one row per analysis of ../shared/docs/analyses.md,
each with a status, and every command they name accepted by the real command-line parser.

Commands are parsed with `factprobe`'s own argparse parser and `run` options checked as RunConfig
checks them; nothing is run and no model or network is used.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import shlex
from collections import Counter
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from factprobe.eval.cli.main import build_parser
from factprobe.eval.config.options import OptionError, checked_options, explicit_options
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.core.modality import SETTINGS

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "docs" / "benchmarks.md"
ANALYSES = ROOT.parent / "shared" / "docs" / "analyses.md"
HEADING = "## Reproducing the papers"
STATUSES = ("works", "partly", "not possible here")
ROW = re.compile(r"^\|\s*([A-Z]\d+)\s*\|")
CELL_SPLIT = re.compile(r"(?<!\\)\|")
CODE = re.compile(r"`([^`]+)`")
COUNT_LINE = re.compile(r"\*\*(\d+) works, (\d+) partly, (\d+) not possible here\.\*\*")
GRID_KEY = re.compile(r"^([a-z_]+) = \[")
FLAG = re.compile(r"(?<![\w-])(--[a-z][a-z-]*)")


def section() -> str:
    """The section's text, up to the next heading of level 2 or higher."""
    text = BENCHMARKS.read_text(encoding="utf-8")
    assert HEADING in text, f"docs/benchmarks.md has no {HEADING!r} section"
    body = text[text.index(HEADING) + len(HEADING):]
    end = re.search(r"^#{1,2} ", body, re.MULTILINE)
    return body[: end.start()] if end else body


def rows() -> list[tuple[str, str, str, str]]:
    """(id, analysis, status, command or what is missing) per table row."""
    out = []
    for line in section().splitlines():
        if not ROW.match(line):
            continue
        cells = [cell.strip() for cell in CELL_SPLIT.split(line.strip().strip("|"))]
        assert len(cells) == 4, f"docs/benchmarks.md row {line[:40]!r}: expected 4 cells, got {len(cells)}"
        out.append((cells[0], cells[1], cells[2], cells[3]))
    return out


def commands(text: str) -> list[str]:
    return [span for span in CODE.findall(text) if span.startswith("factprobe ")]


def test_one_row_per_analysis_with_a_known_status_and_the_counts_above():
    table = rows()
    ids = Counter(row[0] for row in table)
    assert [name for name, count in ids.items() if count > 1] == []
    assert len(table) == 76
    statuses = Counter(row[2] for row in table)
    assert set(statuses) <= set(STATUSES), f"unknown statuses: {set(statuses) - set(STATUSES)}"
    counts = COUNT_LINE.search(section())
    assert counts, "the section has no '**N works, N partly, N not possible here.**' line"
    assert [int(n) for n in counts.groups()] == [statuses[s] for s in STATUSES]


def test_the_ids_are_those_of_the_shared_list():
    if not ANALYSES.is_file():
        pytest.skip(f"{ANALYSES} is absent (the shared folder beside the checkout holds the list of analyses)")
    listed = {match.group(1) for line in ANALYSES.read_text(encoding="utf-8").splitlines()
              if (match := ROW.match(line))}
    assert listed, f"{ANALYSES}: no analysis rows found"
    assert {row[0] for row in rows()} == listed


def test_every_works_row_names_a_command_and_the_others_say_why():
    for name, _, status, detail in rows():
        if status == "works":
            assert commands(detail), f"{name}: a works row needs its factprobe command"
        else:
            assert len(detail) > 20, f"{name}: a {status} row must say what is missing"


def run_option_problems(argv: list[str], prompt_file: Path) -> list[str]:
    """What RunConfig refuses in a parsed `run` command, plus strategies and input settings that
    name nothing (a prompt or answers file given is replaced by a real one: its content is the user's)."""
    args = build_parser().parse_args(argv)
    options = explicit_options(args)
    if "prompt_file" in options:
        options["prompt_file"] = prompt_file
    if "answers" in options:
        answers = prompt_file.with_name("answers.jsonl")
        answers.write_text('{"id": "q1", "answer": "an answer"}\n', encoding="utf-8")
        options["answers"] = answers
    problems = []
    try:
        checked_options(options)
    except OptionError as exc:
        problems.append(str(exc))
    known = {point.name for point in entry_points(group="factprobe.strategies")}
    for strategy in options.get("strategies", []):
        parts = strategy.partition("@")[0].split("+")
        problems += [f"strategy {part!r}" for part in parts if part not in known and part != "rag"]
    problems += [f"input setting {value!r}" for value in options.get("modality", []) if value not in SETTINGS]
    return problems


def test_every_command_is_accepted_by_the_parser(tmp_path: Path):
    prompt_file = tmp_path / "prompt.txt"
    prompt_file.write_text("{question}\n", encoding="utf-8")
    parser = build_parser()
    checked = 0
    for name, _, _, detail in rows():
        for command in commands(detail):
            argv = shlex.split(command)[1:]
            errors = io.StringIO()
            with contextlib.redirect_stderr(errors):
                try:
                    parser.parse_args(argv)
                except (SystemExit, argparse.ArgumentError) as exc:
                    lines = errors.getvalue().strip().splitlines() or [""]
                    reason = str(exc) if isinstance(exc, argparse.ArgumentError) else lines[-1]
                    pytest.fail(f"{name}: `{command}` is refused: {reason}")
            if argv[0] == "run":
                assert run_option_problems(argv, prompt_file) == [], f"{name}: `{command}`"
            checked += 1
    assert checked >= 40


def test_every_flag_and_grid_key_mentioned_exists():
    """Flags quoted on their own (`--frames 16`) are options of some subcommand; sweep grid keys
    (`frames = [...]`) are run options."""
    parser = build_parser()
    flags: set[str] = set()
    for action in parser._actions:  # argparse lists each subcommand's parser in its subparsers action
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                flags |= {flag for option in sub._actions for flag in option.option_strings}
    assert "--group-by" in flags and "--keep" in flags
    for name, _, _, detail in rows():
        for span in CODE.findall(detail):
            if span.startswith("factprobe "):
                continue
            unknown = [flag for flag in FLAG.findall(span) if flag not in flags]
            assert unknown == [], f"{name}: `{span}` names unknown flags"
            key = GRID_KEY.match(span)
            if key:
                assert key.group(1) in RunConfig.model_fields, f"{name}: sweep key {key.group(1)!r}"


def test_no_run_command_stops_on_retrieval_the_benchmarks_cannot_run(tmp_path: Path):
    """None of the five benchmarks has a text corpus: a command without `--strategies` runs its
    preset's strategies (none retrieves) or the default set, which leaves retrieval out when the
    dataset has none (factprobe.eval.run.checks); a command naming a retrieving strategy searches
    the web."""
    from factprobe.eval.run.checks import retriever_spec, retrieves
    from factprobe.eval.run.configs import new_config

    files = {"prompt_file": tmp_path / "prompt.txt", "answers": tmp_path / "answers.jsonl"}
    files["prompt_file"].write_text("{question}\n", encoding="utf-8")
    files["answers"].write_text('{"id": "q1", "answer": "an answer"}\n', encoding="utf-8")
    checked = 0
    for name, _, _, detail in rows():
        for command in commands(detail):
            argv = shlex.split(command)[1:]
            if argv[0] != "run":
                continue
            options = explicit_options(build_parser().parse_args(argv))
            options.update({key: path for key, path in files.items() if key in options})
            config = new_config({**options, "out": tmp_path / name})
            if config.strategies_by_default:
                continue                       # retrieval is left out once the dataset is loaded
            spec = retriever_spec(config)
            if any(retrieves(strategy) for strategy in config.strategies):
                assert not (spec.local and spec.path is None), f"{name}: `{command}` retrieves from no corpus"
            checked += 1
    assert checked >= 30
