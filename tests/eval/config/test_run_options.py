"""The run flags derived from RunConfig: how choices read in --help and how they parse."""

from __future__ import annotations

import argparse

import pytest

from factprobe.eval.config.options import add_run_options
from factprobe.eval.grading.base import HedgingPolicy


def run_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="factprobe run")
    add_run_options(parser)
    return parser


def test_enum_choices_read_as_their_values_in_help() -> None:
    text = " ".join(run_parser().format_help().split())
    assert "--hedging {accept | penalize}" in text
    assert "HedgingPolicy." not in text


def test_enum_flag_parses_its_values_and_refuses_others(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_parser().parse_args(["--hedging", "penalize"]).hedging is HedgingPolicy.PENALIZE
    with pytest.raises(SystemExit) as stopped:
        run_parser().parse_args(["--hedging", "sometimes"])
    assert stopped.value.code == 2 and "--hedging" in capsys.readouterr().err
