"""Secrets never reach a file or a terminal, whatever their shape.

Redaction is by value first: every secret the process was given — the value of each environment
variable named like a credential (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`, `HF_TOKEN`, `…_SECRET`,
`…_PASSWORD`), and the password, user or key-like query value of any URL it was handed (a model
spec's `user:pass@host`, `?key=…`) — is replaced wherever text is written or printed, so a key
without a recognisable shape (what vLLM, llama.cpp servers and gateways accept) is caught too.
Error texts additionally go through shape patterns (`sk-…`, `Bearer …`, long opaque tokens) for
keys the process was never given but a server echoed anyway (factprobe.eval.core.redact).

A hand-written module: the values are exact strings and the shapes are short one-liners; no
maintained library redacts free text without a model or a network call.
"""

from __future__ import annotations

import html
import io
import json
import os
import re
import sys
from contextlib import contextmanager
from functools import lru_cache
from typing import Iterable, Iterator, TextIO
from urllib.parse import parse_qsl, urlsplit

REDACTED = "[redacted]"
MIN_SECRET_CHARS = 6            # shorter values (`1`, `true`) would redact ordinary words
_SECRET_VARIABLE = re.compile(r"(?:^|_)(?:API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|CREDENTIALS?)$",
                              re.IGNORECASE)
_SECRET_PARAMETER = re.compile(r"^(?:api[_-]?key|key|token|access[_-]?token|secret|password|sig|signature)$",
                               re.IGNORECASE)
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://[^\s,'\"<>]+")
_given: set[str] = set()
_compiled: tuple[frozenset[str], re.Pattern[str] | None] = (frozenset(), None)
_environment_seen: tuple[dict | None, frozenset[str]] = (None, frozenset())


def remember(value: str | None) -> None:
    """Treat `value` as a secret from now on (ignored when shorter than MIN_SECRET_CHARS)."""
    if value and len(value) >= MIN_SECRET_CHARS:
        _given.add(value)


def forget() -> None:
    """Forget the remembered secrets (environment variables are read afresh on every use)."""
    _given.clear()


def remember_in_url(url: str) -> None:
    """Remember a URL's user, password and key-like query values."""
    try:
        parts = urlsplit(url)
        remember(parts.password)
        if parts.password:
            remember(parts.username)
        for name, value in parse_qsl(parts.query):
            if _SECRET_PARAMETER.match(name):
                remember(value)
    except ValueError:           # not a URL after all: nothing to remember
        return


def remember_in_args(args: Iterable[str]) -> None:
    """Remember the secrets inside every URL among command-line arguments (model specs)."""
    for arg in args:
        for url in _URL.findall(arg):
            remember_in_url(url)


@lru_cache(maxsize=4096)
def _credential_name(name: str) -> bool:
    """Whether an environment variable is named like a credential (remembered: this runs for every
    variable each time a row is written, and the names rarely change)."""
    return _SECRET_VARIABLE.search(name) is not None


def _environment_secrets() -> frozenset[str]:
    """The values of credential-named environment variables, read again only when the environment
    changed: os.environ's underlying mapping is compared with a copy kept from the last reading (one
    dict comparison in C, where reading means decoding every variable; this runs for every row)."""
    global _environment_seen
    data = getattr(os.environ, "_data", None)   # CPython's mapping; elsewhere read every time
    if data is not None and _environment_seen[0] == data:
        return _environment_seen[1]
    environ = os.environ
    found = frozenset(value for name in environ if _credential_name(name)
                      if len(value := environ[name]) >= MIN_SECRET_CHARS)
    _environment_seen = (dict(data) if data is not None else None, found)
    return found


def secret_values() -> frozenset[str]:
    """Every secret known now: remembered ones and credential-named environment variables."""
    return _environment_secrets() | _given


def _pattern() -> re.Pattern[str] | None:
    """One alternation of every secret (and its JSON-escaped form), longest first; rebuilt when
    the set of secrets changes."""
    global _compiled
    values = secret_values()
    if values != _compiled[0]:
        forms = {form for value in values for form in (value, json.dumps(value)[1:-1], html.escape(value))}
        ordered = sorted(forms, key=len, reverse=True)
        _compiled = (values, re.compile("|".join(map(re.escape, ordered))) if ordered else None)
    return _compiled[1]


def redact_values(text: str) -> str:
    """`text` with every known secret value replaced by [redacted] (for files and output)."""
    pattern = _pattern()
    return pattern.sub(REDACTED, text) if pattern is not None else text


class RedactingStream(io.TextIOBase):
    """A text stream that writes to `inner` with secret values redacted, a line at a time (a secret
    split over two writes is still caught); a flush passes on what is held."""

    def __init__(self, inner: TextIO) -> None:
        self.inner = inner
        self._held = ""

    def write(self, text: str) -> int:
        self._held += text
        cut = max(self._held.rfind("\n"), self._held.rfind("\r")) + 1
        if cut:
            self.inner.write(redact_values(self._held[:cut]))
            self._held = self._held[cut:]
        return len(text)

    def flush(self) -> None:
        if self._held:
            self.inner.write(redact_values(self._held))
            self._held = ""
        self.inner.flush()

    def isatty(self) -> bool:
        return self.inner.isatty()

    def fileno(self) -> int:
        return self.inner.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.inner, "encoding", "utf-8")


@contextmanager
def redacted_output() -> Iterator[None]:
    """Within the block, everything printed to stdout and stderr has secret values redacted."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = RedactingStream(saved[0]), RedactingStream(saved[1])
    try:
        yield
    finally:
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        sys.stdout, sys.stderr = saved
