"""`factprobe difficulty RUN… --out FILE [--strategy S] [--easy-above N] [--keep TIERS] [--json]`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.console import Console

from factprobe.eval.cli.output import print_json
from factprobe.eval.report.tables.literal import LiteralTable


def cmd_difficulty(args: argparse.Namespace, console: Console) -> int:
    from factprobe.eval.analysis.cross_run import QuestionSetError
    from factprobe.eval.analysis.difficulty import TIERS, difficulty, id_file_text
    from factprobe.eval.analysis.loaded_runs import load_runs

    keep = None
    if args.keep:
        keep = {name.strip() for name in args.keep.split(",")}
        unknown = sorted(keep - set(TIERS))
        if unknown:
            print(f"factprobe: --keep {', '.join(unknown)}: not a tier (tiers: {', '.join(TIERS)})", file=sys.stderr)
            return 2
    try:
        data = difficulty(load_runs(args.dirs), args.strategy, args.easy_above, args.shared_only)
    except QuestionSetError as exc:
        print(f"factprobe: {exc}", file=sys.stderr)
        return 2
    for warning in data["warnings"]:
        print(f"factprobe: WARNING: {warning}", file=sys.stderr)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(id_file_text(data, keep), encoding="utf-8")
    if args.json:
        print_json(data)
        return 0
    table = LiteralTable(title=f"Difficulty over {len(data['runs'])} runs (how many answered each question correctly)")
    for column in ("tier", "rule", "questions"):
        table.add_column(column, justify="right" if column == "questions" else "left")
    rules = {"solved": "all runs correct", "easy": f"more than {data['easy_above']}", "medium": "otherwise",
             "hard": "none correct", "undecided": "a run has no graded answer", "unanswerable": "no gold answer"}
    for name, count in data["tiers"].items():
        table.add_row(name, rules[name], str(count))
    console.print(table)
    console.print(f"ids: {args.out}" + (f" (tiers {', '.join(sorted(keep))})" if keep else ""))
    return 0


def add_difficulty_command(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("difficulty", help="per question, how many runs answered it correctly; tiers and "
                            "an id file for --only-ids / --exclude-ids")
    parser.add_argument("dirs", type=Path, nargs="+", metavar="RUN", help="run directories (one per model)")
    parser.add_argument("--out", type=Path, required=True, metavar="FILE",
                        help="write `id<TAB>tier<TAB>correct/runs` lines here")
    parser.add_argument("--strategy", help="the strategy whose rows count (default: each run's baseline)")
    parser.add_argument("--easy-above", type=int, default=3, metavar="N",
                        help="easy: more than N runs correct (WorldVQA: 3 of 5; default: 3)")
    parser.add_argument("--keep", metavar="TIERS", help="write only these tiers, comma-separated (e.g. hard,medium; "
                        "`solved` for an --exclude-ids file)")
    parser.add_argument("--shared-only", action="store_true",
                        help="when the runs answered different questions, use the shared ones (with a warning)")
    parser.add_argument("--json", action="store_true", help="print the tiers and every item as one JSON object")
    parser.set_defaults(handler=cmd_difficulty)
