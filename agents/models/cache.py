"""An on-disk response cache keyed by the full request, wrapped around any backend."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from pathlib import Path

from factprobe.agents.models.base import ChatModel, Completion, GenerationParams, Message, warm_up
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


def request_key(model_name: str, messages: list[Message], params: GenerationParams) -> str:
    """sha256 of the model, every message and every generation setting (sample index and seed too)."""
    return hash_key({"model": model_name, "messages": messages, "params": params.as_dict()})


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
        self._db.execute(f"CREATE TABLE IF NOT EXISTS {table} (key TEXT PRIMARY KEY, value TEXT)")
        self._db.commit()

    def get(self, key: str) -> dict | None:
        with self._lock:
            row = self._db.execute(f"SELECT value FROM {self.table} WHERE key = ?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def put(self, key: str, value: dict) -> None:
        text = json.dumps(value, ensure_ascii=False)
        with self._lock:
            self._db.execute(f"INSERT OR REPLACE INTO {self.table} VALUES (?, ?)", (key, text))
            self._db.commit()


class ResponseCache:
    """Completions on disk, one JSON entry per request key."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._store = JsonStore(path, "completions")

    def get(self, key: str) -> Completion | None:
        data = self._store.get(key)
        if data is None:
            return None
        if data.get("logprobs") is not None:
            data["logprobs"] = [TokenLogprob.model_validate(t) for t in data["logprobs"]]
        return Completion(**data, cached=True)

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

    async def generate(self, messages: list[Message], params: GenerationParams) -> Completion:
        key = request_key(self.name, messages, params)
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        completion = await self.inner.generate(messages, params)
        self.calls_made += 1
        self.cache.put(key, completion)
        return completion

    def describe(self) -> dict:
        return {**self.inner.describe(), "cache": str(self.cache.path)}

    def warm_up(self, messages: list[Message]) -> None:
        warm_up(self.inner, messages)
