"""`factprobe audit-grader`: grade labelled cases and print how well the grader agrees with them."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from factprobe.eval.cli.output import print_json
from factprobe.eval.config.options import OptionError, add_run_options, checked_options
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.core.format import pct
from factprobe.eval.core.schema import Grade
from factprobe.eval.grading.audit import (
    GRADE_COLUMNS,
    AuditRow,
    CasesError,
    LoadedCase,
    audit_summary,
    builtin_cases_path,
    grade_cases,
    load_cases,
    resolved_grades,
)
from factprobe.eval.grading.base import Grader
from factprobe.eval.grading.cascade import (
    GRADER_CHOICES,
    CascadeGrader,
    GraderConfigError,
    build_grader,
    check_grader_options,
)
from factprobe.eval.grading.judge import JudgeGrader
from factprobe.eval.grading.judge_loader import load_judge
from factprobe.eval.grading.judge_prompts import DEFAULT_JUDGE_PROMPT
from factprobe.eval.grading.service import GradingService
from factprobe.eval.multiple_choice.audit import CHOICE_GRADERS, ChoiceAuditGrader
from factprobe.eval.report.tables.literal import LiteralTable
from factprobe.eval.store.atomic import atomic_write_text

BUILTIN = "builtin"
JUDGE_OPTIONS = ("judge", "hedging", "judge_prompt", "judge_prompt_file", "judge_labels", "use_cache")
PROGRESS_MIN_CASES = 20  # a judge grading fewer cases finishes before a bar is worth drawing


def add_audit_grader_command(sub: Any) -> None:
    """Register `audit-grader` on the CLI's subparsers."""
    audit = sub.add_parser("audit-grader", help="agreement of a grader with labelled grading cases")
    audit.add_argument("cases_path", nargs="?", metavar="CASES.jsonl",
                       help=f"labelled cases (default: `{BUILTIN}`, the set shipped with factprobe)")
    audit.add_argument("--cases", dest="cases_option", metavar="CASES",
                       help=f"same as the positional CASES; `{BUILTIN}` for the shipped set")
    audit.add_argument("--grader", choices=[*GRADER_CHOICES, *CHOICE_GRADERS],
                       help="rules | judge | cascade (default: judge with --judge, else rules); for cases "
                            "with `options`: choice-judge (the judge's True/False verdict, --choice-grading "
                            "judge) | choice-letter (the answer mapped to a letter, --choice-grading letter)")
    add_run_options(audit, list(JUDGE_OPTIONS))   # the run's own definitions of the judge's options
    audit.set_defaults(**{name: RunConfig.model_fields[name].get_default(call_default_factory=True)
                          for name in JUDGE_OPTIONS})
    audit.add_argument("--json", action="store_true", help="print the audit as one JSON object")
    audit.add_argument("--per-case", dest="per_case", metavar="FILE", type=Path,
                       help="write one JSONL row per case: its fields plus grade, grader and grade_note")
    audit.set_defaults(handler=cmd_audit_grader)


def cases_path(args: argparse.Namespace) -> Path:
    """The file to audit: CASES, --cases, or the shipped set."""
    given = [value for value in (args.cases_path, args.cases_option) if value]
    if len(set(given)) > 1:
        raise CasesError(f"give the cases file once: either CASES ({given[0]}) or --cases ({given[1]})")
    name = given[0] if given else BUILTIN
    if name != BUILTIN:
        return Path(name)
    path = builtin_cases_path()
    if not path.is_file():
        raise CasesError(f"the shipped grading cases are missing ({path}); give a CASES.jsonl file instead")
    return path


def choice_audit_grader(args: argparse.Namespace, cases: list[LoadedCase], path: Path | None) -> Grader:
    """`--grader choice-judge|choice-letter`: every case needs `options`, and the free-text judge's
    options do not apply."""
    given = [flag for flag, value in (("--judge-prompt-file", args.judge_prompt_file),
                                      ("--judge-labels", getattr(args, "judge_labels", None)),
                                      ("--judge-prompt", args.judge_prompt != DEFAULT_JUDGE_PROMPT)) if value]
    if given:
        raise GraderConfigError(f"{given[0]} sets the free-text judge's prompt; --grader {args.grader} asks the "
                                f"multiple-choice judge its own question (leave {given[0]} out)")
    if args.grader == "choice-judge" and args.judge is None:
        raise GraderConfigError("--grader choice-judge needs the judge model: add --judge MODEL")
    bare = next((loaded for loaded in cases if loaded.case.options is None), None)
    if bare is not None:
        raise CasesError(f"{path}, line {bare.line}, field `options`: missing; "
                         f"--grader {args.grader} audits multiple-choice cases, each with its `options` (the "
                         f"option texts in the order shown) and `gold` (the gold option's text or letter)")
    judge = load_judge(args.judge, use_cache=args.use_cache) if args.judge else None
    return ChoiceAuditGrader(args.grader, judge)


def make_audit_grader(args: argparse.Namespace, cases: list[LoadedCase] | None = None,
                      path: Path | None = None) -> Grader:
    """The grader the options name; options are checked before any judge model is loaded, and a
    judge is reached before any case is graded (ModelSpecError, exit 2, when it cannot be)."""
    if args.grader in CHOICE_GRADERS:
        return choice_audit_grader(args, cases or [], path)
    labels = getattr(args, "judge_labels", [])
    check_grader_options(args.grader, args.judge is not None, args.hedging, args.judge_prompt,
                         args.judge_prompt_file, labels)
    judge = load_judge(args.judge, use_cache=args.use_cache) if args.judge else None
    return build_grader(args.grader, judge, args.hedging, args.judge_prompt, args.judge_prompt_file, labels)


def cmd_audit_grader(args: argparse.Namespace, console: Console) -> int:
    """Grade the cases and print the audit; exit 2 on bad input or clashing options."""
    try:
        checked_options({name: getattr(args, name) for name in JUDGE_OPTIONS if name != "judge_labels"})
        path = cases_path(args)
        cases = load_cases(path)
        grader = make_audit_grader(args, cases, path)
    except (CasesError, GraderConfigError, OptionError) as exc:
        print(f"factprobe: {exc}", file=sys.stderr)
        return 2
    if isinstance(grader, (JudgeGrader, CascadeGrader, ChoiceAuditGrader)) and len(cases) >= PROGRESS_MIN_CASES:
        # The bar goes to stderr so that `--json` output stays one clean object on stdout.
        columns = (TextColumn("[bold]grading"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
            task = progress.add_task("grading", total=len(cases))
            rows = asyncio.run(grade_cases(cases, grader, lambda: progress.advance(task)))
    else:
        rows = asyncio.run(grade_cases(cases, grader))
    summary = {**audit_summary(rows, GradingService(grader).judge_calls), **f_delta_interval(rows), "cases": str(path),
               "grader": grader.describe()}
    status = 0
    if args.per_case is not None:
        try:
            atomic_write_text(args.per_case, "".join(json.dumps(row.per_case(), ensure_ascii=False) + "\n"
                                                for row in rows))
        except OSError as exc:
            print(f"factprobe: --per-case {args.per_case}: cannot write the per-case rows ({exc}); "
                  f"the audit follows on stdout", file=sys.stderr)
            status = 2
    if args.json:
        print_json(summary)
    else:
        print_audit(summary, console)
    if rows and summary["undecided"] == len(rows):   # not an agreement of 0%: no grade was given at all
        print(f"factprobe: {grader.name} decided none of the {len(rows)} cases (all UNGRADED; "
              f"first reason: {rows[0].note})", file=sys.stderr)
        return status or 1
    return status


_CODES = {Grade.CORRECT: 1, Grade.INCORRECT: 0, Grade.NOT_ATTEMPTED: -1}


def f_delta_interval(rows: list[AuditRow], level: float = 0.95) -> dict[str, Any]:
    """95% cluster-bootstrap interval of `f_delta` (F from grades, UNGRADED resolved by the label, minus
    F from labels), resampling questions: the answers to one question are one cluster.

    Computed here because the statistic lives in the analysis layer, above grading.
    """
    import numpy as np  # the audit's numbers only: `factprobe run` starts without numpy

    from factprobe.eval.analysis.stats import cluster_bootstrap_ci, cluster_counts, f_delta

    graded = np.array([_CODES[grade] for grade in resolved_grades(rows)])
    labels = np.array([_CODES[row.label] for row in rows])
    counts = cluster_counts([row.question or str(row.line) for row in rows], graded, labels)
    low, high = cluster_bootstrap_ci(counts, f_delta, level=level)
    return {"f_delta_ci_low": float(low), "f_delta_ci_high": float(high), "f_delta_ci_level": level}


def _points(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:+.1f}" if value < 0 else f"{100 * value:.1f}"


def print_audit(summary: dict[str, Any], console: Console) -> None:
    """Headline figures, the confusion matrix (labels × grades) and agreement per case type."""
    kappa = "–" if summary["kappa"] is None else f"{summary['kappa']:.3f}"
    console.print(f"[bold]grader audit[/bold] {escape(str(summary['cases']))}: {summary['n']} cases graded by "
                  f"{escape(str(summary['grader']['grader']))}")
    console.print(f"agreement {pct(summary['agreement'])}%  Cohen's kappa {kappa}  "
                  f"over-credit {pct(summary['over_credit'])}% ({summary['over_credit_n']} graded CORRECT "
                  f"against a not-CORRECT label)  under-credit {pct(summary['under_credit'])}%  "
                  f"undecided {summary['undecided']}  judge calls {summary['judge_calls']}")
    console.print(f"agreement among decided {pct(summary['decided_agreement'])}%  F from labels "
                  f"{_points(summary['f_labels'])}, from grades (UNGRADED resolved by the label) "
                  f"{_points(summary['f_grades'])}: Δ {_points(summary['f_delta'])} "
                  f"({_points(summary['f_delta_ci_low'])} to {_points(summary['f_delta_ci_high'])}); "
                  f"F over the decided cases alone {_points(summary['f_decided'])}")
    confusion = LiteralTable(title="label (rows) × grade (columns)")
    confusion.add_column("label")
    for grade in GRADE_COLUMNS:
        confusion.add_column(grade.value, justify="right")
    for label, counts in summary["confusion"].items():
        confusion.add_row(label, *(str(counts[grade.value]) for grade in GRADE_COLUMNS))
    console.print(confusion)
    per_type = LiteralTable(title="agreement per case type")
    per_type.add_column("case type")
    per_type.add_column("n", justify="right")
    per_type.add_column("agreement %", justify="right")
    for name, stats in summary["per_type"].items():
        per_type.add_row(name, str(stats["n"]), pct(stats["agreement"]))
    console.print(per_type)
