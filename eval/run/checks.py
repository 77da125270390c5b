"""Checks of a run as a whole, made before any model is loaded: its size and, for strategies that
retrieve from a local corpus, that the dataset has one (else every row would fail one by one)."""

from __future__ import annotations

from factprobe.agents.registry import RAG_SUFFIX, get_strategy
from factprobe.eval.config.options import OptionError
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.core.errors import DatasetError
from factprobe.eval.core.schema import Question
from factprobe.eval.datasets.registry import Dataset
from factprobe.retrieval.base import RetrievalError
from factprobe.retrieval.registry import parse_spec


def check_job_count(questions: list[Question], config: RunConfig) -> None:
    """OptionError when the run has more (question, strategy, repeat) jobs than --max-jobs."""
    jobs = len(questions) * len(config.strategies) * config.repeats
    if jobs > config.max_jobs:
        raise OptionError(f"this run has {jobs:,} jobs ({len(questions):,} questions × {len(config.strategies)} "
                          f"strategies × {config.repeats:,} repeats), above --max-jobs {config.max_jobs:,}; "
                          f"lower --repeats or --limit, or raise --max-jobs to {jobs} if you mean it.")


def retrieving(config: RunConfig) -> list[str]:
    """The run's strategies that retrieve (`rag`, `NAME+rag`, or registered as retrieving)."""
    names = []
    for name in config.strategies:
        base = name.split("@")[0]
        if base == "rag" or RAG_SUFFIX in base or getattr(get_strategy(base), "retrieves", False):
            names.append(name)
    return names


def check_retrieval_corpus(dataset: Dataset, questions: list[Question], config: RunConfig) -> None:
    """DatasetError when a strategy retrieves from a local corpus that no question has: the dataset
    has no shared corpus, --retriever names no corpus file, and no question brings passages."""
    try:                  # checked even when no strategy retrieves: a wrong value is a mistake
        spec = parse_spec(config.retriever)
    except RetrievalError as exc:
        raise OptionError(f"--retriever {config.retriever!r}: {exc}") from None
    users = retrieving(config)
    if not users:
        return
    if not spec.local or spec.path is not None or dataset.corpus or any(q.corpus for q in questions):
        return
    raise DatasetError(f"--strategies {','.join(users)} retrieve with --retriever {config.retriever}, but the "
                       f"dataset {config.dataset} has no corpus (no shared corpus, and none of its "
                       f"{len(questions)} questions brings passages), so every row would fail. Give a corpus "
                       f"with --retriever {spec.name}:PATH (a JSONL file of passages or a folder of "
                       f"documents), search the web with --retriever wikipedia or web, or drop "
                       f"{','.join(users)}.")
