"""The one retry policy, for blocking and async calls alike (model backends, online retrieval).

A call is tried at most 1 + `max_retries` times. After a failure the caller calls transient, it
waits what the server asked for (capped at `retry_after_cap_s`), else an exponential backoff
with jitter capped at `backoff_cap_s`; any other failure ends the call at once. An async attempt
may also have a deadline covering its whole response (`request_timeout`). The loop itself is
tenacity's; the caller supplies what only it knows: which failures are transient, the wait the
server named, and what to do on each retry (count it).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from tenacity import AsyncRetrying, RetryCallState, Retrying, retry_if_exception, stop_after_attempt

T = TypeVar("T")


@dataclass(frozen=True)
class RetryPolicy:
    """How often a transient failure is retried, how long to wait, and one attempt's deadline."""

    request_timeout: float | None = None   # seconds for one async attempt's whole response
    max_retries: int = 4
    backoff_s: float = 0.5
    backoff_cap_s: float = 8.0
    retry_after_cap_s: float = 60.0
    jitter: float = 0.25                   # each backoff is scaled by a uniform draw in [1 - jitter, 1]

    def backoff(self, attempt: int) -> float:
        """The wait after failed attempt `attempt` (0-based) when the server named none."""
        return min(self.backoff_cap_s, self.backoff_s * 2 ** attempt) * random.uniform(1 - self.jitter, 1.0)

    def wait(self, attempt: int, asked: float | None) -> float:
        """The wait after failed attempt `attempt`: what the server `asked` (capped), else the backoff."""
        return self.backoff(attempt) if asked is None else max(0.0, min(asked, self.retry_after_cap_s))


class AttemptTimeout(TimeoutError):
    """An async attempt that gave no complete response within the policy's request timeout."""


@dataclass
class RetryTally:
    """Every retry this process has made so far and the last one's cause ("HTTP 429", "timeout"):
    a run's progress line shows them, so a run slowed by a rate limit says why."""

    count: int = 0
    last: str = ""

    def add(self, exc: BaseException) -> None:
        status = getattr(exc, "status_code", None)
        self.count += 1
        self.last = (f"HTTP {status}" if isinstance(status, int) else "timeout" if isinstance(exc, AttemptTimeout)
                     else type(exc).__name__)


RETRIES = RetryTally()


def _settings(policy: RetryPolicy, transient: Callable[[BaseException], bool],
              asked: Callable[[BaseException], float | None] | None,
              on_retry: Callable[[BaseException], None] | None) -> dict[str, Any]:
    def failure(state: RetryCallState) -> BaseException:
        exc = state.outcome.exception() if state.outcome is not None else None
        assert exc is not None, "tenacity waits and retries only after a failed attempt here"
        return exc

    def wait(state: RetryCallState) -> float:
        exc = failure(state)
        return policy.wait(state.attempt_number - 1, asked(exc) if asked is not None else None)

    def before_sleep(state: RetryCallState) -> None:
        RETRIES.add(failure(state))
        if on_retry is not None:
            on_retry(failure(state))

    return {"stop": stop_after_attempt(policy.max_retries + 1), "wait": wait,
            "retry": retry_if_exception(transient), "before_sleep": before_sleep, "reraise": True}


def retry_call(attempt: Callable[[], T], policy: RetryPolicy, transient: Callable[[BaseException], bool], *,
               asked: Callable[[BaseException], float | None] | None = None,
               on_retry: Callable[[BaseException], None] | None = None) -> T:
    """`attempt()`'s result, retried while it raises a `transient` failure; the last failure is
    raised as it is. A blocking attempt bounds its own time (a client timeout, or a deadline
    thread), so `policy.request_timeout` must be None here."""
    if policy.request_timeout is not None:
        raise ValueError("retry_call cannot cut a blocking attempt: give the client its own timeout")
    return Retrying(**_settings(policy, transient, asked, on_retry))(attempt)


async def retry_call_async(attempt: Callable[[], Awaitable[T]], policy: RetryPolicy,
                           transient: Callable[[BaseException], bool], *,
                           asked: Callable[[BaseException], float | None] | None = None,
                           on_retry: Callable[[BaseException], None] | None = None) -> T:
    """As `retry_call` for a coroutine; each attempt is cut at `policy.request_timeout` seconds
    (AttemptTimeout, which `transient` decides about like any other failure)."""
    timeout = policy.request_timeout

    async def timed() -> T:
        if timeout is None:
            return await attempt()
        try:
            async with asyncio.timeout(timeout):  # covers the whole response, a trickling body too
                return await attempt()
        except TimeoutError:
            raise AttemptTimeout(f"no complete response within {timeout:g} s") from None

    return await AsyncRetrying(**_settings(policy, transient, asked, on_retry))(timed)
