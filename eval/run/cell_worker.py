"""One cell of a sweep run where it is sent: inside a Ray task (`factprobe sweep --executor ray`).

The cell is an ordinary run into its own directory, continued when that directory already has a
manifest (as the in-process sweep does), and reported as `factprobe run` reports it. Its console
output goes to `<cell dir>.log` beside it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from rich.console import Console

from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.run.shard_worker import EXIT_BAD_INPUT, EXIT_INTERRUPTED, MESSAGE_PREFIX, ShardOutcome, shard_log


def run_cell(config_data: dict[str, Any], cwd: str | None = None) -> ShardOutcome:
    """Run (or continue) the sweep cell `config_data` describes, from the folder `cwd` when given
    (where the sweep was started: relative paths are read from there); bad input is status 2 with
    its message, as the in-process sweep would stop on it (every user error of a run is a
    ValueError)."""
    if cwd is not None:
        os.chdir(cwd)
    from factprobe.agents.plugins import load_plugin
    from factprobe.eval.run.session import run_config

    config = RunConfig(**config_data)   # the options the grid set (`cell_data`), defaults for the rest
    out = Path(config.out or ".")
    out.parent.mkdir(parents=True, exist_ok=True)
    with shard_log(out).open("a", encoding="utf-8") as log:
        console = Console(file=log, width=160)
        try:
            resume = (out / "manifest.json").is_file()
            if not resume:   # a resumed run loads them from its manifest's config
                for plugin in config.plugins:
                    load_plugin(plugin)
            # the log is where a cell's whole output goes (as `--verbose` prints it in this process)
            return ShardOutcome(run_config(config.model_copy(update={"verbose": True}), resume=resume,
                                           console=console))
        except ValueError as exc:
            console.print(f"{MESSAGE_PREFIX}{exc}", markup=False, soft_wrap=True)
            return ShardOutcome(EXIT_BAD_INPUT, str(exc))
        except KeyboardInterrupt:
            return ShardOutcome(EXIT_INTERRUPTED, "interrupted; its finished rows are saved")


def cell_data(config: RunConfig) -> dict[str, Any]:
    """What a Ray task needs to rebuild the cell's config: the options set, as JSON values (the
    options left unset stay unset, so a resumed cell is checked as the in-process sweep checks it)."""
    return config.model_dump(mode="json", exclude_unset=True)
