"""`factprobe sweep --executor ray`: each cell of a sweep as one Ray task
(factprobe.eval.run.cell_worker), all submitted at once; Ray runs as many at a time as the cluster
has CPUs. A cell logs its whole output to `<sweep folder>/<cell>.log`; the sweep prints one line per
cell as it ends, as in this process. factprobe.eval.run.sweep reads the outcomes
as the in-process sweep reads its runs' statuses.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.run.cell_worker import cell_data, run_cell
from factprobe.eval.run.ray_executor import run_tasks
from factprobe.eval.run.shard_worker import ShardOutcome
from factprobe.eval.run.sweep_lines import cell_line


def run_cells_on_ray(cells: dict[str, RunConfig], address: str | None, console: Console,
                     logs: Path) -> list[ShardOutcome]:
    """Run every cell (name: config) as a Ray task; the outcomes in the cells' order."""
    names = list(cells)
    console.print(f"[bold]factprobe sweep[/bold] {len(cells)} runs as Ray tasks"
                  f"{f' on {address}' if address else ' on a local Ray cluster'}; logs: {logs}/<cell>.log")
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console) as progress:
        bar = progress.add_task("sweep cells", total=len(cells))

        def done(number: int, outcome: ShardOutcome) -> None:
            progress.advance(bar)
            name = names[number]
            progress.console.print(cell_line(name, Path(cells[name].out or "."), outcome.status), soft_wrap=True)

        return run_tasks(run_cell, [cell_data(config) for config in cells.values()], address, lambda: None, done)
