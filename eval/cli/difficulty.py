"""`factprobe difficulty RUN… --out FILE [--strategy S] [--easy-above N] [--keep TIERS] [--json]`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.console import Console

from factprobe.eval.cli.output import print_json
from factprobe.eval.core.errors import DatasetError
from factprobe.eval.core.format import pct
from factprobe.eval.report.tables.literal import LiteralTable


def frequency_table(frequency: dict) -> LiteralTable:
    """Accuracy per entity frequency bin (WorldVQA Fig. 4 as a table)."""
    table = LiteralTable(title=f"Accuracy by entity frequency percentile ({frequency['matched']} items matched, "
                               f"{frequency['unmatched']} not in the counts file)")
    for column in ("percentile", "items", "accuracy"):
        table.add_column(column, justify="left" if column == "percentile" else "right")
    for row in frequency["bins"]:
        table.add_row(f"{row['percentile_low']:g}–{row['percentile_high']:g}", str(row["items"]), pct(row["accuracy"]))
    return table


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
    if args.plot is not None and args.entity_counts is None:
        print("factprobe: --plot draws the entity-frequency figure; give --entity-counts FILE", file=sys.stderr)
        return 2
    try:
        runs = load_runs(args.dirs)
        data = difficulty(runs, args.strategy, args.easy_above, args.shared_only)
        if args.entity_counts is not None:
            from factprobe.eval.analysis.entity_frequency import entity_frequency, item_entities, read_entity_counts

            data["entity_frequency"] = entity_frequency(data["items"], item_entities(runs[0].rows, args.entity_field),
                                                        read_entity_counts(args.entity_counts), args.entity_field)
    except (QuestionSetError, DatasetError) as exc:
        print(f"factprobe: {exc}", file=sys.stderr)
        return 2
    for warning in data["warnings"]:
        print(f"factprobe: WARNING: {warning}", file=sys.stderr)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(id_file_text(data, keep), encoding="utf-8")
    if "entity_frequency" in data and args.plot is not None:
        from factprobe.eval.report.entity_frequency_plot import frequency_figure

        data["entity_frequency"]["figure"] = str(frequency_figure(data["items"], data["entity_frequency"], args.plot))
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
    if "entity_frequency" in data:
        console.print(frequency_table(data["entity_frequency"]))
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
    parser.add_argument("--entity-counts", type=Path, metavar="FILE",
                        help="a JSON object entry → count (MetaCLIP's entry_counts_400m.json): each item joined to "
                        "its entity's count and frequency rank percentile, per tier and per frequency bin "
                        "(WorldVQA Fig. 4)")
    parser.add_argument("--entity-field", default="answer", metavar="NAME",
                        help="the item's entity: its gold answer (default; WorldVQA's answers are entities) or "
                        "this field")
    parser.add_argument("--plot", type=Path, metavar="DIR",
                        help="with --entity-counts: draw entity_frequency.png (tiers against frequency) in DIR")
    parser.set_defaults(handler=cmd_difficulty)
