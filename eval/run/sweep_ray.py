"""`factprobe sweep --executor ray`: each cell of a sweep as one Ray task
(factprobe.eval.run.cell_worker), all submitted at once; Ray runs as many at a time as the cluster
has CPUs. A cell logs to `<sweep folder>/<cell>.log`.

The outcome is the in-process sweep's: each cell an ordinary run in its own directory, resumed
when it exists. A cell stopped on bad input is a SweepError naming it (exit 2) once every task has
ended, so the other cells' rows are kept; a cell whose task could not finish (killed more often
than Ray retries it, or interrupted) is a SweepStopped with its status. Either way nothing is
combined and running the sweep again continues every cell.
"""

from __future__ import annotations

import sys

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from factprobe.eval.run.cell_worker import cell_data, run_cell
from factprobe.eval.run.ray_executor import run_tasks
from factprobe.eval.run.shard_worker import ShardOutcome, shard_log
from factprobe.eval.run.sweep import Cell, SweepError, SweepStopped

DONE_STATUSES = (0, 3)   # a run that ended: with success, or with too many ERROR rows (still reported)


def run_cells_on_ray(cells: list[Cell], address: str | None, console: Console, source: str) -> dict[str, int]:
    """Run every cell as a Ray task; their exit statuses by name (SweepError or SweepStopped when a
    cell did not end)."""
    if not cells:
        return {}
    logs = [shard_log(cell.config.out) for cell in cells if cell.config.out is not None]
    console.print(f"[bold]factprobe sweep[/bold] {len(cells)} runs as Ray tasks"
                  f"{f' on {address}' if address else ' on a local Ray cluster'}; logs: {logs[0].parent}/<cell>.log")
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console) as progress:
        bar = progress.add_task("sweep cells", total=len(cells))

        def done(number: int, outcome: ShardOutcome) -> None:
            progress.advance(bar)
            progress.console.print(f"{cells[number].name}: exit status {outcome.status}")

        outcomes = run_tasks(run_cell, [cell_data(cell.config) for cell in cells], address, lambda: None, done)
    bad = [(cell, outcome, log) for cell, outcome, log in zip(cells, outcomes, logs) if outcome.status == 2]
    if bad:
        raise SweepError("; ".join(f"{source}, cell {cell.name}: {outcome.message or f'see its log {log}'}"
                                   for cell, outcome, log in bad))
    stopped = [(cell, outcome, log) for cell, outcome, log in zip(cells, outcomes, logs)
               if outcome.status not in DONE_STATUSES]
    for cell, outcome, log in stopped:
        reason = f": {outcome.message}" if outcome.message else ""
        print(f"factprobe: sweep cell {cell.name} stopped with status {outcome.status}{reason} (log: {log})",
              file=sys.stderr)
    if stopped:
        raise SweepStopped(f"{len(stopped)} sweep cell(s) did not finish; their finished rows are saved. "
                           f"Run the sweep again to continue them.", stopped[0][1].status)
    return {cell.name: outcome.status for cell, outcome in zip(cells, outcomes)}
