"""The Python API's entry points: `factprobe.run(...)` and `factprobe.arun(...)`.

They build the same RunConfig the CLI builds and go through the same pipeline (run directory,
cache, resume, report), then hand back a `Run`.
"""

from __future__ import annotations

import asyncio
import warnings
from pathlib import Path
from typing import Any

from rich.console import Console

from factprobe.eval.analysis.run_handle import Run
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.core.format import output_console


class RunFailed(RuntimeError):
    """A run that finished with a non-zero status (bad input, or too many ERROR rows); its run
    directory, when one was written, is in `run`."""

    def __init__(self, message: str, status: int, run: Run | None) -> None:
        super().__init__(message)
        self.status = status
        self.run = run


def run_config(config: RunConfig, resume: bool = False, console: Console | None = None) -> int:
    """Run `config` through the CLI's pipeline; returns its exit status. With `resume`, the run in
    `config.out` is continued after checking that `config` matches its manifest."""
    from factprobe.eval.run.configs import run_folder, start_config
    from factprobe.eval.run.launch import launch_run

    if resume:
        config = start_config({**config.model_dump(exclude_unset=True), "out": run_folder(config)}, resume=True)
    return launch_run(config, resume=resume, console=console or output_console()).status


def _given(dataset: str | None, strategies: list[str] | str | None, model: str | None,
           limit: int | None, options: dict[str, Any]) -> dict[str, Any]:
    """The options the caller gave (None: not given)."""
    if isinstance(strategies, str):
        strategies = [part.strip() for part in strategies.split(",")]
    given = {"dataset": dataset, "model": model, "limit": limit, **options,
             "strategies": None if strategies is None else list(strategies)}
    return {key: value for key, value in given.items() if value is not None}


def run(dataset: str | None = None, strategies: list[str] | str | None = None, model: str | None = None,
        limit: int | None = None, out: str | Path | None = None, *, resume: bool = False,
        quiet: bool = False, **options: Any) -> Run:
    """Run strategies over a dataset exactly as `factprobe run` does and return the `Run`.

    `dataset` defaults to "sample" and `model` to "local" (the embedded model).
    `options` are any `factprobe run` options by their config name (`repeats=3`, `samples=8`,
    `confidence=["verbal", "token_prob"]`, `plugins=["my_strategies.py"]`, …). `resume=True`
    continues the run in `out`; any result-changing option given then must match the run's
    manifest (as with `factprobe run --resume`). `quiet=True` prints nothing (no progress bars, no
    tables); otherwise the main table and where the files are, or every table with `verbose=True`.
    Raises RunFailed when the run exits non-zero; bad options raise a ValueError naming
    the option (factprobe.eval.config.options.OptionError).
    Inside a running event loop (Jupyter), use `await factprobe.arun(...)`.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:
        raise RuntimeError("factprobe.run() was called inside a running event loop (e.g. Jupyter); "
                           "use `await factprobe.arun(...)` there")
    if resume and out is None:
        raise ValueError("resume=True needs out=: the run directory to continue")
    from factprobe.eval.run.configs import start_config

    config = start_config({**_given(dataset, strategies, model, limit, options),
                           **({"out": out} if out is not None else {})}, resume)
    console = output_console(quiet)
    from factprobe.eval.run.launch import launch_run

    if quiet and not resume:     # the run's console is silent: its one note about repeats is a Python warning
        from factprobe.eval.run.checks import repeat_notes

        for note in repeat_notes(config, api=True):
            warnings.warn(note, UserWarning, stacklevel=2)

    status = launch_run(config, resume=resume, console=console).status
    handle = Run(Path(config.out)) if config.out and (Path(config.out) / "manifest.json").is_file() else None
    if status != 0:
        raise RunFailed(f"the run in {config.out} finished with status {status}", status, handle)
    assert handle is not None
    return handle


async def arun(*args: Any, **kwargs: Any) -> Run:
    """`run` for code already inside an event loop: the run happens in a worker thread, which has
    its own loop, so the caller's loop keeps serving (progress bars still update)."""
    return await asyncio.to_thread(run, *args, **kwargs)
