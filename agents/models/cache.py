"""An on-disk response cache keyed by the full request, wrapped around any backend."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from pathlib import Path

from agents.models.base import ChatModel, Completion, GenerationParams, Message
from eval.schema import TokenLogprob


def default_cache_dir() -> Path:
    """`$FACTPROBE_CACHE`, else `$XDG_CACHE_HOME/factprobe`, else `~/.cache/factprobe`."""
    if os.environ.get("FACTPROBE_CACHE"):
        return Path(os.environ["FACTPROBE_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "factprobe"


def request_key(model_name: str, messages: list[Message], params: GenerationParams) -> str:
    """sha256 of the model, every message and every generation setting (sample index and seed too)."""
    payload = json.dumps({"model": model_name, "messages": messages, "params": params.as_dict()},
                         sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


class ResponseCache:
    """A small sqlite table of completions; safe to share between threads of one process."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False)
        self._db.execute("CREATE TABLE IF NOT EXISTS completions (key TEXT PRIMARY KEY, value TEXT)")
        self._db.commit()

    def get(self, key: str) -> Completion | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM completions WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        data = json.loads(row[0])
        if data.get("logprobs") is not None:
            data["logprobs"] = [TokenLogprob.model_validate(t) for t in data["logprobs"]]
        return Completion(**data, cached=True)

    def put(self, key: str, completion: Completion) -> None:
        data = {
            "text": completion.text, "model": completion.model,
            "prompt_tokens": completion.prompt_tokens,
            "completion_tokens": completion.completion_tokens,
            "latency_s": completion.latency_s, "finish_reason": completion.finish_reason,
            "logprobs": None if completion.logprobs is None
            else [t.model_dump() for t in completion.logprobs],
        }
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO completions VALUES (?, ?)",
                             (key, json.dumps(data, ensure_ascii=False)))
            self._db.commit()


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
