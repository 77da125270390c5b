"""Run strategies over questions: async, bounded concurrency, rows appended as they finish."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from factprobe.agents.context import StrategyContext
from factprobe.agents.models.base import ChatModel
from factprobe.agents.registry import get_strategy
from factprobe.agents.state import QAState
from factprobe.eval.config import RunConfig
from factprobe.eval.datasets.registry import Dataset
from factprobe.eval.grading.base import Grader
from factprobe.eval.post_steps import PostStep, PostStepInput
from factprobe.eval.run_dir import RunDir
from factprobe.eval.schema import Grade, Question, Result
from factprobe.retrieval.metrics import gold_passage_ids

RECURSION_LIMIT = 100


@dataclass
class Job:
    question: Question
    strategy: str
    repeat: int


def error_text(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}".strip()


def base_row(question: Question, strategy: str, repeat: int) -> dict[str, Any]:
    return {"question_id": question.id, "strategy": strategy, "repeat": repeat,
            "question": question.question, "gold": question.answer, "category": question.category,
            "answerable": question.answerable, "hop_count": question.hop_count,
            "gold_passage_ids": gold_passage_ids(question) or None}


def state_costs(state: QAState) -> dict[str, Any]:
    """Tokens, calls and latency of the strategy's own model calls and retrieval."""
    calls = state.get("calls", [])
    llm_latency = sum(call.latency_s for call in calls)
    retrieval_latency = state.get("retrieval_latency_s", 0.0)
    return {"prompt_tokens": sum(c.prompt_tokens for c in calls),
            "completion_tokens": sum(c.completion_tokens for c in calls),
            "llm_calls": len(calls), "llm_latency_s": llm_latency,
            "retrieval_latency_s": retrieval_latency, "latency_s": llm_latency + retrieval_latency}


class Runner:
    """Answers, grades and records every job; one failing job becomes an ERROR row."""

    def __init__(self, config: RunConfig, dataset: Dataset, model: ChatModel, grader: Grader,
                 run_dir: RunDir, post_steps: list[PostStep], console: Console) -> None:
        self.config = config
        self.dataset = dataset
        self.grader = grader
        self.run_dir = run_dir
        self.post_steps = post_steps
        self.console = console
        self.context = StrategyContext(
            model=model, seed=config.seed, temperature=config.temperature,
            max_tokens=config.max_tokens, options=config.strategy_options(),
            resources={"corpus": dataset.corpus, "config": config})
        self.graphs = {name: get_strategy(name).build(self.context) for name in config.strategies}

    async def answer(self, job: Job) -> Result:
        row = base_row(job.question, job.strategy, job.repeat)
        started = time.perf_counter()
        try:
            state: QAState = await self.graphs[job.strategy].ainvoke(
                {"question": job.question, "repeat": job.repeat},
                config={"recursion_limit": RECURSION_LIMIT})
            outcome = await self.grader.grade(job.question, state.get("answer"))
            row.update(state_costs(state))
            row.update(answer=state.get("answer"), raw=state.get("raw"),
                       confidence=state.get("confidence"), trace=state.get("trace", []),
                       grade=outcome.grade, grader=outcome.grader, grade_note=outcome.note,
                       samples=state.get("samples"), retrieved_ids=state.get("retrieved_ids"),
                       hops=state.get("hops"))
            if state.get("confidence") is not None:
                row["confidences"] = {"verbal": state.get("confidence")}
            for step in self.post_steps:
                row.update(await step.run(PostStepInput(job.question, state, job.strategy, job.repeat,
                                                        self.context, self.grader, self.config)))
        except Exception as exc:  # one failing question must not stop the run
            row.update(grade=Grade.ERROR, grader=self.grader.name, error=error_text(exc))
        row["wall_s"] = time.perf_counter() - started
        return Result.model_validate(row)

    def jobs(self, questions: list[Question], done: set[tuple[str, str, int]]) -> list[Job]:
        return [Job(q, s, r) for r in range(self.config.repeats) for q in questions
                for s in self.config.strategies if (q.id, s, r) not in done]

    async def run(self, questions: list[Question], done: set[tuple[str, str, int]]) -> int:
        """Run every job not yet done; returns how many ran."""
        jobs = self.jobs(questions, done)
        if not jobs:
            return 0
        semaphore = asyncio.Semaphore(max(1, self.config.concurrency))
        columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                   TextColumn("errors: {task.fields[errors]}"), TimeElapsedColumn(), TimeRemainingColumn())
        with Progress(*columns, console=self.console, transient=False) as progress:
            task = progress.add_task("answering", total=len(jobs), errors=0)
            errors = 0

            async def one(job: Job) -> None:
                nonlocal errors
                async with semaphore:
                    result = await self.answer(job)
                self.run_dir.append(result)
                errors += result.grade is Grade.ERROR
                progress.update(task, advance=1, errors=errors)

            await asyncio.gather(*(one(job) for job in jobs))
        return len(jobs)

