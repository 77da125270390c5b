"""Bugs the type checker found (make test runs mypy), each pinned by a test that failed before."""

from __future__ import annotations

import pytest

from factprobe.eval.config.options import OptionError
from factprobe.eval.grading.claims import read_answer
from factprobe.eval.run.pipeline import new_config, run_folder


def test_a_list_of_fields_is_read_without_a_question() -> None:
    """With no question no field can be the one asked for: the lines stay candidates (it raised
    TypeError reading the missing question)."""
    lines = "- Composer: Ada Quill\n- Premiere: Lyon, 1911"
    assert read_answer(lines) == read_answer(lines, question="")


def test_a_config_without_a_run_directory_is_an_option_error() -> None:
    config = new_config({"dataset": "sample", "model": "local", "strategies": ["vanilla"]})
    assert run_folder(config) == config.out
    with pytest.raises(OptionError, match="--out"):
        run_folder(config.model_copy(update={"out": None}))
