"""Files under factprobe's cache directory: where it is, content hashes, and a sqlite store of JSON values.

The response cache (factprobe.agents.models.cache), the retrieval caches and the media store keep
their entries here.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import sys
import threading
import time
from pathlib import Path

from factprobe.eval.core.secrets import redact_values
from factprobe.eval.store.disk_space import is_disk_full


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


def file_sha256(path: Path) -> str:
    """sha256 of a file's content (hashlib reads it in chunks)."""
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


WAL_WAIT_S = 5.0   # as long as sqlite's own busy timeout (sqlite3.connect's default)


def _use_wal(db: sqlite3.Connection) -> None:
    """Switch `db` to WAL. Processes opening one new database at the same moment (the workers of
    a split run share the response cache) each ask for it, and sqlite refuses all but one at once
    ("database is locked", without waiting out its busy timeout, to avoid a deadlock); the others
    ask again a few milliseconds later, for up to WAL_WAIT_S, by when WAL is usually already on."""
    deadline = time.monotonic() + WAL_WAIT_S
    while True:
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.005)


_FULL_SAID: set[Path] = set()   # the stores whose full disk was reported (once per file and process)


def _said_full(path: Path) -> None:
    """Say once per file that its disk is full and work goes on without storing more in it."""
    if path in _FULL_SAID:
        return
    _FULL_SAID.add(path)
    print(f"factprobe: warning: {path}: no space left on the device; continuing without storing new "
          f"entries in this cache (what is already in it is still used; free some space to cache again)",
          file=sys.stderr)


class JsonStore:
    """A sqlite table of JSON values by key; safe to share between threads of one process.

    The response cache and the retrieval-results cache both keep their entries here. A cache is
    never worth stopping for: when its disk is full, writes are skipped (said once) and reads go on.
    """

    def __init__(self, path: Path, table: str) -> None:
        self.path = path
        self.table = table
        self._lock = threading.Lock()
        self._full = False
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(path), check_same_thread=False)
            # WAL with synchronous=NORMAL: a commit appends to the log without an fsync, so a write costs
            # microseconds; a crash keeps the database consistent and loses at most the last few entries,
            # which a later run asks the model for again.
            _use_wal(self._db)
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(f"CREATE TABLE IF NOT EXISTS {table} (key TEXT PRIMARY KEY, value TEXT)")
            self._db.commit()
        except (OSError, sqlite3.Error) as exc:
            if not is_disk_full(exc):
                raise
            # no room even to create the file or table: an empty store in memory stands in
            self._full = True
            _said_full(path)
            self._db = sqlite3.connect(":memory:", check_same_thread=False)
            self._db.execute(f"CREATE TABLE {table} (key TEXT PRIMARY KEY, value TEXT)")

    def get_text(self, key: str) -> str | None:
        """The stored JSON text as it is (a caller that parses it into its own types skips a
        parse); None when absent."""
        with self._lock:
            row = self._db.execute(f"SELECT value FROM {self.table} WHERE key = ?", (key,)).fetchone()
        return None if row is None or not isinstance(row[0], str) else row[0]

    def present(self, keys: list[str]) -> set[str]:
        """Which of `keys` have an entry (one query, whatever their number up to sqlite's 32,766 parameters)."""
        if not keys:
            return set()
        marks = ",".join("?" * len(keys))
        with self._lock:
            rows = self._db.execute(f"SELECT key FROM {self.table} WHERE key IN ({marks})", keys).fetchall()
        return {row[0] for row in rows}

    def get(self, key: str) -> dict | None:
        """The stored value; None when absent or not a JSON object (a damaged entry is a miss)."""
        text = self.get_text(key)
        if text is None:
            return None
        try:
            value = json.loads(text)
        except (TypeError, ValueError):
            return None
        return value if isinstance(value, dict) else None

    def put(self, key: str, value: dict) -> None:
        self.put_text(key, json.dumps(value, ensure_ascii=False))

    def put_text(self, key: str, text: str) -> None:
        """Store JSON text under `key`, with every known secret value redacted."""
        self.put_many([(key, text)])

    def put_many(self, entries: list[tuple[str, str]]) -> None:
        """Store several (key, JSON text) entries in one transaction (a commit costs more than an
        entry), with every known secret value redacted."""
        if self._full:
            return
        rows = [(key, redact_values(text)) for key, text in entries]
        with self._lock:
            try:
                self._db.executemany(f"INSERT OR REPLACE INTO {self.table} VALUES (?, ?)", rows)
                self._db.commit()
            except (OSError, sqlite3.Error) as exc:
                if not is_disk_full(exc):
                    raise
                self._db.rollback()
                self._full = True
                _said_full(self.path)
