"""Calls to online search services with a deadline, bounded retries (the one retry policy,
factprobe.eval.core.retry) and a clear "no network" error."""

from __future__ import annotations

import threading
from typing import Callable, TypeVar

from factprobe.eval.core.retry import RetryPolicy, retry_call
from factprobe.retrieval.base import RetrievalError

T = TypeVar("T")


class TransientError(Exception):
    """A failure worth retrying: no connection, a timeout, a rate limit, a 5xx."""


def call_with_deadline(function: Callable[[], T], timeout_s: float) -> T:
    """Run `function` in a daemon thread and wait at most `timeout_s` seconds for it.

    For clients that take no timeout of their own (the `wikipedia` package calls requests.get
    without one): the caller is released at the deadline; the abandoned thread ends with its socket.
    """
    outcome: dict[str, object] = {}

    def target() -> None:
        try:
            outcome["value"] = function()
        except BaseException as exc:  # handed to the caller below
            outcome["error"] = exc

    worker = threading.Thread(target=target, daemon=True, name="factprobe-retrieval")
    worker.start()
    worker.join(timeout_s)
    if worker.is_alive():
        raise TransientError(f"no answer within {timeout_s:g} s")
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["value"]  # type: ignore[return-value]


def with_retries(source: str, service: str, attempt: Callable[[], T], *, retries: int,
                 backoff_s: float) -> T:
    """`attempt()` up to 1 + `retries` times while it raises TransientError, waiting about
    backoff_s · 2^i (with jitter) between tries; then a RetrievalError saying the service could not
    be reached. Any other failure is raised as it is."""
    policy = RetryPolicy(max_retries=retries, backoff_s=backoff_s)
    try:
        return retry_call(attempt, policy, lambda exc: isinstance(exc, TransientError))
    except TransientError as last:
        raise RetrievalError(source, f"no network? {service} could not be reached after {retries + 1} "
                             f"attempt(s) ({last}). Retrieval from {source} needs internet access; "
                             f"offline, use --retriever bm25 (the local corpus)") from last
