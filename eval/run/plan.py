"""A run's first phase: its options checked once, its questions chosen, what is left to do found,
and its data checked; nothing is loaded but the dataset, and no model is reached."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.markup import escape

from factprobe.eval.config.run_config import RunConfig, parse_shard
from factprobe.eval.core.schema import Question, Result
from factprobe.eval.datasets.id_files import exclude_notes, select_ids
from factprobe.eval.datasets.registry import Dataset, load_dataset
from factprobe.eval.datasets.subset import stratified_subset
from factprobe.eval.grading.cascade import check_grader_options
from factprobe.eval.run.checks import (
    check_job_count,
    check_media_folders,
    check_retrieval_corpus,
    left_out_by_default,
    prompt_notes,
    repeat_notes,
)
from factprobe.eval.run.confidence import check_confidence_config
from factprobe.eval.run.configs import check_unchanged, manifest_part
from factprobe.eval.run.shards import in_shard
from factprobe.eval.store.run_dir import RunDir, RunDirError

DEFAULT_SAMPLE_LIMIT = 12
Key = tuple[str, str, int]


@dataclass
class RunPlan:
    """What the run does: its dataset and questions, the keys already done, the UNGRADED rows a
    judge may decide, the manifest of the run resumed ({} for a new run), and for a new run its
    notes and the whole run's selection (a shard records it)."""

    dataset: Dataset
    questions: list[Question]
    done: set[Key]
    ungraded: list[Result]
    manifest: dict[str, Any]
    notes: list[str] = field(default_factory=list)
    selected: list[str] = field(default_factory=list)

    def finished(self, config: RunConfig) -> bool:
        """Nothing is left to answer or to re-grade."""
        return not self.ungraded and not pending_keys(self.questions, config, self.done)


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


def pending_keys(questions: list[Question], config: RunConfig, done: set[Key]) -> int:
    """How many (question, strategy, repeat) keys of the run are not done yet."""
    return sum((q.id, s, r) not in done for q in questions for s in config.strategies for r in range(config.repeats))


def check_options(config: RunConfig) -> None:
    """The confidence and grading options, checked before anything is loaded (once per run)."""
    check_confidence_config(config)
    check_grader_options(config.grader, config.judge is not None, config.hedging, config.judge_prompt,
                         config.judge_prompt_file, config.judge_labels)


def plan_run(config: RunConfig, resume: bool, console: Console, run_dir: RunDir) -> RunPlan:
    """Check the options, lock the run directory and plan the run (a new one, or what a resume
    has left to do); the job count, media folders and retrieval corpus are checked on the plan."""
    check_options(config)
    dataset = load_dataset(config.dataset)
    run_dir.lock()
    plan = resumed_plan(run_dir, dataset, config) if resume else new_plan(run_dir, dataset, config, console)
    check_job_count(plan.questions, config)
    check_media_folders(config)
    check_retrieval_corpus(dataset, plan.questions, config)
    return plan


def resumed_plan(run_dir: RunDir, dataset: Dataset, config: RunConfig) -> RunPlan:
    """The run in `run_dir` as its manifest left it: its questions, done keys and UNGRADED rows."""
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
    return RunPlan(dataset, questions, done, ungraded, manifest)


def new_plan(run_dir: RunDir, dataset: Dataset, config: RunConfig, console: Console) -> RunPlan:
    """A new run's questions (this shard's part, for a shard), with its notes printed."""
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
    return RunPlan(dataset, questions, set(), [], {}, notes, selected)
