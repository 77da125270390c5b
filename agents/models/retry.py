"""Retries of the SDK-backed backends, with the one retry policy (factprobe.eval.core.retry).

Each attempt runs under the policy's request timeout, which covers the whole response: a server
that trickles its body a byte at a time is cut off like one that never answers (the SDKs' own
timeout is per read). Transient failures -- timeouts, connection errors, 408, 409, 429, 5xx and
invalid replies (a 200 whose body is not UTF-8 or not JSON, or whose usage counts are not counts,
included, whichever SDK parsed it) -- are retried at most `max_retries` times, waiting what the
server's `retry-after-ms`/`Retry-After` header asks (capped), else an exponential backoff with
jitter. The SDKs' own retries are off: they cannot see invalid replies or the deadline.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Any, TypeVar

from factprobe.agents.models.base import ModelError
from factprobe.agents.models.replies import InvalidReply
from factprobe.agents.models.sdk_client import describe_failure
from factprobe.eval.core.retry import AttemptTimeout, RetryPolicy, retry_call_async

__all__ = ["RETRY_STATUSES", "RetryPolicy", "is_transient", "retry_after_s", "with_retries"]

T = TypeVar("T")
RETRY_STATUSES = frozenset({408, 409, 429})


def is_transient(exc: BaseException, connection_errors: tuple[type[BaseException], ...]) -> bool:
    """Whether another attempt may succeed: timeouts, connection errors, 408/409/429/5xx, bad replies."""
    if isinstance(exc, (AttemptTimeout, InvalidReply, *connection_errors)):
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
    retried = 0

    async def parsed() -> T:
        try:
            return await attempt()
        except json.JSONDecodeError as exc:  # a 200 whose body is not JSON: the SDK's parse failed
            raise InvalidReply(f"malformed reply: {exc}") from None
        except UnicodeDecodeError as exc:  # a 200 whose body is not UTF-8: json.loads of its bytes failed
            raise InvalidReply(f"malformed reply: not UTF-8 ({exc.reason} at byte {exc.start})") from None

    def counted(exc: BaseException) -> None:
        nonlocal retried
        retried += 1
        if on_retry is not None:
            on_retry(exc)

    try:
        return await retry_call_async(parsed, policy, lambda exc: is_transient(exc, connection_errors),
                                      asked=retry_after_s, on_retry=counted)
    except Exception as exc:  # anything that ends the call becomes one ModelError line
        detail = describe_failure(exc) + (" (--request-timeout)" if isinstance(exc, AttemptTimeout) else "")
        tries = f" (after {retried + 1} attempts)" if retried else ""
        raise ModelError(f"{label}: {detail}{tries}") from exc
