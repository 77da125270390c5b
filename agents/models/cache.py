"""An on-disk response cache keyed by the model's identity and the full request, around any backend.

The key names the model itself, never just its name: a backend's `identity()` (see
factprobe.agents.models.base.model_identity) is hashed in, and an identity that names a model file
(`"file": PATH`, the local backend) gets the sha256 of the file's content instead, remembered by
path, size and modification time so a file is read once. Only replies that pass
factprobe.agents.models.replies are stored, and a stored reply that fails them is never served.
A `CallLedger` made current by `counting_calls` counts the calls made inside it, so a caller can
tell whether all of them are in the cache (what the run's strategy-result cache stores on).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path

from factprobe.agents.models.base import ChatModel, Completion, GenerationParams, Message, model_identity, warm_up
from factprobe.agents.models.replies import reply_problem
from factprobe.eval.core.schema import TokenLogprob
from factprobe.eval.store.json_store import JsonStore, file_sha256, hash_key


def request_key(model: str, messages: list[Message], params: GenerationParams) -> str:
    """sha256 of the model's identity key, every message and every generation setting (sample
    index and seed too)."""
    return hash_key({"model": model, "messages": messages, "params": params.as_dict()})


@dataclass
class CallLedger:
    """The calls made through any CachedModel while this ledger is current: `in_cache` were served
    from the cache or stored in it; `not_stored` were not (a reply that failed validation, a call
    that raised), so asking again would not get the same reply from the cache."""

    in_cache: int = 0
    not_stored: int = 0
    requests: list[str] = field(default_factory=list)   # the cache keys of the `in_cache` calls


_LEDGER: ContextVar[CallLedger | None] = ContextVar("factprobe_call_ledger", default=None)


@contextmanager
def counting_calls() -> Iterator[CallLedger]:
    """A fresh CallLedger, current for the calls made inside (tasks started inside share it)."""
    ledger = CallLedger()
    token = _LEDGER.set(ledger)
    try:
        yield ledger
    finally:
        _LEDGER.reset(token)


class FileDigests:
    """sha256 of model files, remembered by (path, size, mtime) in the cache's database."""

    def __init__(self, path: Path) -> None:
        self._store = JsonStore(path, "file_digests")

    def sha256(self, file: Path) -> str:
        file = file.resolve()
        stat = file.stat()
        key = hash_key({"path": str(file), "size": stat.st_size, "mtime_ns": stat.st_mtime_ns})
        known = self._store.get(key)
        if known is not None and isinstance(known.get("sha256"), str):
            return known["sha256"]
        digest = file_sha256(file)
        self._store.put(key, {"sha256": digest, "path": str(file)})
        return digest


class ResponseCache:
    """Completions on disk, one JSON entry per request key."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._store = JsonStore(path, "completions")
        self.digests = FileDigests(path)

    def get(self, key: str) -> Completion | None:
        """The stored completion; None when absent or damaged."""
        data = self._store.get(key)
        if data is None:
            return None
        try:
            if data.get("logprobs") is not None:
                data["logprobs"] = [TokenLogprob.model_validate(t) for t in data["logprobs"]]
            return Completion(**data, cached=True)
        except (TypeError, ValueError):
            return None

    def present(self, keys: list[str]) -> set[str]:
        """Which of the request keys `keys` have a stored completion."""
        return self._store.present(keys)

    def put(self, key: str, completion: Completion) -> None:
        self._store.put(key, {
            "text": completion.text, "model": completion.model,
            "prompt_tokens": completion.prompt_tokens,
            "completion_tokens": completion.completion_tokens,
            "latency_s": completion.latency_s, "finish_reason": completion.finish_reason,
            "logprobs": None if completion.logprobs is None
            else [t.model_dump() for t in completion.logprobs],
        })


class CachedModel:
    """A ChatModel that answers repeated requests from disk.

    A cached completion keeps the latency measured when it was generated (flagged `cached`), so
    a re-run reports the same cost as the run that paid for it.
    """

    def __init__(self, inner: ChatModel, cache: ResponseCache) -> None:
        self.inner = inner
        self.cache = cache
        self.name = inner.name
        self.supports_logprobs = inner.supports_logprobs
        self.calls_made = 0
        self._identity: dict | None = None
        self._identity_key: str | None = None

    async def identity(self) -> dict:
        """The inner backend's identity, a model file replaced by its content hash; resolved once."""
        if self._identity is None:
            identity = dict(await model_identity(self.inner))
            if identity.get("file"):
                identity["file_sha256"] = self.cache.digests.sha256(Path(identity.pop("file")))
            self._identity = identity
            self._identity_key = hash_key(identity)
        return self._identity

    async def generate(self, messages: list[Message], params: GenerationParams) -> Completion:
        if self._identity_key is None:
            await self.identity()
        key = request_key(self._identity_key or "", messages, params)
        ledger = _LEDGER.get()
        hit = self.cache.get(key)
        if hit is not None and reply_problem(hit, params) is None:
            if ledger is not None:
                ledger.in_cache += 1
                ledger.requests.append(key)
            return hit
        stored = False
        try:
            completion = await self.inner.generate(messages, params)
            self.calls_made += 1
            if reply_problem(completion, params) is None:
                self.cache.put(key, completion)
                stored = True
        finally:
            if ledger is not None:
                ledger.in_cache += stored
                ledger.not_stored += not stored
                if stored:
                    ledger.requests.append(key)
        return completion

    def describe(self) -> dict:
        described = {**self.inner.describe(), "cache": str(self.cache.path)}
        if self._identity is not None:
            described["cache_identity"] = self._identity
        return described

    def warm_up(self, messages: list[Message]) -> None:
        warm_up(self.inner, messages)
