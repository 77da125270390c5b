"""One cell of a sweep run where it is sent: inside a Ray task (`factprobe sweep --executor ray`).

The cell is an ordinary run into its own directory, continued when that directory already has a
manifest (as the in-process sweep does), and reported as `factprobe run` reports it. Its console
output goes to `<cell dir>.log` beside it.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console

from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.run.shard_worker import ShardOutcome, run_logged


def run_cell(config_data: dict[str, Any], cwd: str | None = None) -> ShardOutcome:
    """Run (or continue) the sweep cell `config_data` describes, from the folder `cwd` when given
    (where the sweep was started); bad input is status 2 with its message, as the in-process sweep
    would stop on it (factprobe.eval.run.shard_worker.run_logged)."""
    from factprobe.eval.run.session import run_config

    def start(config: RunConfig, resume: bool, console: Console) -> int:
        # the log is where a cell's whole output goes (as `--verbose` prints it in this process)
        return run_config(config.model_copy(update={"verbose": True}), resume=resume, console=console)

    return run_logged(config_data, cwd, start)


def cell_data(config: RunConfig) -> dict[str, Any]:
    """What a Ray task needs to rebuild the cell's config: the options set, as JSON values (the
    options left unset stay unset, so a resumed cell is checked as the in-process sweep checks it)."""
    return config.model_dump(mode="json", exclude_unset=True)
