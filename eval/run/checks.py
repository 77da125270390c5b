"""Checks of a run as a whole, made before any model is loaded: its size and, for strategies that
retrieve from a local corpus, that the dataset has one (else every row would fail one by one). A run
given no strategy list leaves such strategies out with a note instead (`left_out_by_default`)."""

from __future__ import annotations

import re

from factprobe.agents.registry import RAG_SUFFIX, default_strategies, describes, get_strategy
from factprobe.eval.config.baseline import resolve_baseline
from factprobe.eval.config.options import OptionError
from factprobe.eval.config.presets import DETAILED_REPLY_TOKENS
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.core.errors import DatasetError
from factprobe.eval.core.modality import expand_variants
from factprobe.eval.core.schema import Question
from factprobe.eval.datasets.registry import Dataset
from factprobe.retrieval.base import RetrievalError
from factprobe.retrieval.registry import RetrieverSpec, parse_spec


def check_job_count(questions: list[Question], config: RunConfig) -> None:
    """OptionError when the run has more (question, strategy, repeat) jobs than --max-jobs."""
    jobs = len(questions) * len(config.strategies) * config.repeats
    if jobs > config.max_jobs:
        raise OptionError(f"this run has {jobs:,} jobs ({len(questions):,} questions × {len(config.strategies)} "
                          f"strategies × {config.repeats:,} repeats), above --max-jobs {config.max_jobs:,}; "
                          f"lower --repeats or --limit, or raise --max-jobs to {jobs} if you mean it.")


def check_media_folders(config: RunConfig) -> None:
    """OptionError naming the option when --media or --media-root is not an existing folder (its
    images would otherwise be missed without a word)."""
    for flag, folder in (("--media", config.media), ("--media-root", config.media_root)):
        if folder is not None and not folder.expanduser().is_dir():
            what = "is not a folder" if folder.exists() else "does not exist"
            raise OptionError(f"{flag} {folder}: {what}; give the folder that holds the dataset's media")


def retrieves(name: str) -> bool:
    """Whether strategy `name` retrieves (`rag`, `NAME+rag`, or registered as retrieving)."""
    base = name.split("@")[0]
    return base == "rag" or RAG_SUFFIX in base or getattr(get_strategy(base), "retrieves", False)


def retrieving(config: RunConfig) -> list[str]:
    """The run's strategies that retrieve."""
    return [name for name in config.strategies if retrieves(name)]


def retriever_spec(config: RunConfig) -> RetrieverSpec:
    """--retriever parsed; OptionError naming it when it names no retriever."""
    try:
        return parse_spec(config.retriever)
    except RetrievalError as exc:
        raise OptionError(f"--retriever {config.retriever!r}: {exc}") from None


def lacks_corpus(spec: RetrieverSpec, dataset: Dataset, questions: list[Question]) -> bool:
    """Whether a local retriever would search nothing: no corpus file named, no shared corpus, and
    no question bringing passages."""
    return spec.local and spec.path is None and not dataset.corpus and not any(q.corpus for q in questions)


def left_out_by_default(config: RunConfig, dataset: Dataset, questions: list[Question]) -> list[str]:
    """A run given no strategy list (`strategies_by_default`) leaves out the default strategies that
    retrieve when the dataset has no corpus for them (named, they stop the run: check_retrieval_corpus);
    they are removed from `config.strategies` and the returned one-line note says so. Computed from
    the default set, so a shard of a run (its list already without them) gets the same note."""
    spec = retriever_spec(config)
    if not config.strategies_by_default or not lacks_corpus(spec, dataset, questions):
        return []
    dropped = [name for name in expand_variants(default_strategies(), config.modality) if retrieves(name)]
    kept = [name for name in config.strategies if name not in dropped]
    if not dropped or not kept:
        return []
    config.strategies = kept
    config.baseline = resolve_baseline(config.baseline, kept)   # BaselineError when --baseline was left out
    names = ", ".join(dropped)
    return [f"left out of the default strategies: {names} (retrieval with --retriever {config.retriever} searches "
            f"a corpus, and the dataset {config.dataset} has none); to retrieve, name {names} in --strategies "
            f"with --retriever {spec.name}:PATH, wikipedia or web"]


def repeat_notes(config: RunConfig, api: bool = False) -> list[str]:
    """One note when repeats cannot differ: several repeats at temperature 0 of strategies that answer
    once per repeat (deterministic decoding; a sampling strategy draws at its sample temperature).
    The options are named as the command line (`--repeats 3`) or the Python API (`repeats=3`) takes them."""
    if config.repeats < 2 or config.temperature > 0:
        return []
    alike = [name for name in config.strategies if not describes(name, "samples")]
    if not alike:
        return []
    repeats, temperature = ("repeats=", "temperature=") if api else ("--repeats ", "--temperature ")
    return [f"{repeats}{config.repeats} at {temperature}0: {', '.join(alike)} will give the same answer in "
            f"every repeat (greedy decoding picks the likeliest token each time); give {temperature}0.7 "
            f"(or another value above 0) for repeats that differ"]


def check_retrieval_corpus(dataset: Dataset, questions: list[Question], config: RunConfig) -> None:
    """DatasetError when a strategy retrieves from a local corpus that no question has: the dataset
    has no shared corpus, --retriever names no corpus file, and no question brings passages."""
    spec = retriever_spec(config)   # checked even when no strategy retrieves: a wrong value is a mistake
    users = retrieving(config)
    if not users or not lacks_corpus(spec, dataset, questions):
        return
    raise DatasetError(f"--strategies {','.join(users)}: retrieval with --retriever {config.retriever} searches a "
                       f"corpus, but the dataset {config.dataset} has no corpus (no shared corpus, and none of its "
                       f"{len(questions)} questions brings passages), so every row would fail. Give a corpus "
                       f"with --retriever {spec.name}:PATH (a JSONL file of passages or a folder of "
                       f"documents), search the web with --retriever wikipedia or web, or drop "
                       f"{','.join(users)}.")


ASKS_CONFIDENCE = re.compile(r"\bconfiden", re.IGNORECASE)
ASKS_DETAIL = re.compile(r"\bdetail", re.IGNORECASE)


def prompt_notes(config: RunConfig) -> list[str]:
    """A one-line warning when the answer prompt asks for a confidence after a detailed reply (read
    whole, or asking for detail) and --max-tokens is below DETAILED_REPLY_TOKENS: a reply cut at the
    limit loses the confidence at its end."""
    prompt = config.answer_prompt()
    if prompt is None or config.max_tokens >= DETAILED_REPLY_TOKENS:
        return []
    text = f"{prompt.get('system', '')}\n{prompt['user']}"
    detailed = prompt["reply_format"] == "free" or ASKS_DETAIL.search(text) is not None
    if not (detailed and ASKS_CONFIDENCE.search(text)):
        return []
    return [f"the answer prompt ({prompt['source']}) asks for a confidence at the end of a detailed reply, and "
            f"--max-tokens {config.max_tokens} may cut it off (unreadable confidences are left out of calibration); "
            f"{DETAILED_REPLY_TOKENS} or more keeps it"]
