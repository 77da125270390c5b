"""`factprobe compare RUN… [--baseline RUN] [--shared-only] [--where EXPR] [--group-by FIELD,…] [--json]
[--html FILE]`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.console import Console

from factprobe.eval.cli.output import print_json
from factprobe.eval.config.options import add_run_options, checked_options, explicit_options


def cmd_compare(args: argparse.Namespace, console: Console) -> int:
    from factprobe.eval.analysis.cross_run import QuestionSetError, compare_runs_data
    from factprobe.eval.analysis.loaded_runs import load_runs, narrowed

    if args.html is not None and args.html.is_dir():
        print(f"factprobe: --html {args.html} is a folder; give the HTML file's path", file=sys.stderr)
        return 2
    given = {key: value for key, value in explicit_options(args).items() if key in ("where", "group_by")}
    options = checked_options(given)   # report's --where and --group-by, checked alike
    where, group_by = options.get("where"), options.get("group_by") or []
    runs = narrowed(load_runs(args.dirs), where, group_by)
    try:
        data = compare_runs_data(runs, args.baseline, args.shared_only, group_by=group_by, where=where)
    except QuestionSetError as exc:
        print(f"factprobe: {exc}", file=sys.stderr)
        return 2
    for warning in data["warnings"]:
        print(f"factprobe: WARNING: {warning}", file=sys.stderr)
    if args.json:
        print_json(data)
    else:
        from factprobe.eval.report.compare import print_comparison

        print_comparison(runs, data, console)
    if args.html:
        from factprobe.eval.report.build import table_functions
        from factprobe.eval.report.compare_figures import compare_figures, figure_folder
        from factprobe.eval.report.html.compare import write_compare_html
        from factprobe.eval.report.html.figures import inline_figures
        from factprobe.eval.self_awareness.plot import self_awareness_figures

        try:
            drawn = compare_figures(runs, data, args.html) + self_awareness_figures(runs, figure_folder(args.html))
            figures = inline_figures(drawn)
            path = write_compare_html(runs, data, args.html, table_functions(), figures)
        except OSError as exc:
            print(f"factprobe: --html {args.html} cannot be written ({exc.strerror or exc})", file=sys.stderr)
            return 2
        print(f"report: {path}", file=sys.stderr if args.json else sys.stdout)
    return 0


def add_compare_command(sub: argparse._SubParsersAction) -> None:
    compare = sub.add_parser("compare", help="several runs side by side, each paired with the baseline run "
                             "(ΔF, Δaccuracy with clustered CIs and p, per category)")
    compare.add_argument("dirs", type=Path, nargs="+", metavar="RUN", help="run directories")
    compare.add_argument("--baseline", type=Path, metavar="RUN",
                         help="the run the others are paired with (one of the RUNs; default: the first)")
    compare.add_argument("--shared-only", action="store_true",
                         help="when the runs answered different questions, pair over the shared ones (with "
                         "a warning) instead of stopping with exit status 2")
    add_run_options(compare, ["group_by", "where"])   # as `report`: the same flags, help and parsing
    compare.add_argument("--json", action="store_true", help="print the comparison as one JSON object")
    compare.add_argument("--html", type=Path, metavar="FILE", help="also write the comparison as one HTML file")
    compare.set_defaults(handler=cmd_compare)

