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

from factprobe.agents.models.base import ModelSpecError
from factprobe.agents.models.registry import load_model
from factprobe.agents.registry import StrategyOptionError, UnknownStrategyError, get_strategy, strategies
from factprobe.calibration.methods import UnknownConfidenceError, check_confidence_config
from factprobe.eval.config import RunConfig
from factprobe.eval.datasets.errors import DatasetError
from factprobe.eval.datasets.registry import Dataset, describe_loaders, load_dataset
from factprobe.eval.datasets.subset import stratified_subset
from factprobe.eval.describe import describe_dataset
from factprobe.eval.grading.base import Grader, HedgingPolicy
from factprobe.eval.grading.judge import JudgeGrader
from factprobe.eval.grading.rules import RuleGrader
from factprobe.eval.manifest import build_manifest, dataset_fingerprint
from factprobe.eval.post_steps import active_post_steps
from factprobe.eval.report import write_report
from factprobe.eval.run_dir import RunDir, RunDirError
from factprobe.eval.runner import Runner
from factprobe.eval.schema import Question

USER_ERRORS = (DatasetError, ModelSpecError, RunDirError, UnknownStrategyError, StrategyOptionError,
               UnknownConfidenceError)
DEFAULT_SAMPLE_LIMIT = 12


class ConfigError(ValueError):
    """Options that contradict each other or the run being resumed."""


def comma_list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


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
    add("--limit", type=int, default=S,
        help=f"a stratified subset of N questions (0 = all; sample default {DEFAULT_SAMPLE_LIMIT})")
    add("--seed", type=int, default=S)
    add("--concurrency", type=int, default=S)
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
    parser.add_argument("--resume", action="store_true", help="continue the run in --out")


def resolve_config(args: argparse.Namespace) -> RunConfig:
    explicit = {key: value for key, value in vars(args).items() if key in RunConfig.model_fields}
    if not args.resume:
        config = RunConfig(**explicit)
        if not config.strategies:
            config.strategies = list(strategies())
        if config.out is None:
            config.out = Path("runs") / datetime.now().strftime("%Y%m%d-%H%M%S")
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
    if config.judge:
        return JudgeGrader(load_model(config.judge, use_cache=config.use_cache), config.hedging)
    return RuleGrader(config.hedging)


def cmd_run(args: argparse.Namespace, console: Console) -> int:
    config = resolve_config(args)
    for name in config.strategies:
        get_strategy(name)
    check_confidence_config(config)
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
    else:
        if run_dir.results_path.exists():
            raise RunDirError(f"{run_dir.path} already holds a run: continue it with "
                              f"`factprobe run --resume --out {run_dir.path}` or choose another --out")
        questions = select_questions(dataset, config)
        done = set()
    model = load_model(config.model, use_cache=config.use_cache)
    grader = make_grader(config)
    runner = Runner(config, dataset, model, grader, run_dir, active_post_steps(config), console)
    if not args.resume:
        run_dir.write_manifest(build_manifest(config, dataset, [q.id for q in questions], model, grader))
    total = len(questions) * len(config.strategies) * config.repeats
    console.print(f"[bold]factprobe[/bold] {len(questions)} questions × {len(config.strategies)} "
                  f"strategies × {config.repeats} repeats on {model.name}; {total - len(done)} to run")
    ran = asyncio.run(runner.run(questions, done))
    console.print(f"answered {ran} (skipped {total - ran} already done)")
    write_report(run_dir, console)
    console.print(f"run directory: [bold]{run_dir.path}[/bold]")
    return 0


def cmd_report(args: argparse.Namespace, console: Console) -> int:
    run_dir = RunDir(args.dir)
    run_dir.read_manifest()
    write_report(run_dir, console)
    console.print(f"summary: {run_dir.summary_path}")
    return 0


def cmd_compare(args: argparse.Namespace, console: Console) -> int:
    from factprobe.eval.compare_runs import compare_runs

    compare_runs([RunDir(path) for path in args.dirs], console)
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
    compare.set_defaults(handler=cmd_compare)
    datasets = sub.add_parser("datasets", help="built-in datasets and loaders")
    datasets.add_argument("action", nargs="?", choices=["describe"])
    datasets.add_argument("name", nargs="?")
    datasets.add_argument("--json", action="store_true")
    datasets.set_defaults(handler=cmd_datasets)
    strategies_parser = sub.add_parser("strategies", help="registered strategies")
    strategies_parser.set_defaults(handler=cmd_strategies)
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
