"""Shards of one run (`--shard I/N`) joined into one run directory: `factprobe merge`, and the end
of a run split by `--workers`.

A trusted merge: the shards are first checked to be one run (the same result-changing options,
dataset content and selection; each shard once, none missing; every row of every shard present),
then the latest row of every (question, strategy, repeat) is copied once, byte for byte, in the
order one process would have written them, and every metric is computed again from the full rows
(factprobe.eval.report.build.write_report). Nothing is taken from a shard's summary.

The rows the merge read and checked are handed on, pointed at their copies in OUT/results.jsonl
(`merge_shards`): the report and the exit status use them instead of reading and checking the
merged file again, which holds the same bytes.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from rich.console import Console
from rich.markup import escape

from factprobe.eval.config.options import validation_message
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.run.inputs import input_differences
from factprobe.eval.run.shards import shard_of
from factprobe.eval.store.run_dir import RESULTS, RunDir, RunDirError, parse_row
from factprobe.eval.store.slim_rows import RowFile, SlimRow

Key = tuple[str, str, int]


class MergeError(RunDirError):
    """Directories that are not the complete shards of one run; the message says what differs or is missing."""


@dataclass
class Shard:
    """One shard's run directory, its manifest and latest rows."""

    run_dir: RunDir
    manifest: dict[str, Any]
    config: RunConfig
    index: int
    count: int
    selected: list[str]

    @property
    def name(self) -> str:
        return f"shard {self.index}/{self.count} ({self.run_dir.path})"

    def identity(self) -> dict[str, Any]:
        """The options that change results, less `shard` itself."""
        return {key: value for key, value in self.config.identity().items() if key != "shard"}


def read_shard(path: Path) -> Shard:
    """The shard in `path`; MergeError when it is not one."""
    run_dir = RunDir(path)
    manifest = run_dir.read_manifest()
    entry = manifest.get("shard")
    if not isinstance(entry, dict):
        raise MergeError(f"{run_dir.manifest_path}: not a shard (its manifest has no `shard` key); "
                         f"`factprobe merge` joins the runs of `factprobe run --shard I/N`")
    try:
        index, count, selected = int(entry["index"]), int(entry["count"]), [str(q) for q in entry["run_question_ids"]]
        config = RunConfig(**manifest["config"])
    except (KeyError, TypeError, ValueError) as exc:
        problem = validation_message(exc) if isinstance(exc, ValidationError) else f"{type(exc).__name__}: {exc}"
        raise MergeError(f"{run_dir.manifest_path}: field `shard` or `config` is malformed ({problem}); "
                         f"the file was changed by something other than factprobe") from None
    return Shard(run_dir, manifest, config, index, count, selected)


def check_same_content(first: Shard, shard: Shard) -> None:
    """MergeError when two shards read input files of other content (their manifests' `inputs`;
    shards written before they were recorded are not compared) or were answered by models their
    servers name differently (`served_model`, and the judge's `judge_served_model`; not compared
    when a shard's manifest lacks it)."""
    ours, theirs = first.manifest.get("inputs"), shard.manifest.get("inputs")
    if isinstance(ours, dict) and isinstance(theirs, dict):
        sides = (f"in shard {first.index}/{first.count}", f"in shard {shard.index}/{shard.count}")
        differ = input_differences(ours, theirs, sides)
        if differ:
            raise MergeError(f"{shard.name} and {first.name} are not shards of one run: "
                             + "; ".join(f"{flag}: {detail}" for flag, detail in differ))
    for key, flag, spec, did in (("served_model", "--model", first.config.model, "answered"),
                                 ("judge_served_model", "--judge", first.config.judge, "graded")):
        served = first.manifest.get(key), shard.manifest.get(key)
        if all(served) and served[0] != served[1]:
            raise MergeError(f"{shard.name} and {first.name} were {did} by different models: the server behind "
                             f"{flag} {spec} reported {served[0]!r} to shard {first.index}/{first.count} and "
                             f"{served[1]!r} to shard {shard.index}/{shard.count}; run both against one model")


def check_one_run(shards: Sequence[Shard]) -> None:
    """MergeError unless `shards` are every shard of one run, each once."""
    first = shards[0]
    for shard in shards[1:]:
        ours, theirs = first.identity(), shard.identity()
        differ = sorted(key for key in ours.keys() | theirs.keys() if ours.get(key) != theirs.get(key))
        if differ:
            raise MergeError(f"{shard.name} and {first.name} are not shards of one run: these options "
                             f"differ: {', '.join(differ)}")
        if shard.manifest.get("dataset", {}).get("fingerprint") != first.manifest.get("dataset", {}).get("fingerprint"):
            raise MergeError(f"{shard.name} and {first.name} asked different questions: the content hashes "
                             f"of their datasets differ")
        check_same_content(first, shard)
        if (shard.count, shard.selected) != (first.count, first.selected):
            raise MergeError(f"{shard.name} and {first.name} split different selections of questions "
                             f"(another number of shards, --limit or dataset order)")
    seen: dict[int, Shard] = {}
    for shard in shards:
        if shard.index in seen:
            raise MergeError(f"shard {shard.index}/{shard.count} is given twice: {seen[shard.index].run_dir.path} "
                             f"and {shard.run_dir.path}")
        seen[shard.index] = shard
    missing = [f"{index}/{first.count}" for index in range(1, first.count + 1) if index not in seen]
    if missing:
        raise MergeError(f"shard(s) {', '.join(missing)} of the run are missing: run each with `factprobe "
                         f"run --shard I/N` and the same options, then merge all {first.count}")


def latest_rows(shard: Shard) -> dict[Key, SlimRow]:
    """The shard's latest row per key; MergeError when a row is foreign or one is missing."""
    ids = [q for q in shard.selected if shard_of(q, shard.count) == shard.index]
    if ids != shard.manifest.get("question_ids"):
        raise MergeError(f"{shard.run_dir.manifest_path}: its `question_ids` are not the questions of shard "
                         f"{shard.index}/{shard.count}; the file was changed by something other than factprobe")
    rows = {row.key: row for row in shard.run_dir.latest_slim()}
    config = shard.config
    expected = [(q, s, r) for r in range(config.repeats) for q in ids for s in config.strategies]
    stray = sorted(set(rows) - set(expected))
    if stray:
        raise MergeError(f"{shard.run_dir.results_path} holds {len(stray)} row(s) outside its shard (the first: "
                         f"{'/'.join(map(str, stray[0]))}); the file was changed by something other than factprobe")
    absent = [key for key in expected if key not in rows]
    if absent:
        raise MergeError(f"{shard.name} lacks {len(absent)} of its {len(expected)} rows (the first: question "
                         f"{absent[0][0]}, {absent[0][1]}, repeat {absent[0][2]}); finish it with `factprobe "
                         f"run --resume --out {shard.run_dir.path}`, then merge again")
    return rows


def write_rows(out: RunDir, shards: Sequence[Shard], rows: Sequence[dict[Key, SlimRow]]) -> list[SlimRow]:
    """Every shard's latest rows, each line copied as it is, in the job order of one process
    (repeat, question, strategy); replaces OUT/results.jsonl atomically. Returns the rows as
    `out.latest_slim()` would read them from the new file: the same slim rows, in the order written,
    each now pointing at its copy (its offset in OUT/results.jsonl)."""
    config = shards[0].config
    question_order = {q: i for i, q in enumerate(shards[0].selected)}
    strategy_order = {s: i for i, s in enumerate(config.strategies)}
    entries = sorted((((key[2], question_order[key[0]], strategy_order[key[1]]), number, row.offset, row)
                      for number, shard_rows in enumerate(rows) for key, row in shard_rows.items()),
                     key=lambda entry: entry[:3])
    tmp = out.path / f".{RESULTS}.{os.getpid()}.tmp"
    merged = RowFile(out.results_path, parse_row)
    written: list[tuple[SlimRow, int]] = []
    # a shard may hold no question (more shards than questions) and so have no rows file
    handles = [path.open("rb") if (path := shard.run_dir.results_path).is_file() else None for shard in shards]
    try:
        with tmp.open("wb") as target:
            position = 0
            for _, number, offset, row in entries:
                handle = handles[number]
                assert handle is not None, "a row of a shard without a rows file"
                handle.seek(offset)
                line = handle.readline()
                if not line.endswith(b"\n"):
                    line += b"\n"
                target.write(line)
                written.append((row, position))
                position += len(line)
            target.flush()
            os.fsync(target.fileno())
        os.replace(tmp, out.results_path)
    finally:
        for handle in handles:
            if handle is not None:
                handle.close()
        tmp.unlink(missing_ok=True)
    return [row.moved_to(merged, offset) for row, offset in written]


def merged_manifest(shards: Sequence[Shard], out: Path, config: RunConfig | None,
                    counts: Sequence[int]) -> dict[str, Any]:
    """The first shard's manifest made the whole run's: its selection, config (shard unset, `out`
    the merged folder, or `config` when a split run is merged into its own folder) and the shards
    it came from."""
    first = shards[0]
    manifest = {key: value for key, value in first.manifest.items() if key != "shard"}
    merged_config = config or first.config.model_copy(update={"shard": None, "out": out})
    manifest["config"] = merged_config.model_dump(mode="json")
    manifest["question_ids"] = list(first.selected)
    manifest["dataset"] = {**manifest.get("dataset", {}), "selected": len(first.selected)}
    manifest["started_utc"] = min(str(shard.manifest.get("started_utc", "")) for shard in shards)
    manifest["command"] = sys.argv
    manifest["merged_from"] = [
        {"dir": str(shard.run_dir.path), "shard": f"{shard.index}/{shard.count}", "rows": count,
         "started_utc": shard.manifest.get("started_utc"), "platform": shard.manifest.get("platform"),
         "model": shard.manifest.get("model"), "served_model": shard.manifest.get("served_model"),
         "judge_served_model": shard.manifest.get("judge_served_model")}
        for shard, count in zip(shards, counts)]
    return manifest


def merge_into(out: RunDir, paths: Sequence[Path], config: RunConfig | None = None) -> int:
    """`merge_shards`, returning the number of rows written."""
    return len(merge_shards(out, paths, config))


def merge_shards(out: RunDir, paths: Sequence[Path], config: RunConfig | None = None) -> list[SlimRow]:
    """Check the shards in `paths` and write them into `out` (locked by the caller) as one run:
    results.jsonl and manifest.json (the report is the caller's). Each shard is locked while it is
    read, so a shard still running stops the merge. Returns the merged run's latest rows, as
    `out.latest_slim()` would read them (see `write_rows`), for the report and the exit status."""
    if not paths:
        raise MergeError("nothing to merge: name the shard directories")
    shards = sorted((read_shard(path) for path in paths), key=lambda shard: shard.index)
    check_one_run(shards)
    for shard in shards:
        if shard.run_dir.path.resolve() == out.path.resolve():
            raise MergeError(f"--out {out.path} is one of the shards: merge into another directory")
    locked: list[RunDir] = []
    try:
        for shard in shards:
            shard.run_dir.lock()
            locked.append(shard.run_dir)
        rows = [latest_rows(shard) for shard in shards]
        merged = write_rows(out, shards, rows)
        out.write_manifest(merged_manifest(shards, out.path, config, [len(part) for part in rows]))
    finally:
        for run_dir in locked:
            run_dir.unlock()
    return merged


def check_destination(out: RunDir, console: Console) -> None:
    """MergeError when OUT holds a run. The merge writes the rows, then the manifest, each by an
    atomic rename, then the report: a merge stopped before its manifest leaves rows alone, merged
    again here; one stopped after it is a run, whose report `factprobe report OUT` finishes."""
    if out.manifest_path.is_file():
        raise MergeError(f"--out {out.path} already holds a run: merge into a new directory (a merge into it "
                         f"that stopped before its report is finished by `factprobe report {out.path}`)")
    if out.results_path.is_file():
        console.print(f"{escape(str(out.path))} holds rows but no manifest (a merge stopped before its end): "
                      f"merging again")


def merge_runs(paths: Sequence[Path], out: Path, console: Console) -> int:
    """`factprobe merge DIR… --out OUT`: the shards as one new run in OUT, reported; returns the
    exit status one process running the whole run would have had (3 when ERROR rows exceed the
    run's --max-error-rate)."""
    from factprobe.eval.report.build import write_report
    from factprobe.eval.run.outcome import check_failures

    run_dir = RunDir(out)
    run_dir.lock()
    try:
        check_destination(run_dir, console)
        rows = merge_shards(run_dir, paths)
        console.print(f"merged {len(paths)} shards: {len(rows)} rows into [bold]{escape(str(out))}[/bold]")
        write_report(run_dir, console, rows=rows)
        config = RunConfig(**run_dir.read_manifest()["config"])
        return check_failures(run_dir, config, console, rows)
    finally:
        run_dir.unlock()
