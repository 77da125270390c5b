"""The `factprobe` command (contract: run, report, compare, datasets, strategies)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from datetime import datetime
from pathlib import Path

from rich.console import Console
from rich.table import Table

from factprobe.agents.models.base import ModelSpecError, warm_up
from factprobe.agents.models.registry import load_model
from factprobe.agents.prompts import answer_messages
from factprobe.agents.registry import StrategyOptionError, UnknownStrategyError, get_strategy, strategies
from factprobe.calibration.methods import UnknownConfidenceError, check_confidence_config
from factprobe.eval.audit_command import add_audit_grader_command
from factprobe.eval.config import RunConfig
from factprobe.eval.datasets.errors import DatasetError
from factprobe.eval.datasets.registry import Dataset, describe_loaders, load_dataset
from factprobe.eval.datasets.subset import stratified_subset
from factprobe.eval.describe import describe_dataset
from factprobe.eval.grading.base import Grader, HedgingPolicy
from factprobe.eval.grading.cascade import (GRADER_CHOICES, GraderConfigError, build_grader,
                                            check_grader_options)
from factprobe.eval.grading.judge_prompts import JUDGE_POLICIES
from factprobe.eval.failures import EXIT_TOO_MANY_ERRORS, error_report, failure_message, warnings
from factprobe.eval.manifest import BaselineError, build_manifest, dataset_fingerprint, resolve_baseline
from factprobe.eval.post_steps import active_post_steps
from factprobe.eval.report import write_report
from factprobe.eval.run_dir import RunDir, RunDirError
from factprobe.eval.runner import Runner
from factprobe.eval.schema import Question

USER_ERRORS = (DatasetError, ModelSpecError, RunDirError, UnknownStrategyError, StrategyOptionError,
               UnknownConfidenceError, BaselineError, GraderConfigError)
DEFAULT_SAMPLE_LIMIT = 12


class ConfigError(ValueError):
    """Options that contradict each other or the run being resumed."""


def comma_list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def fraction(text: str) -> float:
    """An argparse type: a number from 0 to 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{text} is not between 0 and 1")
    return value


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """Run options default to SUPPRESS, so --resume can tell what the user actually typed."""
    S = argparse.SUPPRESS
    add = parser.add_argument
    add("--dataset", default=S, help="`sample` (default) or LOADER:PATH; see `factprobe datasets`")
    add("--strategies", type=comma_list, default=S, help="comma-separated; default: every strategy")
    add("--model", default=S, help="local | local:PATH.gguf | openai:MODEL[@BASE_URL] | anthropic:MODEL")
    add("--judge", default=S, help="grade with this model instead of the rule grader")
    add("--hedging", type=HedgingPolicy, choices=list(HedgingPolicy), default=S,
        help="hedged answers containing the gold: accept (SimpleQA) or penalize (Video SimpleQA)")
    add("--grader", choices=GRADER_CHOICES, default=S, help="rules | judge | cascade (rules, then the judge "
        "where they are undecided); default: judge with --judge, else rules")
    add("--judge-prompt", dest="judge_prompt", choices=list(JUDGE_POLICIES), default=S,
        help="the judge's grading policy: simpleqa (default) | videosimpleqa | worldvqa")
    add("--limit", type=int, default=S,
        help=f"a stratified subset of N questions (0 = all; sample default {DEFAULT_SAMPLE_LIMIT})")
    add("--seed", type=int, default=S)
    add("--concurrency", type=int, default=S)
    add("--threads", type=int, default=S,
        help="CPU threads of the local backend (default: half the available cores, at least 1)")
    add("--out", type=Path, default=S, help="run directory (default runs/<timestamp>)")
    add("--repeats", type=int, default=S, help="ask every question R times")
    add("--temperature", type=float, default=S)
    add("--max-tokens", dest="max_tokens", type=int, default=S)
    add("--no-cache", dest="use_cache", action="store_false", default=S,
        help="do not read or write the response cache")
    add("--samples", type=int, default=S, help="best_of_n: N samples")
    add("--sample-temperature", dest="sample_temperature", type=float, default=S)
    add("--selector", default=S, help="best_of_n: model | majority | confidence")
    add("--rounds", type=int, default=S, help="self_refine: refinement rounds")
    add("--retriever", default=S,
        help="rag: bm25 (default) | dense | hybrid, each also NAME:PATH (JSONL or folder) | wikipedia | web")
    add("--top-k", dest="top_k", type=int, default=S, help="rag: passages given to the model (default 3)")
    add("--decomposer", default=S, help="decompose: model | gold")
    add("--confidence", type=comma_list, default=S, help="confidence methods, comma-separated")
    add("--consistency-samples", dest="consistency_samples", type=int, default=S)
    add("--no-hop-probes", dest="hop_probes", action="store_false", default=S,
        help="do not ask gold sub-questions of multi-hop questions")
    add("--baseline", default=S, help="strategy gains are measured against (default: vanilla when it "
        "runs, else the first strategy given); fixed in the manifest")
    add("--max-error-rate", dest="max_error_rate", type=fraction, default=S,
        help="exit with status 3 when more than this share of rows are ERROR (default 0.05)")
    parser.add_argument("--resume", action="store_true", help="continue the run in --out")


def resolve_config(args: argparse.Namespace) -> RunConfig:
    explicit = {key: value for key, value in vars(args).items() if key in RunConfig.model_fields}
    if not args.resume:
        config = RunConfig(**explicit)
        if not config.strategies:
            config.strategies = list(strategies())
        if config.out is None:
            config.out = Path("runs") / datetime.now().strftime("%Y%m%d-%H%M%S")
        config.baseline = resolve_baseline(config.baseline, config.strategies)
        return config
    if "out" not in explicit:
        raise ConfigError("--resume needs --out DIR: the run directory to continue")
    manifest = RunDir(explicit["out"]).read_manifest()
    recorded = RunConfig(**manifest["config"])
    wanted = RunConfig(**{**manifest["config"], **explicit})
    changed = [key for key, value in wanted.identity().items() if recorded.identity()[key] != value]
    if changed:
        raise ConfigError(f"--resume continues the run in {explicit['out']} as it was started; "
                          f"these options differ from its manifest: {', '.join(changed)}. "
                          f"Start a new run with another --out instead.")
    return wanted


def select_questions(dataset: Dataset, config: RunConfig) -> list[Question]:
    limit = config.limit
    if limit is None:
        limit = DEFAULT_SAMPLE_LIMIT if dataset.name == "sample" else 0
        config.limit = limit
    return stratified_subset(dataset.questions, limit, config.seed) if limit else dataset.questions


def make_grader(config: RunConfig) -> Grader:
    """The grader --grader, --judge, --hedging and --judge-prompt ask for; GraderConfigError if they clash."""
    check_grader_options(config.grader, config.judge is not None, config.hedging, config.judge_prompt)
    judge = load_model(config.judge, use_cache=config.use_cache, threads=config.threads) if config.judge else None
    return build_grader(config.grader, judge, config.hedging, config.judge_prompt)


def cmd_run(args: argparse.Namespace, console: Console) -> int:
    config = resolve_config(args)
    for name in config.strategies:
        get_strategy(name)
    check_confidence_config(config)
    check_grader_options(config.grader, config.judge is not None, config.hedging, config.judge_prompt)
    dataset = load_dataset(config.dataset)
    run_dir = RunDir(config.out)
    if args.resume:
        manifest = run_dir.read_manifest()
        if manifest["dataset"]["fingerprint"] != dataset_fingerprint(dataset):
            raise ConfigError(f"the dataset {config.dataset} changed since the run in {run_dir.path} "
                              f"started (its content hash differs from the manifest's); resuming would "
                              f"mix answers to different questions. Start a new run instead.")
        wanted = set(manifest["question_ids"])
        questions = [q for q in dataset.questions if q.id in wanted]
        run_dir.drop_torn_tail()
        done = run_dir.done_keys()
        ungraded = run_dir.ungraded_rows()
    else:
        if run_dir.results_path.exists():
            raise RunDirError(f"{run_dir.path} already holds a run: continue it with "
                              f"`factprobe run --resume --out {run_dir.path}` or choose another --out")
        questions = select_questions(dataset, config)
        done, ungraded = set(), []
    model = load_model(config.model, use_cache=config.use_cache, threads=config.threads)
    # Load and warm the model before timing starts, priming the worked-example prefix the strategies share.
    warm_up(model, answer_messages(""))
    grader = make_grader(config)
    runner = Runner(config, dataset, model, grader, run_dir, active_post_steps(config), console)
    if not args.resume:
        run_dir.write_manifest(build_manifest(config, dataset, [q.id for q in questions], model, grader))
    total = len(questions) * len(config.strategies) * config.repeats
    console.print(f"[bold]factprobe[/bold] {len(questions)} questions × {len(config.strategies)} "
                  f"strategies × {config.repeats} repeats on {model.name}; "
                  f"{total - len(done) - len(ungraded)} to run")
    if ungraded:
        regraded = asyncio.run(runner.regrade_all(ungraded, questions))
        console.print(f"re-graded {regraded} UNGRADED rows from their stored answers")
    ran = asyncio.run(runner.run(questions, done | {row.key for row in ungraded}))
    console.print(f"answered {ran} (skipped {total - ran} already done)")
    write_report(run_dir, console)
    console.print(f"run directory: [bold]{run_dir.path}[/bold]")
    return check_failures(run_dir, config, console)


def check_failures(run_dir: RunDir, config: RunConfig, console: Console) -> int:
    """Exit status of a finished run: EXIT_TOO_MANY_ERRORS when ERROR rows exceed the limit."""
    report = error_report(run_dir.read_results())
    for line in warnings(report, config.max_error_rate):
        console.print(f"[yellow]warning:[/yellow] {line}")
    if report.exceeds(config.max_error_rate):
        print(f"factprobe: {failure_message(report, config.max_error_rate, str(run_dir.path))}",
              file=sys.stderr)
        return EXIT_TOO_MANY_ERRORS
    return 0


def cmd_report(args: argparse.Namespace, console: Console) -> int:
    run_dir = RunDir(args.dir)
    run_dir.read_manifest()
    write_report(run_dir, console)
    console.print(f"summary: {run_dir.summary_path}")
    return 0


def cmd_compare(args: argparse.Namespace, console: Console) -> int:
    from factprobe.eval.compare_runs import compare_runs

    run_dirs = [RunDir(path) for path in args.dirs]
    compare_runs(run_dirs, console)
    if args.html:
        from factprobe.eval.html.compare import write_compare_html
        from factprobe.eval.report import table_functions

        console.print(f"report: {write_compare_html(run_dirs, args.html, table_functions())}")
    return 0


def cmd_view(args: argparse.Namespace, console: Console) -> int:
    from factprobe.eval.html.view import open_report

    path, opened = open_report(args.dir)
    print(path if opened else f"no browser to open it here; the report is {path}")
    return 0


def cmd_datasets(args: argparse.Namespace, console: Console) -> int:
    if args.action == "describe":
        if not args.name:
            raise ConfigError("usage: factprobe datasets describe D [--json]")
        description = describe_dataset(load_dataset(args.name))
        if args.json:
            print(json.dumps(description, indent=2))
        else:
            table = Table(title=f"dataset {args.name}", show_header=False)
            for key, value in description.items():
                table.add_row(key, json.dumps(value, ensure_ascii=False) if isinstance(value, (dict, list))
                              else str(value))
            console.print(table)
        return 0
    for name, text in describe_loaders().items():
        console.print(f"{name:10} {text}", soft_wrap=True)
    return 0


def cmd_strategies(args: argparse.Namespace, console: Console) -> int:
    for spec in strategies().values():
        console.print(f"{spec.name:14} {spec.description}")
    console.print("NAME+rag       any strategy above with retrieval first (e.g. best_of_n+rag; "
                  "--retriever, --top-k)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="factprobe", description="How language models answer "
                                     "fact-seeking questions: strategies, costs and calibration.")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run strategies over a dataset, grade and report")
    add_run_options(run)
    run.set_defaults(handler=cmd_run)
    report = sub.add_parser("report", help="recompute summary, tables and plots from DIR (no model calls)")
    report.add_argument("dir", type=Path)
    report.set_defaults(handler=cmd_report)
    compare = sub.add_parser("compare", help="side-by-side table of several runs")
    compare.add_argument("dirs", type=Path, nargs="+")
    compare.add_argument("--html", type=Path, metavar="FILE", help="also write the comparison as one HTML file")
    compare.set_defaults(handler=cmd_compare)
    view = sub.add_parser("view", help="open DIR/report.html in the default browser")
    view.add_argument("dir", type=Path)
    view.set_defaults(handler=cmd_view)
    datasets = sub.add_parser("datasets", help="built-in datasets and loaders")
    datasets.add_argument("action", nargs="?", choices=["describe"])
    datasets.add_argument("name", nargs="?")
    datasets.add_argument("--json", action="store_true")
    datasets.set_defaults(handler=cmd_datasets)
    strategies_parser = sub.add_parser("strategies", help="registered strategies")
    strategies_parser.set_defaults(handler=cmd_strategies)
    add_audit_grader_command(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    # Tables are wide; when output goes to a file or CI log, don't squeeze them to 80 columns.
    console = Console() if sys.stdout.isatty() else Console(width=160)
    try:
        return args.handler(args, console)
    except (*USER_ERRORS, ConfigError) as exc:
        print(f"factprobe: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        out = getattr(args, "out", None)
        hint = f" Continue with: factprobe run --resume --out {out}" if out else ""
        print(f"factprobe: interrupted; finished rows are saved.{hint}", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
