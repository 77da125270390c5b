"""One shard of a split run, run where it is sent: in a local worker process (`python -m
factprobe.eval.run.shard_worker CONFIG_JSON`) or inside a Ray task (`run_shard`).

The shard is an ordinary run (`--shard I/N`) in its own directory, continued when that directory
already has a manifest, so a retried or re-launched shard never answers a finished row again;
it draws no report (the merged run has one). Its console output goes to `<shard dir>.log` beside it.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from rich.console import Console

from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.core.console import RedactingConsole
from factprobe.eval.core.redact import error_text
from factprobe.eval.core.secrets import redact_values, redacted_output, remember_in_data

EXIT_FAILED = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130
MESSAGE_PREFIX = "factprobe: "


@dataclass
class ShardOutcome:
    """A shard's exit status and, when it stopped on bad input, the one-paragraph reason."""

    status: int
    message: str = ""


def shard_log(out: Path) -> Path:
    """Where the shard in `out` writes its console output."""
    return out.parent / f"{out.name}.log"


def run_logged(config_data: dict[str, Any], cwd: str | None,
               start: Callable[[RunConfig, bool, Console], int]) -> ShardOutcome:
    """Rebuild the run `config_data` describes, from the folder `cwd` when given (where the run was
    started: relative dataset, media and plugin paths are read from there), and call `start(config,
    resume, console)` with its console output going to the log beside its directory; a run is
    continued when its directory has a manifest (whose config loads the plugins). Bad input is
    status 2 with its message, as `factprobe run` would exit (every user error of a run is a
    ValueError); any other exception status 1, its traceback in the log. Everything it prints or
    logs has the secrets of `config_data` and of the environment redacted."""
    if cwd is not None:
        os.chdir(cwd)
    from factprobe.agents.plugins import load_plugin

    remember_in_data(config_data)    # this process may not be the one that was given them
    config = RunConfig(**config_data)
    out = Path(config.out or ".")
    out.parent.mkdir(parents=True, exist_ok=True)
    with shard_log(out).open("a", encoding="utf-8") as log, redacted_output():
        console = RedactingConsole(file=log, width=160)
        try:
            resume = (out / "manifest.json").is_file()
            if not resume:
                for plugin in config.plugins:
                    load_plugin(plugin)
            return ShardOutcome(start(config, resume, console))
        except ValueError as exc:
            console.print(f"{MESSAGE_PREFIX}{exc}", markup=False, soft_wrap=True)
            return ShardOutcome(EXIT_BAD_INPUT, redact_values(str(exc)))
        except KeyboardInterrupt:
            return ShardOutcome(EXIT_INTERRUPTED, "interrupted; its finished rows are saved")
        except Exception as exc:   # its traceback to the log, redacted (not to a Ray worker's own log)
            console.print(traceback.format_exc(), markup=False, highlight=False, soft_wrap=True)
            return ShardOutcome(EXIT_FAILED, error_text(exc))


def run_shard(config_data: dict[str, Any], cwd: str | None = None) -> ShardOutcome:
    """Run (or continue) the shard `config_data` describes (see `run_logged`); it draws no report."""
    from factprobe.eval.run.configs import start_config
    from factprobe.eval.run.pipeline import execute_run

    def start(config: RunConfig, resume: bool, console: Console) -> int:
        if resume:  # checks that the shard in its directory is this one, as `factprobe run --resume` does
            config = start_config({**config.model_dump(exclude={"out"}), "out": Path(config.out or ".")}, resume)
        return execute_run(config, resume=resume, console=console, report=False).status

    return run_logged(config_data, cwd, start)


def logged_message(log: Path) -> str:
    """The bad-input message a shard wrote last to its log ("" when there is none)."""
    if not log.is_file():
        return ""
    lines = [line for line in log.read_text(encoding="utf-8", errors="replace").splitlines()
             if line.startswith(MESSAGE_PREFIX)]
    return lines[-1][len(MESSAGE_PREFIX):] if lines else ""


def end_with_parent(parent: int | None = None) -> None:
    """Linux: have the kernel stop this worker when the process that started it dies (a killed
    `factprobe run --workers` must not leave shards running that hold their locks). `parent`: the
    pid that started it, when known; a worker whose parent died before this call stops at once."""
    if sys.platform.startswith("linux"):
        import ctypes
        import signal

        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)
        if parent is not None and os.getppid() != parent:
            os.kill(os.getpid(), signal.SIGTERM)


def main(argv: list[str]) -> int:
    """A shard in a new interpreter of its own; its exit skips the interpreter's last collection
    (factprobe.eval.core.speedups.end_of_process)."""
    from factprobe.eval.core.speedups import end_of_process

    end_with_parent()
    try:
        return run_shard(json.loads(argv[0])).status
    finally:
        end_of_process()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
