"""The strategy-result cache: a strategy's recorded output reused instead of running its graph.

A re-run whose every model call would be answered by the response cache gets, by construction,
the output the first run recorded; running the graph again only costs time (LangGraph's own
~1 ms per question). So after a graph run whose every call went through the response cache and is
in it (factprobe.agents.models.cache.counting_calls), the run's final state is stored beside the
responses, and a later run with the same key takes it instead of running the graph. Grading and
post steps still run on every row.

The key holds everything the output depends on: factprobe's version, its prompts' version and the
digest of the source that builds prompts and graphs (agents, retrieval, media attachment; a
plugin's file and the strategy's own file), the strategy and where it was defined, the model's
spec and identity (as the response cache names it), every run option except those
that only grade, select or schedule (STRATEGY_BLIND), the strategy options as the graph sees them
(answer prompt text included), the retrieval corpus for a strategy that retrieves, the repeat, the
question's whole record and its attachment (media by content digest). Only reusable strategies
(StrategySpec.reusable) are stored, and only a state that survives its JSON round trip unchanged.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import inspect
import json
from collections.abc import Iterable
from dataclasses import fields
from functools import lru_cache
from pathlib import Path
from typing import Any

import orjson
from pydantic import BaseModel, ConfigDict, TypeAdapter

from factprobe.agents.models.base import ChatModel
from factprobe.agents.models.cache import CachedModel, CallLedger
from factprobe.agents.prompts import PROMPTS_VERSION
from factprobe.agents.registry import StrategySpec, get_strategy
from factprobe.agents.state import QAState
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.core.schema import CallRecord, HopResult, Question
from factprobe.eval.core.secrets import redact_values
from factprobe.eval.datasets.registry import Dataset
from factprobe.eval.media.attach import Attachment, RunMedia
from factprobe.eval.store.json_store import JsonStore, file_sha256, hash_key

CACHE_VERSION = 1
TABLE = "strategy_results"
# Run options no strategy graph reads: grading, which questions are asked, and where rows go (the
# resume-exempt ones are left out too). Any other option, one added later included, is in the key.
STRATEGY_BLIND = frozenset({
    "dataset", "strategies", "judge", "grader", "judge_prompt", "judge_media", "judge_prompt_file",
    "judge_labels", "hedging", "baseline", "limit", "repeats", "hop_probes", "choice_grading", "shard",
    "only_ids", "exclude_ids", "where"})
# the folders whose code makes a strategy's prompts, calls and parsing (relative to the package root)
SOURCE_FOLDERS = ("agents", "retrieval")
SOURCE_FILES = ("eval/media/attach.py", "eval/media/sources.py")
PACKAGE_ROOT = Path(__file__).resolve().parents[2]
# the state fields that record model calls and retrievals, with their `cached` flags
CALL_FIELDS = ("calls", "trace")
WRITE_BATCH = 64   # entries per sqlite transaction
LOOKUP_BATCH = 500   # keys per lookup of which entries exist


class StoredState(BaseModel):
    """A strategy's final state as stored: the typed fields typed, the rest as JSON values."""

    model_config = ConfigDict(extra="allow")

    calls: list[CallRecord] = []
    hops: list[HopResult] | None = None


TYPED: dict[str, TypeAdapter[Any]] = {"calls": TypeAdapter(list[CallRecord]),
                                      "hops": TypeAdapter(list[HopResult] | None)}   # StoredState's fields


def load_entry(text: str) -> tuple[list[str], dict[str, Any]]:
    """A stored entry back: the request keys of its calls and the state as the graph left it (orjson
    parses, pydantic types the typed fields: half the time of StoredState.model_validate_json, on
    every row of a cached re-run); ValueError when it is not one."""
    entry = orjson.loads(text)
    if not isinstance(entry, dict) or not isinstance(entry.get("state"), dict):
        raise ValueError("a stored entry is a JSON object with a `state` object")
    requests, state = entry.get("requests"), entry["state"]
    if not isinstance(requests, list) or not all(isinstance(key, str) for key in requests):
        raise ValueError("a stored entry lists its requests")
    for name, adapter in TYPED.items():
        if name in state:
            state[name] = adapter.validate_python(state[name])
    return requests, state


def dump_entry(requests: list[str], state: dict[str, Any]) -> str:
    """The JSON text `load_entry` reads back."""
    state_text = StoredState(**state).model_dump_json(exclude_unset=True)
    return f'{{"requests":{orjson.dumps(requests).decode()},"state":{state_text}}}'


@lru_cache(maxsize=1)
def own_source_files() -> tuple[Path, ...]:
    """factprobe's files that build prompts, graphs and model messages."""
    return tuple(sorted({path for folder in SOURCE_FOLDERS for path in (PACKAGE_ROOT / folder).rglob("*.py")}
                        | {PACKAGE_ROOT / name for name in SOURCE_FILES}))


def source_digest(extra_files: list[Path]) -> str:
    """sha256 over factprobe's source files that build prompts, graphs and model messages, and
    `extra_files` (a strategy or plugin defined elsewhere), each by its path and its content."""
    digest = hashlib.sha256()
    for path in [*own_source_files(), *extra_files]:
        if path.is_file():
            digest.update(str(path.relative_to(PACKAGE_ROOT) if path.is_relative_to(PACKAGE_ROOT) else path).encode())
            digest.update(file_sha256(path).encode())
    return digest.hexdigest()


def package_version() -> str | None:
    """The installed factprobe's version (None when it is not installed)."""
    try:
        return importlib.metadata.version("factprobe")
    except importlib.metadata.PackageNotFoundError:
        return None


def builder_file(spec: StrategySpec) -> list[Path]:
    """The file that defines the strategy's graph builder (a plugin's or another package's)."""
    try:
        found = inspect.getsourcefile(spec.build)
    except TypeError:
        return []
    return [Path(found).resolve()] if found else []


def as_cached(value: Any) -> Any:
    """`value` as a run whose every call is answered by the response cache records it: every call
    record and every trace step's `cached` flag set."""
    if isinstance(value, CallRecord):
        return value.model_copy(update={"cached": True})
    if isinstance(value, dict):
        return {key: (True if key == "cached" and isinstance(item, bool) else
                      item if key == "messages" else as_cached(item))   # what was sent: no flags
                for key, item in value.items()}
    if isinstance(value, list):
        return [as_cached(item) for item in value]
    return value


class StrategyResults:
    """The strategy-result cache of one run: `get` a job's stored state, `put` a finished one."""

    def __init__(self, store: JsonStore, config: RunConfig, model: CachedModel, dataset: Dataset,
                 entity_model: ChatModel | None = None) -> None:
        self.store = store
        self.config = config
        self.model = model
        self.dataset = dataset
        self.entity_model = entity_model
        self.hits = 0
        self.stored = 0
        self._pending: list[tuple[str, str]] = []
        caches = [m.cache for m in (model, entity_model) if isinstance(m, CachedModel)]
        self._responses = list({str(cache.path): cache for cache in caches}.values())
        self._parts: dict[str, str | None] = {}

    @classmethod
    def for_run(cls, config: RunConfig, model: ChatModel, dataset: Dataset,
                entity_model: ChatModel | None = None) -> StrategyResults | None:
        """The cache beside the model's response cache; None under --no-cache (no response cache)."""
        if not config.use_cache or not isinstance(model, CachedModel):
            return None
        if entity_model is not None and not isinstance(entity_model, CachedModel):
            return None
        return cls(JsonStore(model.cache.path, TABLE), config, model, dataset, entity_model)

    async def prepare(self) -> None:
        """Resolve what every key shares, once per strategy (the model's identity is asked here)."""
        if self._parts:
            return
        identity = await self.model.identity()
        entity = await self.entity_model.identity() if isinstance(self.entity_model, CachedModel) else None
        options = {key: value for key, value in self.config.identity().items() if key not in STRATEGY_BLIND}
        version = package_version()
        plugins = [Path(plugin) for plugin in self.config.plugins if plugin.endswith(".py")]
        for name in self.config.strategies:
            spec = get_strategy(name)
            if not spec.reusable:
                self._parts[name] = None
                continue
            shared = {"v": CACHE_VERSION, "factprobe": version, "prompts": PROMPTS_VERSION,
                      "source": source_digest([*builder_file(spec), *plugins]),
                      "strategy": name, "origin": spec.origin, "model": identity, "entity_model": entity,
                      "options": options, "strategy_options": self.config.strategy_options(),
                      "retrieval": self._retrieval(spec)}
            self._parts[name] = hash_key(json.loads(redact_values(json.dumps(shared, default=str))))

    def _retrieval(self, spec: StrategySpec) -> dict[str, Any] | None:
        """What a retrieving strategy searches: the dataset's corpus and a corpus file named by --retriever."""
        if not spec.retrieves:
            return None
        from factprobe.retrieval.corpus import fingerprint

        files = {}
        for part in self.config.retriever.split(","):
            path = Path(part.partition(":")[2]).expanduser()
            if part.partition(":")[2] and path.is_file():
                files[str(path)] = file_sha256(path)
        return {"corpus": fingerprint(self.dataset.corpus), "files": files}

    def key(self, question: Question, strategy: str, repeat: int, attachment: Attachment) -> str | None:
        """The job's key; None for a strategy that is not reusable."""
        shared = self._parts.get(strategy)
        if shared is None:
            return None
        item = question.model_dump_json()
        media = json.dumps([getattr(attachment, part.name) for part in fields(attachment)])
        return hashlib.sha256(f"{shared}\x00{repeat}\x00{item}\x00{media}".encode()).hexdigest()

    def unanswered(self, jobs: Iterable[Any], media: RunMedia) -> set[str]:
        """The strategies among `jobs` (each with `question`, `strategy`, `repeat`) that are not
        reusable or have a job this cache holds no entry for. Each strategy's first job is looked up
        alone (an empty cache answers at once), the rest LOOKUP_BATCH keys at a time."""
        needed = {name for name, part in self._parts.items() if part is None}
        everything = set(self._parts)
        first_seen: set[str] = set()
        batch: dict[str, str] = {}
        for job in jobs:
            if job.strategy in needed:
                if needed >= everything:
                    break
                continue
            key = self.key(job.question, job.strategy, job.repeat, media.attachment(job.question, job.strategy))
            if key is None or job.strategy not in first_seen:
                first_seen.add(job.strategy)
                needed |= {job.strategy} if key is None else self._missing({key: job.strategy})
                continue
            batch[key] = job.strategy
            if len(batch) >= LOOKUP_BATCH:
                needed |= self._missing(batch)
                batch = {}
        return needed | self._missing(batch)

    def _missing(self, batch: dict[str, str]) -> set[str]:
        """The strategies of the keys in `batch` (key → strategy) that have no entry."""
        found = self.store.present(list(batch))
        return {strategy for key, strategy in batch.items() if key not in found}

    def get(self, key: str | None) -> QAState | None:
        """The stored state for `key` (its question not included); None when absent or damaged."""
        if key is None:
            return None
        text = self.store.get_text(key)
        if text is None:
            return None
        try:
            requests, state = load_entry(text)
        except ValueError:
            return None
        if not self._responses_hold(requests):   # a response gone: a graph run would ask again
            return None
        self.hits += 1
        return state  # type: ignore[return-value]

    def put(self, key: str | None, state: QAState, ledger: CallLedger) -> bool:
        """Store the final state of a graph run whose every call is in the response cache; returns
        whether it was stored (not: a call outside it, a state that does not survive JSON: JSON keeps
        ints, floats and booleans apart, so equality after the round trip means the same JSON)."""
        if key is None or ledger.not_stored or ledger.in_cache != len(state.get("calls", [])):
            return False
        kept = {name: value for name, value in state.items() if name != "question"}
        kept.update({name: as_cached(kept[name]) for name in CALL_FIELDS if name in kept})
        try:
            text = dump_entry(ledger.requests, kept)
            same = load_entry(text) == (ledger.requests, kept)
        except (TypeError, ValueError):
            return False
        if not same or redact_values(text) != text:
            return False
        self._pending.append((key, text))
        self.stored += 1
        if len(self._pending) >= WRITE_BATCH:
            self.flush()
        return True

    def flush(self) -> None:
        """Write the entries `put` holds (in batches of WRITE_BATCH; a crash loses at most those, which
        a later run stores again after running their graphs)."""
        if self._pending:
            self.store.put_many(self._pending)
            self._pending = []

    def _responses_hold(self, requests: list[str]) -> bool:
        """Whether the run's response caches still hold every one of `requests`."""
        wanted = set(requests)
        for cache in self._responses:
            wanted -= cache.present(list(wanted))
            if not wanted:
                break
        return not wanted

    def describe(self) -> dict[str, Any]:
        """The manifest's `strategy_cache`."""
        return {"path": str(self.store.path), "table": TABLE, "version": CACHE_VERSION}
