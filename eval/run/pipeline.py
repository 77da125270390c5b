"""One run from a resolved RunConfig to a reported run directory: what `factprobe run`,
`factprobe.run(...)` and each sweep cell go through."""

from __future__ import annotations

import asyncio
import json
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from rich.console import Console
from rich.markup import escape

from factprobe.agents.models.base import ChatModel, warm_up
from factprobe.agents.models.registry import RequestLimits, load_model
from factprobe.agents.plugins import load_plugin
from factprobe.agents.prompts import answer_messages
from factprobe.agents.registry import default_strategies, describes, get_strategy
from factprobe.eval.config.baseline import resolve_baseline
from factprobe.eval.config.options import OptionError, validation_message
from factprobe.eval.config.run_config import RunConfig, parse_shard
from factprobe.eval.core.modality import expand_baseline, expand_variants
from factprobe.eval.core.schema import Question
from factprobe.eval.core.secrets import REDACTED, redact_values
from factprobe.eval.core.speedups import end_start_up
from factprobe.eval.datasets.id_files import exclude_notes, select_ids
from factprobe.eval.datasets.registry import Dataset, load_dataset
from factprobe.eval.datasets.subset import stratified_subset
from factprobe.eval.grading.base import Grader
from factprobe.eval.grading.cascade import build_grader, check_grader_options
from factprobe.eval.grading.judge_loader import load_judge, reach_model
from factprobe.eval.media.attach import (
    attaches_images,
    check_model_reads_audio,
    check_model_reads_images,
    judge_with_media,
    prepare_media,
)
from factprobe.eval.run.checks import (
    check_job_count,
    check_media_folders,
    check_retrieval_corpus,
    left_out_by_default,
    prompt_notes,
    repeat_notes,
)
from factprobe.eval.run.confidence import check_confidence_config
from factprobe.eval.run.entity_model import load_entity_model
from factprobe.eval.run.failures import (
    EXIT_TOO_MANY_ERRORS,
    error_report,
    failure_message,
    undecided_message,
    warnings,
)
from factprobe.eval.run.inputs import check_inputs
from factprobe.eval.run.manifest import build_manifest, dataset_fingerprint, served_model
from factprobe.eval.run.regrade import judge_changed, new_judge_options, regradable, with_new_judge
from factprobe.eval.run.runner import Runner
from factprobe.eval.run.shards import in_shard, shard_entry
from factprobe.eval.run.steps import active_post_steps
from factprobe.eval.store.run_dir import RunDir, RunDirError
from factprobe.eval.store.slim_rows import SlimRow

DEFAULT_SAMPLE_LIMIT = 12


class ConfigError(ValueError):
    """Options that contradict each other or the run being resumed."""


def _validated(options: dict[str, Any], source: str = "") -> RunConfig:
    try:
        return RunConfig(**options)
    except ValidationError as exc:
        raise OptionError(validation_message(exc, source)) from None


def new_config(explicit: dict[str, Any]) -> RunConfig:
    """The config of a new run: the options given, defaults for the rest, plugins loaded,
    strategies defaulted to those registered for a default run (`strategies_by_default`: those the
    dataset cannot run are left out once it is loaded, factprobe.eval.run.checks) and the baseline fixed."""
    config = _validated(explicit)
    for plugin in config.plugins:
        load_plugin(plugin)
    config.strategies_by_default = not config.strategies
    if not config.strategies:
        config.strategies = default_strategies()
    if config.out is None:
        config.out = Path("runs") / datetime.now().strftime("%Y%m%d-%H%M%S")
    with_settings(config)
    config.baseline = resolve_baseline(config.baseline, config.strategies)
    return config


def with_settings(config: RunConfig) -> RunConfig:
    """`--modality A,B`: every strategy (and the baseline) as its variants NAME@A, NAME@B."""
    config.strategies = expand_variants(config.strategies, config.modality)
    config.baseline = expand_baseline(config.baseline, config.modality)
    return config


JSON_KINDS: dict[type, str] = {dict: "object", list: "list", str: "string"}


def manifest_part(run_dir: RunDir, data: dict[str, Any], key: str, kind: type) -> Any:
    """`data[key]` of the run's manifest; RunDirError naming the file and field when it is missing
    or of another type (a manifest changed by hand or by another tool)."""
    value = data.get(key)
    if not isinstance(value, kind):
        found = "missing" if value is None else f"a {type(value).__name__}"
        expected = JSON_KINDS.get(kind, kind.__name__)
        raise RunDirError(f"{run_dir.manifest_path}: field `{key}` is {found}, expected a JSON {expected}. "
                          f"factprobe writes the manifest; restore it, or start a new run with another --out.")
    return value


def resumed_config(out: Path, explicit: dict[str, Any]) -> RunConfig:
    """The recorded config of the run in `out`, with the options that may change (those that
    change no result, and a judge: factprobe.eval.run.regrade) replaced; any other difference is a
    ConfigError naming the options."""
    run_dir = RunDir(out)
    config = manifest_part(run_dir, run_dir.read_manifest(), "config", dict)
    recorded = _validated(config, f"{run_dir.manifest_path}")
    wanted = with_settings(_validated({**config, **explicit, "out": out}))
    may_change = new_judge_options(recorded, wanted)
    # the manifest holds secrets redacted, so a spec given again is compared as it was written
    given = {key: json.loads(redact_values(json.dumps(value))) for key, value in wanted.identity().items()}
    changed = [key for key, value in given.items() if recorded.identity()[key] != value and key not in may_change]
    hidden = [f"--{key.replace('_', '-')}" for key, value in wanted.model_dump(mode="json").items()
              if REDACTED in json.dumps(value)]      # any option holding a URL with a secret
    if hidden and not changed:
        raise ConfigError(f"the run in {out} was started with a secret in {' and '.join(hidden)}, which its "
                          f"manifest keeps redacted: give {' and '.join(hidden)} again with --resume.")
    if changed:
        raise ConfigError(f"--resume continues the run in {out} as it was started; these options "
                          f"differ from its manifest: {', '.join(changed)}. Start a new run with "
                          f"another --out instead (--resume accepts a new --judge, which grades what the "
                          f"run left UNGRADED, and the options that change no result).")
    for plugin in wanted.plugins:
        load_plugin(plugin)
    return wanted


def check_unchanged(run_dir: RunDir, manifest: dict[str, Any], dataset: Dataset, config: RunConfig) -> None:
    """Before a resume: ConfigError when the dataset's questions changed since the run in `run_dir`
    started, InputChanged when one of its input files did (factprobe.eval.run.inputs)."""
    recorded = manifest_part(run_dir, manifest_part(run_dir, manifest, "dataset", dict), "fingerprint", str)
    if recorded != dataset_fingerprint(dataset):
        raise ConfigError(f"the dataset {config.dataset} changed since the run in {run_dir.path} "
                          f"started (its content hash differs from the manifest's); resuming would "
                          f"mix answers to different questions. Start a new run instead.")
    check_inputs(manifest, config, run_dir.path)


def check_served(manifest: dict[str, Any], model: ChatModel, where: Path, spec: str, judge: bool = False) -> None:
    """ConfigError when the server behind --model (`judge`: --judge) now serves another model than
    the one that answered (graded) the rows of the run in `where` (its manifest's `served_model`,
    `judge_served_model`); nothing to compare for a new run, or for a model no server reports."""
    flag, key, did, what = ("--judge", "judge_served_model", "graded", "grades") if judge else \
        ("--model", "served_model", "answered", "answers")
    recorded, now = manifest.get(key), served_model(model)
    if recorded and now and recorded != now:
        raise ConfigError(f"{flag} {spec}: the server now serves {now!r}, but the run in {where} was {did} "
                          f"by {recorded!r}; resuming would mix the {what} of two models. Serve {recorded!r} "
                          f"again, or start a new run with another --out.")


def print_notes(notes: list[str], console: Console) -> None:
    """Print each note of the run (what it left out and why) on a line of its own."""
    for note in notes:
        console.print(f"[yellow]note:[/yellow] {escape(note)}", soft_wrap=True)


def select_questions(dataset: Dataset, config: RunConfig) -> list[Question]:
    limit = config.limit
    if limit is None:
        limit = DEFAULT_SAMPLE_LIMIT if dataset.name == "sample" else 0
        config.limit = limit
    pool = select_ids(dataset.questions, config.only_ids, config.exclude_ids)
    return stratified_subset(pool, limit, config.seed) if limit else pool


def request_limits(config: RunConfig) -> RequestLimits:
    return RequestLimits(timeout_s=config.request_timeout, max_retries=config.max_retries)


def make_grader(config: RunConfig, judge: ChatModel | None = None) -> Grader:
    """The grader --grader, --judge, --hedging and --judge-prompt ask for (`judge`: the model --judge
    names, loaded here when not given); GraderConfigError if they clash."""
    check_grader_options(config.grader, config.judge is not None, config.hedging, config.judge_prompt,
                         config.judge_prompt_file, config.judge_labels)
    if config.judge and judge is None:
        judge = load_judge(config.judge, use_cache=config.use_cache, threads=config.threads,
                           limits=request_limits(config))
    return build_grader(config.grader, judge, config.hedging, config.judge_prompt, config.judge_prompt_file,
                        config.judge_labels)


def choices_entry(config: RunConfig, questions: list[Question], judge: ChatModel | None) -> dict[str, Any] | None:
    """The manifest's `multiple_choice`: option order, grading mode and the model that maps
    answers to letters (the run's judge; with `--choice-grading self` the model under test, named
    by its spec); None without such questions."""
    if not any(q.choices for q in questions):
        return None
    mapper = {"model": config.model, "self": True} if config.choice_grading == "self" else (
        judge.describe() if judge is not None else None)
    return {"option_order": config.option_order, "grading": config.choice_grading, "mapper": mapper}


def pending_keys(questions: list[Question], config: RunConfig, done: set[tuple[str, str, int]]) -> int:
    """How many (question, strategy, repeat) keys of the run are not done yet."""
    return sum((q.id, s, r) not in done for q in questions for s in config.strategies for r in range(config.repeats))


def answering_model(config: RunConfig, questions: list[Question], answering: bool) -> ChatModel:
    """The model under test, loaded and reached, checked to read the questions' images and audio;
    a stand-in that loads nothing when every strategy answers from a file, or when nothing is left
    to answer (a resume that only re-grades: the model is not even reached)."""
    from factprobe.agents.strategies.recorded import NoModel

    if not answering:
        return NoModel(config.model, "nothing is left to answer: the run's rows are only re-graded",
                       f"{config.model} (not loaded: only re-grading)")
    model: ChatModel = NoModel(config.model)
    if not all(describes(name, "recorded") for name in config.strategies):   # answers from files only
        model = load_model(config.model, use_cache=config.use_cache, threads=config.threads,
                           limits=request_limits(config))
        reach_model(model, "--model", config.model)
    # Before any question: refuse images a text model cannot read.
    check_model_reads_images(model, attaches_images(questions, config.strategies, config.media), config.media)
    check_model_reads_audio(model, config.strategies)
    return model


def check_failures(run_dir: RunDir, config: RunConfig, console: Console,
                   rows: list[SlimRow] | None = None) -> int:
    """Exit status of a finished run: EXIT_TOO_MANY_ERRORS when ERROR rows exceed --max-error-rate
    or UNGRADED rows exceed --max-undecided-rate (each cause named). `rows`: the run's latest rows
    as `run_dir.latest_slim()` reads them, when the caller (holding the run's lock) already has them."""
    # slim rows: the counts need no trace or reply
    report = error_report(run_dir.latest_slim() if rows is None else rows)
    for line in warnings(report, config.max_error_rate, config.max_undecided_rate, str(run_dir.path), config.judge):
        console.print(f"[yellow]warning:[/yellow] {escape(line)}")
    messages = []
    if report.exceeds(config.max_error_rate):
        messages.append(failure_message(report, config.max_error_rate, str(run_dir.path)))
    if report.undecided_exceeds(config.max_undecided_rate):
        messages.append(undecided_message(report, config.max_undecided_rate, str(run_dir.path), config.judge))
    for message in messages:
        print(f"factprobe: {message}", file=sys.stderr)
    return EXIT_TOO_MANY_ERRORS if messages else 0


def report_current(run_dir: RunDir) -> bool:
    """factprobe.eval.report.build.report_is_current, imported only when asked (the report imports numpy)."""
    from factprobe.eval.report.build import report_is_current

    return report_is_current(run_dir)


def run_folder(config: RunConfig) -> Path:
    """The config's run directory: `new_config` and `resumed_config` always set it, so only a
    config completed some other way lacks it (an OptionError naming --out)."""
    if config.out is None:
        raise OptionError("--out: the run has no run directory (build its config with new_config)")
    return config.out


def execute_run(config: RunConfig, resume: bool, console: Console, report: bool = True) -> int:
    """Answer, grade, record and report one run; returns its exit status. The run directory is
    locked throughout (a second run on it stops with RunDirError). This is one process; a run split
    by --workers or --executor goes through factprobe.eval.run.launch. `report=False` leaves out the
    report (a shard of a split run: the merged run is reported). Its callers (launch_run, a
    worker's run_logged) remember the config's secrets and redact what it prints."""
    if config.workers > 1 or config.executor != "local":
        raise ConfigError("--shard runs one shard in this process; it cannot be split again with "
                          "--workers or --executor: drop one of them" if config.shard else
                          "a run split by --workers or --executor is started by factprobe.eval.run.launch")
    run_dir = RunDir(run_folder(config))
    try:
        return _execute_locked(config, resume, console, run_dir, report)
    finally:
        run_dir.unlock()


def _execute_locked(config: RunConfig, resume: bool, console: Console, run_dir: RunDir, report: bool) -> int:
    check_confidence_config(config)
    check_grader_options(config.grader, config.judge is not None, config.hedging, config.judge_prompt,
                         config.judge_prompt_file, config.judge_labels)
    dataset = load_dataset(config.dataset)
    run_dir.lock()
    if resume:
        manifest = run_dir.read_manifest()
        check_unchanged(run_dir, manifest, dataset, config)
        wanted = set(map(str, manifest_part(run_dir, manifest, "question_ids", list)))
        questions = [q for q in dataset.questions if q.id in wanted]
        run_dir.drop_torn_tail()
        done = run_dir.done_keys()
        # Only a judge can decide what was left UNGRADED (or retry its own failed call): the rule
        # grader is deterministic, so without a judge an UNGRADED row is final and left as it is
        # (asking again would append a copy on every --resume).
        ungraded = run_dir.ungraded_rows()
        if not config.judge:
            done |= {row.key for row in ungraded}
            ungraded = []
    else:
        if run_dir.results_path.exists():
            raise RunDirError(f"{run_dir.path} already holds a run: continue it with "
                              f"`factprobe run --resume --out {run_dir.path}` or choose another --out")
        questions = select_questions(dataset, config)
        notes = (exclude_notes(dataset.questions, config.exclude_ids) + left_out_by_default(config, dataset, questions)
                 + prompt_notes(config) + repeat_notes(config))
        print_notes(notes, console)
        if config.group_by or config.where:   # numpy with it: the run path starts without it
            from factprobe.eval.analysis.groups import check_question_fields

            check_question_fields(questions, config.group_by, config.where)
        selected = [q.id for q in questions]
        if config.shard is not None:   # the whole run's selection, then this shard's part of it
            questions = in_shard(questions, *parse_shard(config.shard))
        done, ungraded, manifest = set(), [], {}
    check_job_count(questions, config)
    check_media_folders(config)
    check_retrieval_corpus(dataset, questions, config)
    finished = not ungraded and not pending_keys(questions, config, done)
    if resume and finished and (not report or report_current(run_dir)):
        console.print(f"nothing to run: every row of {run_dir.path} is done and its report is up to date "
                      f"(`factprobe report {run_dir.path}` redraws it)", markup=False)
        return check_failures(run_dir, config, console)
    for name in config.strategies:
        get_strategy(name)
    judge = load_judge(config.judge, use_cache=config.use_cache, threads=config.threads,
                       limits=request_limits(config)) if config.judge else None
    grader = make_grader(config, judge_with_media(judge, config.judge_media))
    # `--resume --judge SPEC` with another judge than the run's: it also re-grades what earlier graders left
    new_judge = resume and judge_changed(manifest_part(run_dir, manifest, "config", dict).get("judge"),
                                         config.judge)
    if judge is not None and config.judge and not new_judge:
        check_served(manifest, judge, run_dir.path, config.judge, judge=True)
    # a row another grader left UNGRADED (a multiple-choice letter) keeps its grading policy: it is
    # answered and graded again like any other undone row, never re-graded by the run's grader
    ungraded = regradable(ungraded, grader, manifest if new_judge else None)
    answering = not resume or pending_keys(questions, config, done | {row.key for row in ungraded}) > 0
    model = answering_model(config, questions, answering)
    check_served(manifest, model, run_dir.path, config.model)
    media = prepare_media(questions, config.strategies, config.media, config.frames, config.frame_size,
                          config.dataset, config.audio_seconds, judge_frames=config.judge_media == "frames",
                          frame_sampling=config.frame_sampling, allowed=config.media_root, where=dataset.where)
    media.exact = config.prompt_file is not None   # a prompt file is sent as written, no line before it
    # Load and warm the model before timing starts, priming the worked-example prefix the strategies share.
    warm_up(model, answer_messages(""))
    entity_model = load_entity_model(config, questions, request_limits(config)) if answering else None
    runner = Runner(config, dataset, model, grader, run_dir, active_post_steps(config), console, media, judge,
                    entity_model)
    if answering:   # the graphs the strategy-result cache cannot stand in for, compiled before the manifest
        asyncio.run(runner.prepare(questions, done | {row.key for row in ungraded}))
    if not resume:
        manifest = build_manifest(config, dataset, [q.id for q in questions], model, grader, media.sampling, judge)
        manifest["multiple_choice"] = choices_entry(config, questions, judge)
        manifest["entity_model"] = entity_model.describe() if entity_model else None
        manifest["strategy_cache"] = runner.results.describe() if runner.results else None
        manifest["notes"] = notes
        if config.shard is not None:
            manifest["shard"] = shard_entry(config.shard, selected)
        run_dir.write_manifest(manifest)
    elif new_judge:
        run_dir.write_manifest(with_new_judge(manifest, config, grader, served_model(judge) if judge else None))
    total = len(questions) * len(config.strategies) * config.repeats
    console.print(f"[bold]factprobe[/bold] {len(questions)} questions × {len(config.strategies)} "
                  f"strategies × {config.repeats} repeats on {escape(model.name)}; "
                  f"{total - len(done) - len(ungraded)} to run")
    end_start_up()   # the command's collector, paused while it started, is back on for the answers
    if ungraded:
        regraded = asyncio.run(runner.regrade_all(ungraded, questions))
        console.print(f"re-graded {regraded} UNGRADED rows from their stored answers")
    ran = asyncio.run(runner.run(questions, done | {row.key for row in ungraded}))
    reused = f"; {runner.results.hits} from the strategy-result cache" if runner.results else ""
    console.print(f"answered {ran} (skipped {total - ran} already done{reused})")
    if not report:
        return check_failures(run_dir, config, console)
    from factprobe.eval.report.build import write_report  # numpy and matplotlib: imported after the answers

    rows = run_dir.latest_slim()   # read once, for the report and the exit status
    write_report(run_dir, console, verbose=config.verbose, rows=rows)
    console.print(f"run directory: [bold]{escape(str(run_dir.path))}[/bold]")
    return check_failures(run_dir, config, console, rows)
