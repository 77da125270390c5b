"""Where a run starts: in this process (factprobe.eval.run.pipeline), or split into shards by
`--workers N` / `--executor ray` (factprobe.eval.run.workers). `factprobe run`, `factprobe.run(...)`
and sweep cells all come through here."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.core.secrets import redacted_output, remember_in_data
from factprobe.eval.run.outcome import RunOutcome
from factprobe.eval.run.pipeline import execute_run


def is_split(config: RunConfig) -> bool:
    """Whether the run is answered in shards (not when it is itself one shard)."""
    return config.shard is None and (config.workers > 1 or config.executor != "local")


def launch_run(config: RunConfig, resume: bool, console: Console) -> RunOutcome:
    """Run `config` (or continue it, with `resume`) and report it; returns its outcome, whose
    `status` is the exit status. The secrets in its options are remembered (the Python API passes
    no argv) and everything printed meanwhile is redacted (factprobe.eval.core.secrets)."""
    remember_in_data(config.model_dump(mode="json"))
    with redacted_output():
        if is_split(config):
            from factprobe.eval.run.workers import execute_split  # ends start-up when its workers start

            return RunOutcome(execute_split(config, resume, console), Path(config.out or "."))
        return execute_run(config, resume=resume, console=console)
