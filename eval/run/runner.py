"""Run strategies over questions: async, bounded concurrency, rows appended as they finish."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from factprobe.agents.context import StrategyContext
from factprobe.agents.models.base import ChatModel
from factprobe.agents.models.cache import counting_calls
from factprobe.agents.registry import get_strategy
from factprobe.agents.resources import RunResources
from factprobe.agents.state import QAState
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.core.record import record_fields
from factprobe.eval.core.redact import error_text
from factprobe.eval.core.schema import ROW_SCHEMA_VERSION, Grade, Question, Result
from factprobe.eval.datasets.registry import Dataset
from factprobe.eval.grading.base import GradeOutcome, Grader
from factprobe.eval.grading.service import GradingService
from factprobe.eval.media.attach import AttachingModel, RunMedia, attached, current_attachment
from factprobe.eval.run.result_cache import StrategyResults
from factprobe.eval.run.retries_column import RetriesColumn
from factprobe.eval.run.steps import PostStep, PostStepInput
from factprobe.eval.store.disk_space import DiskFull
from factprobe.eval.store.run_dir import RunDir
from factprobe.retrieval.metrics import gold_passage_ids
from factprobe.retrieval.pipeline import pipeline_for

RECURSION_LIMIT = 100


@dataclass
class Job:
    question: Question
    strategy: str
    repeat: int


def base_row(question: Question, strategy: str, repeat: int) -> dict[str, Any]:
    return {"schema_version": ROW_SCHEMA_VERSION, "question_id": question.id, "strategy": strategy, "repeat": repeat,
            "question": question.question, "gold": question.answer, "category": question.category,
            "answerable": question.answerable, "hop_count": question.hop_count,
            "gold_passage_ids": gold_passage_ids(question) or None,
            **({"fields": fields} if (fields := record_fields(question)) else {})}


def state_costs(state: QAState) -> dict[str, Any]:
    """Tokens, calls and latency of the strategy's own model calls and retrieval."""
    calls = state.get("calls", [])
    llm_latency = sum(call.latency_s for call in calls)
    retrieval_latency = state.get("retrieval_latency_s", 0.0)
    return {"prompt_tokens": sum(c.prompt_tokens for c in calls),
            "completion_tokens": sum(c.completion_tokens for c in calls),
            "llm_calls": len(calls), "llm_latency_s": llm_latency,
            "retrieval_latency_s": retrieval_latency,
            "latency_s": llm_latency + retrieval_latency + state.get("other_latency_s", 0.0)}


async def stream_graph(graph: Any, inputs: dict[str, Any], state: QAState) -> QAState:
    """Run a compiled graph, keeping its state after every step in `state` (updated in place),
    so a step that raises leaves the trace and calls of the steps before it. Each streamed value
    is the whole state so far (a key once set stays set), so updating replaces every key."""
    async for values in graph.astream(inputs, config={"recursion_limit": RECURSION_LIMIT},
                                      stream_mode="values"):
        state.update(values)
    return state


class Runner:
    """Answers, grades and records every job; one failing job becomes an ERROR row."""

    def __init__(self, config: RunConfig, dataset: Dataset, model: ChatModel, grader: Grader,
                 run_dir: RunDir, post_steps: list[PostStep], console: Console,
                 media: RunMedia | None = None, judge: ChatModel | None = None,
                 entity_model: ChatModel | None = None) -> None:
        self.config = config
        self.media = media or RunMedia()
        self.dataset = dataset
        self.grader = GradingService(grader)   # every grade of the run, under one error policy
        self.run_dir = run_dir
        self.post_steps = post_steps
        self.console = console
        self.context = StrategyContext(
            model=AttachingModel(model), seed=config.seed, temperature=config.temperature,
            max_tokens=config.max_tokens, options=config.strategy_options(),
            resources=RunResources(corpus=dataset.corpus, config=config, retrieval=pipeline_for, judge=judge,
                                   entity_model=entity_model))
        self.results = StrategyResults.for_run(config, model, dataset, entity_model)
        self.graphs: dict[str, Any] = {}
        self._prepared = False

    def build_graphs(self, names: Iterable[str]) -> None:
        """Compile the graphs of the strategies `names` not compiled yet."""
        for name in names:
            if name not in self.graphs:
                self.graphs[name] = get_strategy(name).build(self.context)

    async def prepare(self, questions: list[Question], done: set[tuple[str, str, int]]) -> None:
        """Before the first answer: every strategy's graph without the strategy-result cache; with
        it, the cache's shared key parts and the graphs of the strategies with a job it cannot
        answer (a strategy it answers wholly is never compiled: a fully cached run does not even
        import LangGraph). A run that only re-grades never prepares. Idempotent."""
        if self._prepared:
            return
        self._prepared = True
        if self.results is None:
            self.build_graphs(self.config.strategies)
        else:
            await self.results.prepare()
            self.build_graphs(self.results.unanswered(self.jobs(questions, done), self.media))

    async def answer(self, job: Job) -> Result:
        """One job's row; every model call of the job carries its input setting (media, caption or
        neither: factprobe.eval.media.attach)."""
        with attached(self.media.attachment(job.question, job.strategy)):
            return await self._answer(job)

    async def _answer(self, job: Job) -> Result:
        """One job's row: ERROR (with the trace up to the failure) when the strategy fails;
        otherwise graded, with any post step's failure kept apart in `post_step_errors`. The
        strategy's output comes from the strategy-result cache when it holds it (result_cache)."""
        attachment = current_attachment()
        row = {**base_row(job.question, job.strategy, job.repeat), **attachment.row_fields()}
        if attachment.error is not None:   # its media could not be read: this row is ERROR, the run goes on
            row.update(grade=Grade.ERROR, grader=self.grader.name, error=attachment.error)
            return Result.model_validate(row)
        started = time.perf_counter()
        key = None if self.results is None else self.results.key(job.question, job.strategy, job.repeat, attachment)
        stored = None if self.results is None else self.results.get(key)
        if stored is not None:
            state: QAState = {**stored, "question": job.question}
        else:
            state = {}
            try:
                self.build_graphs([job.strategy])   # a stored entry whose responses are gone
                with counting_calls() as ledger:
                    await stream_graph(self.graphs[job.strategy],
                                       {"question": job.question, "repeat": job.repeat}, state)
            except Exception as exc:  # one failing question must not stop the run
                row.update(state_costs(state), grade=Grade.ERROR, grader=self.grader.name,
                           error=error_text(exc), trace=state.get("trace", []))
                row["wall_s"] = time.perf_counter() - started
                return Result.model_validate(row)
            if self.results is not None:
                self.results.put(key, state, ledger)
        outcome = await self.grade(job.question, state.get("answer"), state.get("raw"))
        row.update(state_costs(state))
        row.update(answer=state.get("answer"), raw=state.get("raw"),
                   confidence=state.get("confidence"), trace=state.get("trace", []),
                   grade=outcome.grade, grader=outcome.grader, grade_note=outcome.note, **outcome.judge_cost(),
                   samples=state.get("samples"), retrieved_ids=state.get("retrieved_ids"),
                   hops=state.get("hops"), grades={outcome.grader: outcome.grade})
        if state.get("confidence") is not None:
            row["confidences"] = {"verbal": state.get("confidence")}
        failures: dict[str, str] = {}
        for step in self.post_steps:
            try:
                row.update(await step.run(PostStepInput(job.question, state, job.strategy, job.repeat,
                                                        self.context, self.grader, self.config)))
            except Exception as exc:  # a measurement's failure must not undo the graded answer
                failures[step.name] = error_text(exc)
        if failures:  # a step may also report its own failure (and still return its fields)
            row["post_step_errors"] = {**(row.get("post_step_errors") or {}), **failures}
        row["wall_s"] = time.perf_counter() - started
        return Result.model_validate(row)

    async def grade(self, question: Question, answer: str | None, reply: str | None = None) -> GradeOutcome:
        """The grading service's outcome (a grader that raises leaves the answer UNGRADED, for --resume)."""
        return await self.grader.grade(question, answer, reply=reply)

    async def regrade(self, row: Result, question: Question) -> Result:
        """A new row for an UNGRADED one, graded with the current grader from its stored answer (a
        judge shown the frames sees them again)."""
        with attached(self.media.attachment(question, row.strategy)):
            return await self.grader.regrade(row, question)

    def jobs(self, questions: list[Question], done: set[tuple[str, str, int]]) -> Iterator[Job]:
        """The jobs not done, generated one at a time (memory does not grow with their number)."""
        return (Job(q, s, r) for r in range(self.config.repeats) for q in questions
                for s in self.config.strategies if (q.id, s, r) not in done)

    async def regrade_all(self, rows: list[Result], questions: list[Question]) -> int:
        """Re-grade `rows` (UNGRADED rows factprobe.eval.run.regrade.regradable chose) from their
        stored answers without asking the model again; returns how many were re-graded."""
        by_id = {question.id: question for question in questions}
        pending = [row for row in rows if row.question_id in by_id]
        semaphore = asyncio.Semaphore(max(1, self.config.concurrency))

        async def one(row: Result) -> None:
            async with semaphore:
                self.run_dir.append(await self.regrade(row, by_id[row.question_id]))

        await asyncio.gather(*(one(row) for row in pending))
        return len(pending)

    async def run(self, questions: list[Question], done: set[tuple[str, str, int]]) -> int:
        """Run every job not yet done; returns how many ran."""
        pending = sum(1 for _ in self.jobs(questions, done))
        if not pending:
            return 0
        await self.prepare(questions, done)
        columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                   TextColumn("errors: {task.fields[errors]}"), RetriesColumn(), TimeElapsedColumn(),
                   TimeRemainingColumn())
        with Progress(*columns, console=self.console, transient=False) as progress:
            task = progress.add_task("answering", total=pending, errors=0)
            errors = 0
            queue = self.jobs(questions, done)  # shared by the workers: each job is taken by exactly one

            written = 0

            async def worker() -> None:
                nonlocal errors, written
                for job in queue:
                    result = await self.answer(job)
                    try:
                        self.run_dir.append(result)
                    except DiskFull as full:   # about as much again for every row still to write
                        raise full.needing(full.needed * (pending - written)) from None
                    written += 1
                    errors += result.grade is Grade.ERROR
                    progress.update(task, advance=1, errors=errors)

            # `--concurrency` workers, not a task per job: a large run starts at once and holds
            # only the jobs in flight
            try:
                await asyncio.gather(*(worker() for _ in range(min(pending, max(1, self.config.concurrency)))))
            finally:
                if self.results is not None:
                    self.results.flush()
        return pending

