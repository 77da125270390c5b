"""Bounded retries with one deadline per attempt, for the SDK-backed backends.

Each attempt runs under `asyncio.timeout(request_timeout)`, which covers the whole response: a
server that trickles its body a byte at a time is cut off like one that never answers (the SDKs'
own timeout is per read). Transient failures -- timeouts, connection errors, 408, 409, 429, 5xx
and invalid replies -- are retried at most `max_retries` times, waiting what the server's
`retry-after-ms`/`Retry-After` header asks (capped), else an exponential backoff with jitter.
Written here rather than with a retry library because the wait comes from the SDK's exception
(its response headers) and the SDKs' own retries cannot see invalid replies or the deadline.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Any, TypeVar

from factprobe.agents.models.base import ModelError
from factprobe.agents.models.replies import InvalidReply
from factprobe.agents.models.sdk_client import describe_failure

T = TypeVar("T")
RETRY_STATUSES = frozenset({408, 409, 429})


@dataclass(frozen=True)
class RetryPolicy:
    """How long one attempt may take and how often a transient failure is retried."""

    request_timeout: float = 120.0
    max_retries: int = 4
    backoff_s: float = 0.5
    backoff_cap_s: float = 8.0
    retry_after_cap_s: float = 60.0

    def backoff(self, attempt: int) -> float:
        """The wait after failed attempt `attempt` (0-based) when the server named none."""
        return min(self.backoff_cap_s, self.backoff_s * 2 ** attempt) * random.uniform(0.75, 1.0)


class RequestTimeout(ModelError):
    """No complete response within the request timeout."""


def is_transient(exc: BaseException, connection_errors: tuple[type[BaseException], ...]) -> bool:
    """Whether another attempt may succeed: timeouts, connection errors, 408/409/429/5xx, bad replies."""
    if isinstance(exc, (RequestTimeout, InvalidReply, *connection_errors)):
        return True
    status = getattr(exc, "status_code", None)
    return isinstance(status, int) and (status in RETRY_STATUSES or status >= 500)


def retry_after_s(exc: BaseException) -> float | None:
    """The wait the server asked for in `retry-after-ms` or `Retry-After` (seconds or a date)."""
    headers: Any = getattr(getattr(exc, "response", None), "headers", None)
    if not headers:
        return None
    try:
        if headers.get("retry-after-ms") is not None:
            return float(headers["retry-after-ms"]) / 1000
        value = headers.get("retry-after")
        if value is None:
            return None
        try:
            return float(value)
        except ValueError:
            return (parsedate_to_datetime(value) - datetime.now(timezone.utc)).total_seconds()
    except (TypeError, ValueError):
        return None


async def with_retries(attempt: Callable[[], Awaitable[T]], policy: RetryPolicy, label: str,
                       connection_errors: tuple[type[BaseException], ...] = (),
                       on_retry: Callable[[BaseException], None] | None = None) -> T:
    """`attempt()`'s result, retried on transient failures; ModelError (one line naming `label`)
    once it fails for good."""
    for number in range(policy.max_retries + 1):
        try:
            try:
                async with asyncio.timeout(policy.request_timeout):  # no extra task, unlike wait_for
                    return await attempt()
            except TimeoutError:
                raise RequestTimeout(f"no complete response within {policy.request_timeout:g} s "
                                     f"(--request-timeout)") from None
        except Exception as exc:  # classified below; anything not transient ends the call
            last = number == policy.max_retries
            if last or not is_transient(exc, connection_errors):
                tries = f" (after {number + 1} attempts)" if number else ""
                raise ModelError(f"{label}: {describe_failure(exc)}{tries}") from exc
            if on_retry is not None:
                on_retry(exc)
            asked = retry_after_s(exc)
            wait = policy.backoff(number) if asked is None else max(0.0, min(asked, policy.retry_after_cap_s))
            await asyncio.sleep(wait)
    raise AssertionError("unreachable: the loop returns or raises")
