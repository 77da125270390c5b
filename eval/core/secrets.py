"""Secrets never reach a file or a terminal, whatever their shape.

Redaction is by value first: every secret the process was given is remembered, with the forms it
takes on its way out, and replaced wherever text is written or printed, so a key without a
recognisable shape (what vLLM, llama.cpp servers and gateways accept) is caught too. Remembered:
the value of each environment variable named like a credential (`OPENAI_API_KEY`, `HF_TOKEN`,
`…_SECRET`, `…_PASSWORD`); in any URL the process was handed (a model spec, a sweep grid, a
config) or finds in a variable named like one (`OPENAI_BASE_URL`, `ANTHROPIC_BASE_URL`, `…_PROXY`),
its user and password (a user alone too, `http://TOKEN@host`), every query value (`?code=`,
`?api_key=`, …) and the HTTP Basic credentials a client builds from the userinfo
(base64 of `user:password`). Each value's derived forms are remembered with it: percent-encoded
and decoded, JSON- and HTML-escaped. Text is redacted before it is cut (`clip`), so a cut never
keeps the start of a secret. Error texts additionally go through shape patterns (`sk-…`,
`Bearer …`, long opaque tokens) for keys the process was never given but a server echoed anyway
(factprobe.eval.core.redact); rich consoles redact before their layout (factprobe.eval.core.console).

A hand-written module: the values are exact strings and the shapes are short one-liners; no
maintained library redacts free text without a model or a network call.
"""

from __future__ import annotations

import base64
import html
import io
import json
import logging
import os
import re
import sys
import traceback
from contextlib import contextmanager
from functools import lru_cache
from types import TracebackType
from typing import Iterable, Iterator, TextIO
from urllib.parse import parse_qsl, quote, quote_plus, unquote, unquote_plus, urlsplit

REDACTED = "[redacted]"
MIN_SECRET_CHARS = 6            # shorter values (`1`, `true`) would redact ordinary words
_SECRET_VARIABLE = re.compile(r"(?:^|_)(?:API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|CREDENTIALS?)$",
                              re.IGNORECASE)
_URL_VARIABLE = re.compile(r"(?:^|_)(?:URL|URI|ENDPOINT|PROXY|HOST|DSN|ADDRESS)$", re.IGNORECASE)
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://[^\s,'\"<>]+")
_given: set[str] = set()        # remembered secrets, each with its derived forms
_compiled: tuple[frozenset[str], re.Pattern[str] | None] = (frozenset(), None)
_environment_seen: tuple[dict | None, frozenset[str]] = (None, frozenset())


def derived_forms(value: str) -> set[str]:
    """`value` and the forms it takes on its way out: percent-encoded (in a URL's userinfo, path or
    query; `+` for a space in a query) and percent-decoded (a URL's text as a client reads it); the
    forms shorter than MIN_SECRET_CHARS left out."""
    forms = {value, quote(value, safe=""), quote(value), quote_plus(value, safe=""), unquote(value),
             unquote_plus(value)}
    return {form for form in forms if len(form) >= MIN_SECRET_CHARS}


def url_secrets(url: str) -> set[str]:
    """The secrets `url` carries, with their derived forms: its user and password (a user alone
    too, `http://TOKEN@host`), every query value, and the HTTP Basic credentials a client sends
    for the userinfo (base64 of `user:password`, as written and percent-decoded, with and without
    its padding). Empty for text that is not a URL."""
    try:
        parts = urlsplit(url)
        user, password = parts.username, parts.password
        values = [value for _, value in parse_qsl(parts.query)]
    except ValueError:           # not a URL after all: nothing to remember
        return set()
    found: set[str] = set()
    if user is not None or password is not None:
        user, password = user or "", password or ""
        values += [user, password]
        for pair in (f"{user}:{password}", f"{unquote(user)}:{unquote(password)}"):
            token = base64.b64encode(pair.encode("utf-8")).decode("ascii")
            found |= {token, token.rstrip("=")}
    found |= {form for value in values for form in derived_forms(value)}
    return {form for form in found if len(form) >= MIN_SECRET_CHARS}


def remember(value: str | None) -> None:
    """Treat `value` and its derived forms as secrets from now on (ignored when shorter than
    MIN_SECRET_CHARS)."""
    if value and len(value) >= MIN_SECRET_CHARS:
        _given.update(derived_forms(value))


def forget() -> None:
    """Forget the remembered secrets (environment variables are read afresh on every use)."""
    _given.clear()


def remember_in_url(url: str) -> None:
    """Remember the secrets a URL carries (url_secrets)."""
    _given.update(url_secrets(url))


def remember_in_args(args: Iterable[str]) -> None:
    """Remember the secrets inside every URL among command-line arguments (model specs)."""
    for arg in args:
        for url in _URL.findall(arg):
            remember_in_url(url)


def remember_in_data(value: object) -> None:
    """Remember the secrets inside every URL in a config's values: a string, or the strings in
    its lists and mappings, at any depth (a sweep grid, a run's options)."""
    if isinstance(value, str):
        remember_in_args([value])
    elif isinstance(value, dict):
        for item in value.values():
            remember_in_data(item)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            remember_in_data(item)


@lru_cache(maxsize=4096)
def _variable_kind(name: str) -> str | None:
    """Whether an environment variable is named like a credential ("credential") or like a place
    that may carry one in its URL ("url"); None for neither (remembered: this runs for every
    variable each time the environment changed, and the names rarely change)."""
    if _SECRET_VARIABLE.search(name):
        return "credential"
    return "url" if _URL_VARIABLE.search(name) else None


def _variable_secrets(kind: str, value: str) -> set[str]:
    if kind == "credential":
        return derived_forms(value) if len(value) >= MIN_SECRET_CHARS else set()
    return {form for url in _URL.findall(value) for form in url_secrets(url)}


def _environment_secrets() -> frozenset[str]:
    """The secrets in the environment (credential-named variables, URLs in URL-named ones) with
    their derived forms, read again only when the environment changed: os.environ's underlying
    mapping is compared with a copy kept from the last reading (one dict comparison in C, where
    reading means decoding every variable; this runs for every row)."""
    global _environment_seen
    data = getattr(os.environ, "_data", None)   # CPython's mapping; elsewhere read every time
    if data is not None and _environment_seen[0] == data:
        return _environment_seen[1]
    environ = os.environ
    found = frozenset(form for name in environ if (kind := _variable_kind(name))
                      for form in _variable_secrets(kind, environ[name]))
    _environment_seen = (dict(data) if data is not None else None, found)
    return found


def secret_values() -> frozenset[str]:
    """Every secret known now, in every derived form: remembered ones and the environment's."""
    return _environment_secrets() | _given


def _pattern() -> re.Pattern[str] | None:
    """One alternation of every secret (and its JSON- and HTML-escaped forms), longest first;
    rebuilt when the set of secrets changes."""
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


def secret_spans(text: str) -> list[tuple[int, int]]:
    """Where known secret values stand in `text`: (start, end) of each, in order."""
    pattern = _pattern()
    return [] if pattern is None else [match.span() for match in pattern.finditer(text)]


def clip(text: str, limit: int, ellipsis: str = "") -> str:
    """`text` with secret values redacted, then cut to at most `limit` characters, the last ones
    `ellipsis` when it was cut: redacted first, a cut never keeps the start of a secret."""
    text = redact_values(text)
    return text if len(text) <= limit else text[:max(0, limit - len(ellipsis))] + ellipsis


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


class RedactingFilter(logging.Filter):
    """A log record's message, traceback and stack redacted before any handler formats it (a
    handler's stream may be a file, or the terminal as it was before redacted_output)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = redact_values(record.getMessage()), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact_values(record.exc_text)
        if record.stack_info:
            record.stack_info = redact_values(record.stack_info)
        return True


_LOG_FILTER = RedactingFilter()


def _log_handlers() -> list[logging.Handler]:
    """Every handler of every logger there is now, the root's included."""
    loggers = [logging.getLogger(), *(logger for logger in list(logging.Logger.manager.loggerDict.values())
                                      if isinstance(logger, logging.Logger))]
    return list(dict.fromkeys(handler for logger in loggers for handler in logger.handlers))


def print_redacted_traceback(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
    """A `sys.excepthook` printing the uncaught exception's traceback with secret values redacted
    (the interpreter prints it after every redacting block has ended)."""
    sys.stderr.write(redact_values("".join(traceback.format_exception(kind, value, tb))))


@contextmanager
def redacted_output() -> Iterator[None]:
    """Within the block, everything printed to stdout and stderr and every log record has secret
    values redacted."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = RedactingStream(saved[0]), RedactingStream(saved[1])
    filtered = [handler for handler in _log_handlers() if _LOG_FILTER not in handler.filters]
    for handler in filtered:
        handler.addFilter(_LOG_FILTER)
    try:
        yield
    finally:
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        sys.stdout, sys.stderr = saved
        for handler in filtered:
            handler.removeFilter(_LOG_FILTER)
