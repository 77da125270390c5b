"""`--workers N` (and `--executor ray`): one run split into N shards, each answered on its own,
merged into the run directory at the end.

The run directory OUT is locked from start to end, as for one process. Its manifest is written
first (the whole run's config and selection), so `--resume --out OUT` finds it; the shards live in
OUT/shards/I-of-N/ (each an ordinary `--shard I/N` run with its own lock, resumed when it already
started) and log to OUT/shards/I-of-N.log; local shards are worker processes forked from this one
where that is safe (factprobe.eval.run.local_workers). Each shard gets the run's --concurrency and
an equal part of the embedded model's threads. When every shard has finished,
factprobe.eval.run.merge checks and copies their rows into OUT/results.jsonl, and the report and
the exit status are computed from the rows it read (not read again). Exit status: 2 when a shard
stopped on bad input (its message is printed), a stopped shard's status when one was interrupted
or killed (nothing is merged; --resume continues), else the merged run's.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.core.schema import Question
from factprobe.eval.core.speedups import end_start_up
from factprobe.eval.run.inputs import input_digests
from factprobe.eval.run.local_workers import Worker, start_workers, wait_workers
from factprobe.eval.run.manifest import dataset_fingerprint, package_versions
from factprobe.eval.run.shard_worker import ShardOutcome, logged_message, shard_log
from factprobe.eval.run.shards import existing_split, shard_dirs
from factprobe.eval.store.run_dir import RunDir, RunDirError


class ShardProgress:
    """One progress bar over every shard, counting the rows their results files have gained."""

    def __init__(self, paths: list[Path], progress: Progress, total: int) -> None:
        self.files = [path / "results.jsonl" for path in paths]
        self.seen = [0] * len(paths)       # bytes of each file already counted
        self.progress = progress
        self.task = progress.add_task("answering (all shards)", total=total)

    def update(self) -> None:
        rows = 0
        for number, path in enumerate(self.files):
            if path.is_file():
                with path.open("rb") as handle:
                    handle.seek(self.seen[number])
                    data = handle.read()
                rows += data.count(b"\n")
                self.seen[number] += data.rfind(b"\n") + 1
        self.progress.advance(self.task, rows)


def shard_configs(config: RunConfig) -> list[dict[str, Any]]:
    """The config of each shard: the run's own, with its shard, folder and part of the threads."""
    from factprobe.agents.models.local import default_threads

    count = config.workers
    threads = max(1, (config.threads or default_threads()) // count)
    return [config.model_copy(update={"shard": f"{index}/{count}", "out": path, "workers": 1,
                                      "executor": "local", "ray_address": None, "threads": threads}
                              ).model_dump(mode="json")
            # absolute: a Ray worker need not start in this folder
            for index, path in enumerate(shard_dirs(Path(config.out or ".").resolve(), count), start=1)]


def plan_manifest(config: RunConfig, questions: list[Question], dataset: Any, notes: list[str]) -> dict[str, Any]:
    """The run directory's manifest until the merge replaces it: enough for `--resume` to continue."""
    from datetime import datetime, timezone

    return {"factprobe_version": package_versions()["factprobe"],
            "started_utc": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "command": sys.argv, "config": config.model_dump(mode="json"),
            "dataset": {"name": dataset.name, "questions": len(dataset.questions), "selected": len(questions),
                        "fingerprint": dataset_fingerprint(dataset), "corpus_passages": len(dataset.corpus)},
            "question_ids": [q.id for q in questions], "notes": notes, "inputs": input_digests(config),
            "split": {"workers": config.workers, "executor": config.executor}}


def prepare(config: RunConfig, resume: bool, run_dir: RunDir, console: Console) -> int:
    """The checks of the whole run before any shard starts (options, dataset, the run directory);
    the strategies a default run leaves out (each shard notes them again in its manifest, which the
    merge keeps) and the plan manifest of a new run. Returns the number of rows the run will have."""
    from factprobe.eval.datasets.registry import load_dataset
    from factprobe.eval.run.checks import left_out_by_default
    from factprobe.eval.run.configs import ConfigError, check_unchanged
    from factprobe.eval.run.plan import check_options, print_notes, select_questions

    check_options(config)   # as a run's plan checks them (each shard checks its own again)
    # The strategies and the model are checked by every shard as it starts (a bad one exits 2 with its
    # message, printed once): checking them here as well would cost this process the strategies'
    # import (about 1 s of CPU) before any shard starts.
    dataset = load_dataset(config.dataset)
    splits = existing_split(run_dir.path)
    if resume:
        manifest = run_dir.read_manifest()
        check_unchanged(run_dir, manifest, dataset, config)
        if splits - {config.workers}:
            found = max(splits - {config.workers})
            raise ConfigError(f"{run_dir.path} was split into {found} shards: resume it with --workers {found}")
        if not splits and run_dir.results_path.exists():
            raise ConfigError(f"{run_dir.path} was run in one process: resume it without --workers")
        return len(manifest["question_ids"]) * len(config.strategies) * config.repeats
    if run_dir.manifest_path.exists() or splits:
        raise RunDirError(f"{run_dir.path} already holds a run: continue it with `factprobe run --resume "
                          f"--out {run_dir.path}` or choose another --out")
    questions = select_questions(dataset, config)
    notes = left_out_by_default(config, dataset, questions)
    print_notes(notes, console)
    run_dir.write_manifest(plan_manifest(config, questions, dataset, notes))
    return len(questions) * len(config.strategies) * config.repeats


# Imported by the merge and the report on their first use, besides the registered sections, tables
# and plots (measured: 0.3 s of CPU the report would otherwise spend after the last row)
REPORT_MODULES = ("factprobe.eval.run.merge", "jinja2", "numpy.random", "matplotlib.backends.backend_svg")


def preload_report() -> None:
    """Import the merge's and the report's modules (numpy, matplotlib, every summary section, table
    and plot) while the shards start: the merged run's report cannot start before their last row,
    and on a machine with as many cores as shards these imports would otherwise run on one core
    while the others idle. Forked workers' starter imports what they run meanwhile, on another
    core (factprobe.eval.run.local_workers), so these imports do not share the cores with the
    answers either. A module that fails to import is left for the report to raise, at its usual
    place."""
    import importlib

    from factprobe.eval.analysis.summary import SECTIONS
    from factprobe.eval.core.extensions import ExtensionLoadError
    from factprobe.eval.report.build import TABLES

    try:
        SECTIONS.load()
        TABLES.load()
        for module in REPORT_MODULES:
            importlib.import_module(module)
    except (ExtensionLoadError, ImportError):
        pass


def forget_unstarted(run_dir: RunDir, configs: list[dict[str, Any]]) -> None:
    """A new run whose shards all stopped before their first row (bad input) leaves nothing behind,
    as one process would not: the plan manifest and the shards' logs go, so the same --out can be
    used again with the input corrected."""
    if any((Path(config["out"]) / "manifest.json").exists() for config in configs):
        return
    import shutil

    run_dir.manifest_path.unlink(missing_ok=True)
    shutil.rmtree(Path(configs[0]["out"]).parent, ignore_errors=True)


def finished(run_dir: RunDir, config: RunConfig, total: int) -> bool:
    """A merged run with every row done (nothing for --resume to run) and its report current."""
    from factprobe.eval.run.outcome import report_current

    if "merged_from" not in run_dir.read_manifest() or not report_current(run_dir):
        return False
    return len(run_dir.done_keys()) == total and not (config.judge and run_dir.ungraded_rows())


def failed_shards(outcomes: list[ShardOutcome], configs: list[dict[str, Any]], config: RunConfig, resume: bool,
                  run_dir: RunDir) -> int | None:
    """The exit status of a split run some shard of which failed, each failure named (bad input:
    2, and a new run's unstarted shards forgotten); None when every shard finished."""
    bad = [(number, o) for number, o in enumerate(outcomes, start=1) if o.status == 2]
    if bad:
        for message in dict.fromkeys(o.message or "see its log" for _, o in bad):
            print(f"factprobe: {message}", file=sys.stderr)
        if not resume:
            forget_unstarted(run_dir, configs)
        return 2
    stopped = [(number, o) for number, o in enumerate(outcomes, start=1) if o.status not in (0, 3)]
    for number, outcome in stopped:
        reason = f": {outcome.message}" if outcome.message else ""
        print(f"factprobe: shard {number}/{config.workers} stopped with status {outcome.status}{reason} "
              f"(log: {shard_log(Path(configs[number - 1]['out']))}); finished rows are saved. "
              f"Continue with: factprobe run --resume --out {run_dir.path}", file=sys.stderr)
    return stopped[0][1].status if stopped else None


def execute_split(config: RunConfig, resume: bool, console: Console) -> int:
    """Run `config` as `config.workers` shards and merge them into `config.out`; the exit status."""
    run_dir = RunDir(Path(config.out or "."))
    run_dir.lock()
    try:
        return _execute_split(config, resume, console, run_dir)
    finally:
        run_dir.unlock()


def _execute_split(config: RunConfig, resume: bool, console: Console, run_dir: RunDir) -> int:
    from factprobe.eval.run.merge import merge_shards
    from factprobe.eval.run.outcome import check_failures

    if config.executor == "ray":
        from factprobe.eval.run.ray_executor import require_ray

        require_ray()
    total = prepare(config, resume, run_dir, console)
    if resume and finished(run_dir, config, total):
        console.print(f"nothing to run: every row of {run_dir.path} is done and merged, and its report is up "
                      f"to date (`factprobe report {run_dir.path}` redraws it)", markup=False)
        return check_failures(run_dir, config, console)
    configs = shard_configs(config)
    workers: list[Worker] = []
    if config.executor == "local":   # started before the progress bar's thread: they may be forked
        try:   # the report's imports meanwhile; ends this command's start-up
            workers = start_workers(configs, config, meanwhile=preload_report)
        except ValueError:           # an unknown strategy, found before any shard started
            if not resume:
                forget_unstarted(run_dir, configs)
            raise
    else:
        end_start_up()
    console.print(f"[bold]factprobe[/bold] {total} rows in {config.workers} shards, run by "
                  f"{'Ray tasks' if config.executor == 'ray' else 'local processes'}; logs: "
                  f"{shard_log(Path(configs[0]['out'])).parent}")
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console) as progress:
        watch = ShardProgress([Path(c["out"]) for c in configs], progress, total)
        if config.executor == "ray":
            from factprobe.eval.run.ray_executor import run_on_ray

            outcomes = run_on_ray(configs, config.ray_address, watch)
        else:
            statuses = wait_workers(workers, watch.update)
            outcomes = [ShardOutcome(status, logged_message(shard_log(Path(c["out"]))) if status == 2 else "")
                        for status, c in zip(statuses, configs)]
    failed = failed_shards(outcomes, configs, config, resume, run_dir)
    if failed is not None:
        return failed
    from factprobe.eval.report.build import write_report  # imported while the shards ran (preload_report)

    # the rows the merge checked and copied: the report and the exit status do not read them again
    rows = merge_shards(run_dir, [Path(c["out"]) for c in configs], config)
    console.print(f"merged {config.workers} shards: {len(rows)} rows")
    write_report(run_dir, console, verbose=config.verbose, rows=rows)
    console.print(f"run directory: [bold]{escape(str(run_dir.path))}[/bold]")
    return check_failures(run_dir, config, console, rows)
