"""The `factprobe` command (contract: run, report, compare, datasets, strategies)."""

from __future__ import annotations

import argparse
import sys
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from factprobe.eval.cli.output import stdout_gone
from factprobe.eval.config.options import add_run_options, checked_options, explicit_options, path_arg
from factprobe.eval.core.format import output_console
from factprobe.eval.core.secrets import print_redacted_traceback, redacted_output, remember_in_args
from factprobe.eval.core.speedups import defer_inits, end_of_process, pause_collection, resume_collection
from factprobe.eval.core.suggest import did_you_mean

if TYPE_CHECKING:
    from rich.console import Console

# Each command's module is imported only when that command runs (or for `factprobe --help`), so
# `factprobe run` loads none of what `audit-grader`, `describe` or `taxonomy` need before its first
# request: name -> (module, function that adds the command to the subparsers), in help order.
COMMANDS: dict[str, tuple[str, str]] = {
    "run": (__name__, "add_run_command"),
    "report": (__name__, "add_report_command"),
    "compare": ("factprobe.eval.cli.compare", "add_compare_command"),
    "difficulty": ("factprobe.eval.cli.difficulty", "add_difficulty_command"),
    "view": (__name__, "add_view_command"),
    "datasets": (__name__, "add_datasets_command"),
    "strategies": (__name__, "add_strategies_command"),
    "sweep": (__name__, "add_sweep_command"),
    "audit-grader": ("factprobe.eval.cli.audit", "add_audit_grader_command"),
    "taxonomy": ("factprobe.eval.taxonomy.command", "add_taxonomy_command"),
    "merge": ("factprobe.eval.cli.merge", "add_merge_command"),
}


def user_errors() -> tuple[type[Exception], ...]:
    """The errors that are the user's input (exit status 2, one paragraph, no traceback); imported
    only when a command fails, so the run's start-up does not load the modules that define them."""
    from factprobe.agents.models.base import ModelSpecError
    from factprobe.agents.plugins import PluginError
    from factprobe.agents.registry import DuplicateStrategyError, UnknownStrategyError
    from factprobe.agents.strategies.recorded import AnswersFileError
    from factprobe.eval.config.baseline import BaselineError
    from factprobe.eval.config.options import OptionError
    from factprobe.eval.core.errors import DatasetError, StrategyOptionError
    from factprobe.eval.core.extensions import DuplicateExtensionError, ExtensionLoadError
    from factprobe.eval.grading.cascade import GraderConfigError
    from factprobe.eval.run.confidence import UnknownConfidenceError
    from factprobe.eval.run.configs import ConfigError
    from factprobe.eval.run.sweep import SweepError
    from factprobe.eval.store.disk_space import DiskFull
    from factprobe.eval.store.run_dir import RunDirError

    return (DatasetError, ModelSpecError, RunDirError, UnknownStrategyError, StrategyOptionError,
            UnknownConfidenceError, BaselineError, GraderConfigError, OptionError, PluginError,
            DuplicateStrategyError, SweepError, ConfigError, DuplicateExtensionError,
            ExtensionLoadError, AnswersFileError, DiskFull)


def disk_full_line(exc: BaseException, args: argparse.Namespace) -> str | None:
    """One line for a full disk met where no writer said more (DiskFull): the file or folder, and
    how to go on; None for any other error."""
    from factprobe.eval.store.disk_space import free_bytes, is_disk_full, size_text

    if not is_disk_full(exc):
        return None
    where = getattr(exc, "filename", None) or getattr(args, "out", None) or getattr(args, "dir", None) or "."
    free = free_bytes(Path(where))
    there = "" if free is None else f" ({size_text(free)} free there)"
    return (f"{where}: no space left on the device{there}; free some space on that file system and run "
            f"the command again (a run continues with --resume)")


def cmd_run(args: argparse.Namespace, console: Console) -> int:
    from factprobe.eval.run.configs import start_config
    from factprobe.eval.run.launch import launch_run

    config = start_config(explicit_options(args), args.resume)
    return launch_run(config, resume=args.resume, console=console).status


def cmd_report(args: argparse.Namespace, console: Console) -> int:
    from factprobe.agents.plugins import PluginError, load_plugin
    from factprobe.eval.report.build import write_report
    from factprobe.eval.store.run_dir import RunDir

    run_dir = RunDir(args.dir)
    manifest = run_dir.read_manifest()
    for plugin in manifest.get("config", {}).get("plugins", []):
        try:  # its strategies' specs (does it sample, …) and its own sections, tables and plots
            load_plugin(plugin)
        except PluginError as exc:
            console.print(f"[yellow]warning:[/yellow] {exc}; its strategies are reported without their spec "
                          f"and its own sections, tables and plots are left out")
    overrides = checked_options(explicit_options(args))
    summary = write_report(run_dir, console, overrides)
    console.print(f"summary: {run_dir.summary_path}", markup=False)
    problem = (summary.get("groups") or {}).get("error")
    if problem and explicit_options(args):
        print(f"factprobe: {problem}", file=sys.stderr)
        return 2
    return 0


def cmd_view(args: argparse.Namespace, console: Console) -> int:
    from factprobe.eval.report.html.view import open_report

    path, opened = open_report(args.dir)
    print(path if opened else f"no browser to open it here; the report is {path}")
    return 0


def cmd_datasets(args: argparse.Namespace, console: Console) -> int:
    from factprobe.agents.plugins import load_plugin
    from factprobe.eval.cli.describe import cmd_describe
    from factprobe.eval.datasets.registry import describe_loaders

    for plugin in args.plugin or []:
        load_plugin(plugin)
    if args.action == "describe":
        if not args.name:
            from factprobe.eval.run.configs import ConfigError

            raise ConfigError("usage: factprobe datasets describe D [--json] [--media DIR] [--plot DIR]")
        return cmd_describe(args, console)
    for name, text in describe_loaders().items():
        console.print(f"{name:10} {text}", soft_wrap=True)
    console.print("\nusage: --dataset sample, or --dataset LOADER:PATH with the file the loader reads "
                  "(e.g. simpleqa:simple_qa_test_set.csv); docs/data.md says where to get each file", soft_wrap=True)
    return 0


def cmd_strategies(args: argparse.Namespace, console: Console) -> int:
    from factprobe.agents.plugins import load_plugin
    from factprobe.agents.registry import strategies

    for plugin in args.plugin or []:
        load_plugin(plugin)
    width = max([14, *(len(name) for name in strategies())])
    for spec in strategies().values():
        named_only = "" if spec.in_default_run else " (run only when named)"
        console.print(f"{spec.name:{width}} {spec.description}{named_only}")
    console.print(f"{'NAME+rag':{width}} any strategy above with retrieval first (e.g. best_of_n+rag; "
                  "--retriever, --top-k)")
    return 0


def cmd_sweep(args: argparse.Namespace, console: Console) -> int:
    from factprobe.eval.run.sweep import SweepStopped, sweep

    given = explicit_options(args)
    runner = checked_options({key: given[key] for key in ("executor", "ray_address") if key in given})
    try:
        rows = sweep(args.grid, out=args.out, console=console, verbose=getattr(args, "verbose", False), **runner)
    except SweepStopped as exc:
        print(f"factprobe: {exc}", file=sys.stderr)
        return exc.status
    failed = sorted({row["cell"] for row in rows if row.get("exit_status")})
    if failed:
        print(f"factprobe: {len(failed)} sweep cell(s) finished with a non-zero status: "
              f"{', '.join(failed)}", file=sys.stderr)
        return max(row["exit_status"] for row in rows)
    return 0


def add_run_command(sub: Any) -> None:
    run = sub.add_parser("run", help="run strategies over a dataset, grade and report",
                         usage="factprobe run [OPTIONS]   (e.g. factprobe run --dataset sample --strategies "
                               "vanilla,rag --limit 12)",
                         description="Answer a dataset's questions with each strategy, grade the answers and "
                                     "write the run directory (results, summary, figures, report.html). "
                                     "Options by section below; every one has a default.")
    add_run_options(run)
    run.set_defaults(handler=cmd_run)


def add_report_command(sub: Any) -> None:
    report = sub.add_parser("report", help="recompute summary, tables and plots from DIR (no model calls)")
    report.add_argument("dir", type=Path)
    add_run_options(report, ["group_by", "where"])
    report.set_defaults(handler=cmd_report)


def add_view_command(sub: Any) -> None:
    view = sub.add_parser("view", help="open DIR/report.html in the default browser")
    view.add_argument("dir", type=Path)
    view.set_defaults(handler=cmd_view)


def add_datasets_command(sub: Any) -> None:
    from factprobe.eval.cli.describe import add_describe_options

    datasets = sub.add_parser("datasets", help="built-in datasets and loaders")
    datasets.add_argument("action", nargs="?", choices=["describe"])
    datasets.add_argument("name", nargs="?")
    datasets.add_argument("--json", action="store_true")
    datasets.add_argument("--plugin", action="append", metavar="MODULE_OR_FILE",
                          help="also list (or describe with) the loaders this module or .py file registers")
    add_describe_options(datasets)
    datasets.set_defaults(handler=cmd_datasets)


def add_strategies_command(sub: Any) -> None:
    strategies_parser = sub.add_parser("strategies", help="registered strategies")
    strategies_parser.add_argument("--plugin", action="append", metavar="MODULE_OR_FILE",
                                   help="also list the strategies this module or .py file registers")
    strategies_parser.set_defaults(handler=cmd_strategies)


def add_sweep_command(sub: Any) -> None:
    sweep = sub.add_parser("sweep", help="a grid of runs (TOML) and one combined table",
                           description="Run every cell of the grid, each into its own run directory "
                           "(resumed when it exists), and combine them. With --executor ray each cell "
                           "is one Ray task, on --ray-address or a local Ray cluster.")
    sweep.add_argument("grid", type=Path, help="TOML file with a [sweep] table of run options")
    sweep.add_argument("--out", type=path_arg, help="folder of the cells' run directories and sweep.csv")
    add_run_options(sweep, ["verbose", "executor", "ray_address"])
    sweep.set_defaults(handler=cmd_sweep)


class OneLineParser(argparse.ArgumentParser):
    """A parser whose usage errors (a value not among the choices, a missing argument) are one line
    naming the command and where its help is, like every other error, not the whole usage."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see `{self.prog} --help`)\n")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser: every command, or only `command` (what running it needs)."""
    parser = OneLineParser(prog="factprobe", description="How language models answer "
                           "fact-seeking questions: strategies, costs and calibration.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    for name, (module, function) in COMMANDS.items():
        if command is None or name == command:
            getattr(import_module(module), function)(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """The `factprobe` command. Called without `argv` it owns the process (the installed command,
    `python -m`): it pauses the garbage collector while it starts and defers the package `__init__`s
    LangGraph imports but does not use (factprobe.eval.core.speedups), prints an uncaught
    exception's traceback redacted and, when the command is done, spares the interpreter's exit a
    last collection over every object."""
    if argv is None:
        pause_collection()
        defer_inits()
        sys.excepthook = print_redacted_traceback   # a crash's traceback is printed after the block below
    try:
        remember_in_args(sys.argv[1:] if argv is None else argv)
        with redacted_output():
            return _main(argv)
    finally:
        resume_collection()
        if argv is None:
            end_of_process()


def unknown_arguments(parser: argparse.ArgumentParser, command: str, unknown: list[str]) -> int:
    """Exit status 2 for arguments the command does not take, with the closest flag it does take."""
    commands = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
    known = list(commands.choices[command]._option_string_actions)
    hints = [did_you_mean(token.split("=")[0], known) for token in unknown if token.startswith("--")]
    print(f"factprobe {command}: unrecognized arguments: {' '.join(unknown)}{''.join(hints)} "
          f"(see `factprobe {command} --help`)", file=sys.stderr)
    return 2


def _main(argv: list[str] | None) -> int:
    given = sys.argv[1:] if argv is None else argv
    parser = build_parser(given[0] if given and given[0] in COMMANDS else None)
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        return unknown_arguments(parser, args.command, unknown)
    if args.command != "run":   # only a run ends its start-up itself, before its first question
        resume_collection()
    # Tables are wide; when output goes to a file or CI log, don't squeeze them to 80 columns.
    console = output_console()
    try:
        return args.handler(args, console)
    except BrokenPipeError:  # the reader of stdout has gone (`factprobe … | head`): nothing left to say
        stdout_gone()
        return 0
    except KeyboardInterrupt:
        out = getattr(args, "out", None)
        hint = f" Continue with: factprobe run --resume --out {out}" if out else ""
        print(f"factprobe: interrupted; finished rows are saved.{hint}", file=sys.stderr)
        return 130
    except Exception as exc:
        full = disk_full_line(exc, args)
        if full is None and not isinstance(exc, user_errors()):
            raise
        print(f"factprobe: {full or exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
