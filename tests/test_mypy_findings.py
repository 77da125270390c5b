"""Bugs the type checker found (make test runs mypy), each pinned by a test that failed before."""

from __future__ import annotations

import pytest

from factprobe.eval.config.options import OptionError
from factprobe.eval.run.configs import new_config, run_folder


def test_a_config_without_a_run_directory_is_an_option_error() -> None:
    config = new_config({"dataset": "sample", "model": "local", "strategies": ["vanilla"]})
    assert run_folder(config) == config.out
    with pytest.raises(OptionError, match="--out"):
        run_folder(config.model_copy(update={"out": None}))
