"""Small things a newcomer meets: help of --no-… switches, "did you mean", JSON into a closed pipe,
plugins recorded by absolute path, option errors in plain words."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from factprobe.eval.config.options import add_run_options
from factprobe.eval.config.run_config import RunConfig

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


def test_tables_are_not_squeezed_when_stdout_is_not_a_terminal(monkeypatch) -> None:
    from factprobe.eval.core.format import WIDE, output_console

    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: False)
    assert output_console().width == WIDE
    monkeypatch.setenv("COLUMNS", "100")
    assert output_console().width == 100
