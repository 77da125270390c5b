"""`factprobe sweep GRID.toml` and `factprobe.sweep(...)`: a grid of runs and one combined table.

The `[sweep]` table holds run options (the fields of RunConfig, nothing else). A list expands the
grid; for options that are themselves lists (`strategies`, `confidence`) a list *of lists*
expands. Every cell of the cross product is one run directory under the sweep's folder, resumed
when it already exists. Cells that differ only in options none of their strategies reads (e.g.
`samples` for vanilla) are run once and share a run directory. The combined table (`sweep.csv`,
one row per cell × strategy) holds the cell's options, CO/IN/NA/CGA/F, ΔF with its CI and p,
latency and token ratios against the run's baseline, and ECE.

`executor="ray"` (`factprobe sweep --executor ray`) runs each cell as one Ray task
(factprobe.eval.run.sweep_ray), on the cluster at `ray_address` or on a local one; the cells' run
directories and the combined table are the same as in this process. A cell stopped on bad input is
then a SweepError naming it (exit 2) once every task has ended, so the other cells' rows are kept;
a cell whose task could not finish (killed more often than Ray retries it, or interrupted) is a
SweepStopped with its status. Either way nothing is combined, and running the sweep again
continues every cell.
"""

from __future__ import annotations

import csv
import itertools
import json
import math
import tomllib
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from factprobe.eval.config.options import OptionError
from factprobe.eval.config.run_config import STRATEGY_OPTIONS, RunConfig
from factprobe.eval.core.format import output_console
from factprobe.eval.core.secrets import clip, redact_values, remember_in_data
from factprobe.eval.report.tables.literal import LiteralTable
from factprobe.eval.run.configs import new_config, run_folder
from factprobe.eval.store.atomic import atomic_open

CSV_SCORES = ("n", "accuracy", "incorrect_rate", "not_attempted_rate", "cga", "f_score", "ece", "latency_s_mean")
MAX_CELLS = 1000          # the default limit on a grid's cells; `max_cells = N` in [sweep] raises it
SWEEP_KEYS = {"out", "max_cells"}   # keys of the [sweep] table that are not run options
DONE_STATUSES = (0, 3)   # a run that ended: with success, or with too many ERROR rows (still reported)
CSV_GAINS = ("f_score_delta", "ci_low", "ci_high", "p_value", "accuracy_delta", "latency_ratio",
             "tokens_ratio")


class SweepError(ValueError):
    """A sweep file that cannot be read or names an unknown option."""


class SweepStopped(RuntimeError):
    """Cells whose run stopped before its end (a Ray task killed more often than it is retried,
    or interrupted): their finished rows are saved and running the sweep again continues them.
    `status` is the exit status (the first stopped cell's)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class Cell:
    """One point of the grid: its name, the options that vary, and the run's config."""

    name: str
    varying: dict[str, Any]
    config: RunConfig
    same_as: str | None = None  # the cell whose run directory this one shares


def _is_list_field(name: str) -> bool:
    annotation = RunConfig.model_fields[name].annotation
    return typing.get_origin(annotation) is list


def _axis(name: str, value: Any) -> list[Any]:
    if not isinstance(value, list):
        return [value]
    if _is_list_field(name):
        return value if value and all(isinstance(item, list) for item in value) else [value]
    return value


def check_grid(grid: dict[str, Any], source: str) -> None:
    """SweepError naming the key when an option's list is empty (an axis of no cells) or `out`, the
    sweep's own folder, is not one path."""
    empty = [key for key, value in grid.items() if isinstance(value, list) and not value]
    if empty:
        raise SweepError(f"{source}, [sweep]: {empty[0]} = []: an empty list gives no cell; give at least one "
                         f"value, or leave {empty[0]} out for its default")
    if "out" in grid and not isinstance(grid["out"], str):
        raise SweepError(f"{source}, [sweep]: out = {grid['out']!r}: expected one folder for the whole sweep "
                         f"(text); each cell's run goes to a folder of its own inside it, so out is no axis")


def _label(value: Any) -> str:
    return "+".join(map(str, value)) if isinstance(value, list) else str(value)


def read_grid(path: Path) -> dict[str, Any]:
    """The `[sweep]` table of a TOML file, with every key checked against RunConfig."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise SweepError(f"{path}: cannot be read ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise SweepError(f"{path}: not valid TOML ({exc})") from None
    grid = data.get("sweep")
    if not isinstance(grid, dict) or not grid:
        raise SweepError(f"{path}: needs a [sweep] table of run options")
    unknown = sorted(set(grid) - set(RunConfig.option_names()) - SWEEP_KEYS)
    if unknown:
        raise SweepError(f"{path}, [sweep]: unknown option(s) {', '.join(unknown)}; "
                         f"known: {', '.join(sorted(RunConfig.option_names()))}")
    return grid


def _folded(config: RunConfig) -> str:
    """The config with strategy options its strategies do not read reset to defaults, as a key."""
    from factprobe.agents.registry import get_strategy
    from factprobe.eval.run.confidence import options_read

    specs = [get_strategy(name) for name in config.strategies]
    read: set[str] = options_read(config)
    for spec in specs:
        read |= set(STRATEGY_OPTIONS) if spec.reads is None else set(spec.reads)
    data = config.model_dump(mode="json", exclude={"out"})
    for option in STRATEGY_OPTIONS:
        if option not in read:
            data[option] = RunConfig.model_fields[option].get_default(call_default_factory=True)
    return json.dumps(data, sort_keys=True, default=str)


def check_size(grid: dict[str, Any], names: list[str], axes: list[list[Any]], source: str) -> None:
    """SweepError, before any cell is built, when the grid has more cells than its `max_cells`."""
    limit = grid.get("max_cells", MAX_CELLS)
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise SweepError(f"{source}, [sweep]: max_cells = {limit!r}: expected a whole number of at least 1")
    cells = math.prod(len(axis) for axis in axes)
    if cells > limit:
        sizes = " × ".join(f"{len(axis)} {key}" for key, axis in zip(names, axes) if len(axis) > 1)
        raise SweepError(f"{source}, [sweep]: the grid has {cells:,} cells ({sizes}), above the limit of "
                         f"{limit:,}; shorten the lists, or set `max_cells = {cells}` in the [sweep] table "
                         f"if you mean to run them all.")


def expand(grid: dict[str, Any], out: Path, source: str = "sweep") -> list[Cell]:
    """Every cell of the grid, in a stable order, with folded duplicates marked. The grid's secrets
    are remembered first: a cell's folder is named after its options with them redacted."""
    remember_in_data(grid)
    names = [key for key in grid if key not in SWEEP_KEYS]
    axes = [_axis(key, grid[key]) for key in names]
    check_size(grid, names, axes, source)
    varying_keys = [key for key, axis in zip(names, axes) if len(axis) > 1]
    cells: list[Cell] = []
    seen: dict[str, str] = {}
    for index, values in enumerate(itertools.product(*axes)):
        options = dict(zip(names, values))
        varying = {key: options[key] for key in varying_keys}
        slug = "-".join(f"{key}={_label(value)}" for key, value in varying.items()) or "all"
        name = clip(f"{index:03d}-{slug}", 120).replace("/", "_").replace(":", "_")
        try:
            config = new_config({**options, "out": out / name})
        except OptionError as exc:
            raise SweepError(f"{source}, [sweep] (cell {name}): {exc}") from None
        cell = Cell(name, varying, config)
        key = _folded(config)
        if key in seen:
            cell.same_as = seen[key]
            cell.config = config.model_copy(update={"out": out / seen[key]})
        else:
            seen[key] = name
        cells.append(cell)
    return cells


def combined_rows(cells: list[Cell]) -> list[dict[str, Any]]:
    """One row per cell × strategy from each cell's summary.json, its text redacted: the table, the
    CSV, the page and the plots' labels are drawn from these rows."""
    rows = []
    for cell in cells:
        summary = json.loads((run_folder(cell.config) / "summary.json").read_text(encoding="utf-8"))
        for strategy, scores in summary.get("strategies", {}).items():
            gain = (summary.get("gains") or {}).get(strategy) or {}
            row: dict[str, Any] = {"cell": cell.name, "run_dir": str(cell.config.out),
                                   "dataset": cell.config.dataset, "model": cell.config.model,
                                   **{key: _label(value) for key, value in cell.varying.items()},
                                   "strategy": strategy, "baseline": summary.get("baseline")}
            row.update({key: scores.get(key) for key in CSV_SCORES})
            row.update({key: gain.get(key) for key in CSV_GAINS})
            rows.append({key: redact_values(value) if isinstance(value, str) else value for key, value in row.items()})
    return rows


def write_csv(rows: list[dict[str, Any]], path: Path) -> None:
    columns: list[str] = []
    for row in rows:
        columns += [key for key in row if key not in columns]
    with atomic_open(path, newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)


def print_table(rows: list[dict[str, Any]], console: Console) -> None:
    from factprobe.eval.core.format import pct

    if not rows:
        return
    fixed = ("cell", "strategy")
    options = [key for key in rows[0] if key not in fixed and key not in CSV_SCORES
               and key not in CSV_GAINS and key not in ("run_dir", "baseline", "exit_status")
               and len({row.get(key) for row in rows}) > 1]
    table = LiteralTable(title="sweep (answerable questions; % of graded; ΔF vs each run's baseline)")
    for column in (*fixed, *options, "n", "CO", "IN", "NA", "CGA", "F", "ΔF [95% CI]", "p",
                   "time×", "tokens×", "ECE"):
        table.add_column(column, justify="left" if column in (*fixed, *options) else "right")
    for row in rows:
        delta = "–" if row["f_score_delta"] is None else f"{100 * row['f_score_delta']:+.1f}"
        if row.get("ci_low") is not None:
            delta += f" [{100 * row['ci_low']:+.1f},{100 * row['ci_high']:+.1f}]"
        ratio = lambda v: "–" if v is None else f"{v:.1f}×"  # noqa: E731
        table.add_row(row["cell"], row["strategy"], *(str(row.get(k, "")) for k in options),
                      str(row["n"]), pct(row["accuracy"]), pct(row["incorrect_rate"]),
                      pct(row["not_attempted_rate"]), pct(row["cga"]), pct(row["f_score"]), delta,
                      "–" if row["p_value"] is None else f"{row['p_value']:.3f}",
                      ratio(row["latency_ratio"]), ratio(row["tokens_ratio"]), pct(row["ece"]))
    console.print(table)


def run_cells(cells: list[Cell], console: Console, verbose: bool = False, executor: str = "local",
              ray_address: str | None = None, source: str = "sweep") -> dict[str, int]:
    """Run (or continue) every cell that has its own run directory; their exit statuses by name.
    Each cell prints one line, or its whole run's output with `verbose` (or `verbose = true` in the
    grid); on Ray, its whole output goes to its log."""
    same = {cell.name: f"[dim]{escape(cell.name)}: same run as {escape(str(cell.same_as))} (its strategies read "
                       f"none of the options that differ)[/dim]" for cell in cells if cell.same_as}
    if executor == "ray":
        for note in same.values():
            console.print(note)
        return ray_statuses([cell for cell in cells if not cell.same_as], ray_address, console, source)
    from factprobe.eval.run.session import run_config
    from factprobe.eval.run.sweep_lines import cell_line

    statuses: dict[str, int] = {}
    for number, cell in enumerate(cells, 1):
        if cell.name in same:
            console.print(same[cell.name])
            continue
        resume = (run_folder(cell.config) / "manifest.json").is_file()
        if verbose or cell.config.verbose:
            console.rule(f"sweep cell {escape(cell.name)}")
            statuses[cell.name] = run_config(cell.config.model_copy(update={"verbose": True}), resume=resume,
                                             console=console)
            continue
        with console.status(f"sweep cell {escape(cell.name)} ({number}/{len(cells)})"):
            statuses[cell.name] = run_config(cell.config, resume=resume, console=output_console(quiet=True))
        console.print(escape(cell_line(cell.name, run_folder(cell.config), statuses[cell.name])), soft_wrap=True)
    return statuses


def ray_statuses(cells: list[Cell], address: str | None, console: Console, source: str) -> dict[str, int]:
    """Run every cell as a Ray task; their exit statuses by name, or SweepError / SweepStopped."""
    import sys

    from factprobe.eval.run.shard_worker import shard_log
    from factprobe.eval.run.sweep_ray import run_cells_on_ray

    if not cells:
        return {}
    nested = [cell.name for cell in cells if cell.config.executor == "ray"]
    if nested:   # a cell's own Ray tasks would wait for CPUs its sweep's tasks hold
        raise SweepError(f"{source}, cell {nested[0]}: its run is split into Ray tasks (executor = \"ray\"), "
                         f"so it cannot itself run as one: run this sweep without --executor ray, or drop "
                         f"executor from the [sweep] table")
    logs = [shard_log(run_folder(cell.config)) for cell in cells]
    outcomes = run_cells_on_ray({cell.name: cell.config for cell in cells}, address, console, logs[0].parent)
    ended = list(zip(cells, outcomes, logs))
    bad = [(cell, outcome, log) for cell, outcome, log in ended if outcome.status == 2]
    if bad:
        raise SweepError("; ".join(f"{source}, cell {cell.name}: {outcome.message or f'see its log {log}'}"
                                   for cell, outcome, log in bad))
    stopped = [(cell, outcome, log) for cell, outcome, log in ended if outcome.status not in DONE_STATUSES]
    for cell, outcome, log in stopped:
        reason = f": {outcome.message}" if outcome.message else ""
        print(f"factprobe: sweep cell {cell.name} stopped with status {outcome.status}{reason} (log: {log})",
              file=sys.stderr)
    if stopped:
        raise SweepStopped(f"{len(stopped)} sweep cell(s) did not finish; their finished rows are saved. "
                           f"Run the sweep again to continue them.", stopped[0][1].status)
    return {cell.name: outcome.status for cell, outcome in zip(cells, outcomes)}


def sweep(grid: str | Path | dict[str, Any], out: str | Path | None = None, quiet: bool = False,
          console: Console | None = None, verbose: bool = False, executor: str = "local",
          ray_address: str | None = None) -> list[dict[str, Any]]:
    """Run every cell of `grid` (a TOML path or the `[sweep]` table as a dict); returns the
    combined rows, also written to OUT/sweep.csv. Exit statuses of failed cells are kept in the
    `exit_status` of each row; nothing already computed is lost (each cell resumes). Each cell
    prints one line, or its whole run's output with `verbose` (or `verbose = true` in the grid).
    `executor="ray"` runs each cell as one Ray task (on `ray_address`, or a local cluster)."""
    source = str(grid) if isinstance(grid, (str, Path)) else "sweep"
    if executor not in ("local", "ray"):
        raise SweepError(f"--executor = {executor!r}: must be local or ray")
    if executor == "ray":
        from factprobe.eval.run.ray_executor import require_ray

        require_ray("factprobe sweep --executor ray")
    table = read_grid(Path(grid)) if isinstance(grid, (str, Path)) else dict(grid)
    if isinstance(grid, dict):
        unknown = sorted(set(table) - set(RunConfig.option_names()) - SWEEP_KEYS)
        if unknown:
            raise SweepError(f"sweep: unknown option(s) {', '.join(unknown)}")
    check_grid(table, source)
    folder = Path(out or table.get("out") or Path("runs") / f"sweep-{Path(source).stem}")
    console = console or output_console(quiet)
    cells = expand(table, folder, source)
    statuses = run_cells(cells, console, verbose, executor, ray_address, source)
    rows = combined_rows(cells)
    for row in rows:
        row["exit_status"] = statuses.get(row["cell"], statuses.get(
            next(c.same_as for c in cells if c.name == row["cell"]) or row["cell"], 0))
    folder.mkdir(parents=True, exist_ok=True)
    write_csv(rows, folder / "sweep.csv")
    print_table(rows, console)
    from factprobe.eval.report.html.sweep_page import write_sweep_html
    from factprobe.eval.report.sweep_plots import sweep_figures

    figures = sweep_figures(rows, folder)
    for path in figures:
        console.print(f"plot: {escape(str(path))}")
    page = write_sweep_html(rows, folder, print_table, figures)
    console.print(f"sweep table: [bold]{escape(str(folder / 'sweep.csv'))}[/bold], in a browser: "
                  f"[bold]{escape(str(page))}[/bold]")
    return rows
