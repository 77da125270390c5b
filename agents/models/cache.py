"""An on-disk response cache keyed by the model's identity and the full request, around any backend.

The key names the model itself, never just its name: a backend's `identity()` (see
factprobe.agents.models.base.model_identity) is hashed in, and an identity that names a model file
(`"file": PATH`, the local backend) gets the sha256 of the file's content instead, remembered by
path, size and modification time so a file is read once. Only replies that pass
factprobe.agents.models.replies are stored, and a stored reply that fails them is never served.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from pathlib import Path

from factprobe.agents.models.base import ChatModel, Completion, GenerationParams, Message, model_identity, warm_up
from factprobe.agents.models.replies import reply_problem
from factprobe.eval.schema import TokenLogprob


def default_cache_dir() -> Path:
    """`$FACTPROBE_CACHE`, else `$XDG_CACHE_HOME/factprobe`, else `~/.cache/factprobe`."""
    if os.environ.get("FACTPROBE_CACHE"):
        return Path(os.environ["FACTPROBE_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "factprobe"


def hash_key(payload: dict) -> str:
    """sha256 of a JSON payload with sorted keys: the same request always gets the same key."""
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def request_key(model: str, messages: list[Message], params: GenerationParams) -> str:
    """sha256 of the model's identity key, every message and every generation setting (sample
    index and seed too)."""
    return hash_key({"model": model, "messages": messages, "params": params.as_dict()})


def file_sha256(path: Path) -> str:
    """sha256 of a file's content (hashlib reads it in chunks)."""
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


class JsonStore:
    """A sqlite table of JSON values by key; safe to share between threads of one process.

    The response cache and the retrieval-results cache both keep their entries here.
    """

    def __init__(self, path: Path, table: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.table = table
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False)
        # WAL with synchronous=NORMAL: a commit appends to the log without an fsync, so a write costs
        # microseconds; a crash keeps the database consistent and loses at most the last few entries,
        # which a later run asks the model for again.
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(f"CREATE TABLE IF NOT EXISTS {table} (key TEXT PRIMARY KEY, value TEXT)")
        self._db.commit()

    def get(self, key: str) -> dict | None:
        """The stored value; None when absent or not a JSON object (a damaged entry is a miss)."""
        with self._lock:
            row = self._db.execute(f"SELECT value FROM {self.table} WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        try:
            value = json.loads(row[0])
        except (TypeError, ValueError):
            return None
        return value if isinstance(value, dict) else None

    def put(self, key: str, value: dict) -> None:
        text = json.dumps(value, ensure_ascii=False)
        with self._lock:
            self._db.execute(f"INSERT OR REPLACE INTO {self.table} VALUES (?, ?)", (key, text))
            self._db.commit()


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
        hit = self.cache.get(key)
        if hit is not None and reply_problem(hit, params) is None:
            return hit
        completion = await self.inner.generate(messages, params)
        self.calls_made += 1
        if reply_problem(completion, params) is None:
            self.cache.put(key, completion)
        return completion

    def describe(self) -> dict:
        described = {**self.inner.describe(), "cache": str(self.cache.path)}
        if self._identity is not None:
            described["cache_identity"] = self._identity
        return described

    def warm_up(self, messages: list[Message]) -> None:
        warm_up(self.inner, messages)
