"""`factprobe taxonomy DIR --judge M`: classify a run's INCORRECT answers, then rewrite its report."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import Any

from rich.console import Console

from factprobe.agents.models.base import ChatModel, ModelError
from factprobe.eval.core.schema import Result
from factprobe.eval.grading.judge_loader import load_judge
from factprobe.eval.store.run_dir import RunDir
from factprobe.eval.taxonomy.classify import TaxonomyFile, classify_row, incorrect_rows


def add_taxonomy_command(sub: Any) -> None:
    """Register `taxonomy` on the CLI's subparsers."""
    taxonomy = sub.add_parser("taxonomy", help="sort a run's INCORRECT answers by kind of error "
                                               "(perception, knowledge, reasoning, refusal, format)")
    taxonomy.add_argument("dir", type=Path, help="a run directory")
    taxonomy.add_argument("--judge", required=True, help="judge model, as for `factprobe run --judge`")
    taxonomy.add_argument("--concurrency", type=int, default=2, help="judge calls at a time (default 2)")
    taxonomy.add_argument("--no-cache", dest="use_cache", action="store_false",
                          help="do not read or write the judge's response cache")
    taxonomy.set_defaults(handler=cmd_taxonomy)


async def classify_pending(model: ChatModel, run_dir: RunDir, judge: str, concurrency: int) -> tuple[int, list[str]]:
    """Classify every INCORRECT row not yet in DIR/taxonomy.jsonl for this judge; (done, failures)."""
    record = TaxonomyFile(run_dir.path)
    done = record.done(judge)
    pending = [row for row in incorrect_rows(run_dir.read_results()) if row.key not in done]
    semaphore = asyncio.Semaphore(max(1, concurrency))
    failures: list[str] = []

    async def one(row: Result) -> None:
        async with semaphore:
            try:
                entry = await classify_row(model, row, judge)
            except ModelError as exc:
                failures.append(f"{row.question_id} ({row.strategy}, repeat {row.repeat}): {exc}")
                return
        record.append(entry)

    await asyncio.gather(*(one(row) for row in pending))
    return len(pending) - len(failures), failures


def cmd_taxonomy(args: argparse.Namespace, console: Console) -> int:
    run_dir = RunDir(args.dir)
    run_dir.read_manifest()
    model = load_judge(args.judge, use_cache=args.use_cache)   # reached first: a dead judge exits 2
    classified, failures = asyncio.run(classify_pending(model, run_dir, args.judge, args.concurrency))
    console.print(f"taxonomy: {classified} answers classified by {args.judge} "
                  f"({TaxonomyFile(run_dir.path).path})")
    for failure in failures:
        console.print(f"[red]judge call failed[/red] {failure}")
    from factprobe.eval.report.build import write_report  # numpy and matplotlib, only now

    write_report(run_dir, console)
    if failures:
        console.print(f"{len(failures)} answers are not classified; run the same command again to retry them")
        return 1
    return 0
