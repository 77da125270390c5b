"""A run's last phase: its report, and its outcome with the exit status the CLI returns."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.run.failures import (
    EXIT_TOO_MANY_ERRORS,
    error_report,
    failure_message,
    undecided_message,
    warnings,
)
from factprobe.eval.store.run_dir import RunDir
from factprobe.eval.store.slim_rows import SlimRow


@dataclass(frozen=True)
class RunOutcome:
    """How a run ended: its exit status (0, or EXIT_TOO_MANY_ERRORS), its run directory, how many
    jobs it answered and UNGRADED rows it re-graded, and whether it found nothing left to do."""

    status: int
    run_dir: Path
    answered: int = 0
    regraded: int = 0
    nothing_to_run: bool = False


def check_failures(run_dir: RunDir, config: RunConfig, console: Console,
                   rows: list[SlimRow] | None = None) -> int:
    """Exit status of a finished run: EXIT_TOO_MANY_ERRORS when ERROR rows exceed --max-error-rate
    or UNGRADED rows exceed --max-undecided-rate (each cause named). `rows`: the run's latest rows
    as `run_dir.latest_slim()` reads them, when the caller (holding the run's lock) already has them."""
    # slim rows: the counts need no trace or reply
    report = error_report(run_dir.latest_slim() if rows is None else rows)
    for line in warnings(report, config.max_error_rate, config.max_undecided_rate, str(run_dir.path), config.judge):
        console.print(f"[yellow]warning:[/yellow] {escape(line)}")
    messages = []
    if report.exceeds(config.max_error_rate):
        messages.append(failure_message(report, config.max_error_rate, str(run_dir.path)))
    if report.undecided_exceeds(config.max_undecided_rate):
        messages.append(undecided_message(report, config.max_undecided_rate, str(run_dir.path), config.judge))
    for message in messages:
        print(f"factprobe: {message}", file=sys.stderr)
    return EXIT_TOO_MANY_ERRORS if messages else 0


def report_current(run_dir: RunDir) -> bool:
    """factprobe.eval.report.build.report_is_current, imported only when asked (the report imports numpy)."""
    from factprobe.eval.report.build import report_is_current

    return report_is_current(run_dir)


def report_run(config: RunConfig, run_dir: RunDir, console: Console, report: bool = True) -> int:
    """Write the run's report (unless `report` is False: a shard, whose merged run is reported) and
    return its exit status."""
    if not report:
        return check_failures(run_dir, config, console)
    from factprobe.eval.report.build import write_report  # numpy and matplotlib: imported after the answers

    rows = run_dir.latest_slim()   # read once, for the report and the exit status
    write_report(run_dir, console, verbose=config.verbose, rows=rows)
    console.print(f"run directory: [bold]{escape(str(run_dir.path))}[/bold]")
    return check_failures(run_dir, config, console, rows)
