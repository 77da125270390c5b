"""The one retry policy (factprobe.eval.core.retry), blocking and async: bounded attempts, the
server's wait honoured and capped, a lasting or non-transient failure raised as it is."""

from __future__ import annotations

import asyncio
import time

import pytest

from factprobe.eval.core.retry import AttemptTimeout, RetryPolicy, retry_call, retry_call_async

FAST = RetryPolicy(max_retries=2, backoff_s=0.0)


class Flaky(Exception):
    pass


def failing_then(value: str, failures: int, error: type[Exception] = Flaky):
    calls: list[float] = []

    def attempt() -> str:
        calls.append(time.perf_counter())
        if len(calls) <= failures:
            raise error(f"failure {len(calls)}")
        return value

    return attempt, calls


def is_flaky(exc: BaseException) -> bool:
    return isinstance(exc, Flaky)


def test_a_transient_failure_is_retried_and_each_retry_reported() -> None:
    attempt, calls = failing_then("ok", failures=2)
    retried: list[str] = []
    assert retry_call(attempt, FAST, is_flaky, on_retry=lambda exc: retried.append(str(exc))) == "ok"
    assert len(calls) == 3 and retried == ["failure 1", "failure 2"]


def test_a_lasting_failure_stops_after_one_plus_max_retries_and_is_raised_as_it_is() -> None:
    attempt, calls = failing_then("never", failures=10)
    with pytest.raises(Flaky, match="failure 3"):
        retry_call(attempt, FAST, is_flaky)
    assert len(calls) == 3


def test_a_failure_that_is_not_transient_is_not_retried() -> None:
    attempt, calls = failing_then("never", failures=10, error=KeyError)
    with pytest.raises(KeyError):
        retry_call(attempt, FAST, is_flaky)
    assert len(calls) == 1


def test_the_wait_the_server_asks_is_honoured_and_capped() -> None:
    attempt, calls = failing_then("ok", failures=1)
    retry_call(attempt, RetryPolicy(max_retries=1, backoff_s=5.0), is_flaky, asked=lambda exc: 0.3)
    assert 0.28 <= calls[1] - calls[0] < 2.0                          # not the 5 s backoff
    attempt, calls = failing_then("ok", failures=1)
    retry_call(attempt, RetryPolicy(max_retries=1, retry_after_cap_s=0.1), is_flaky, asked=lambda exc: 3600.0)
    assert calls[1] - calls[0] < 1.0


def test_the_backoff_doubles_up_to_its_cap_with_bounded_jitter() -> None:
    policy = RetryPolicy(backoff_s=1.0, backoff_cap_s=3.0, jitter=0.25)
    for attempt, full in [(0, 1.0), (1, 2.0), (2, 3.0), (5, 3.0)]:
        assert all(0.75 * full <= policy.backoff(attempt) <= full for _ in range(50))


def test_an_async_attempt_is_cut_at_the_request_timeout_and_retried() -> None:
    calls: list[int] = []

    async def attempt() -> str:
        calls.append(1)
        if len(calls) == 1:
            await asyncio.sleep(10)
        return "ok"

    policy = RetryPolicy(request_timeout=0.2, max_retries=1, backoff_s=0.0)
    started = time.perf_counter()
    result = asyncio.run(retry_call_async(attempt, policy, lambda exc: isinstance(exc, AttemptTimeout)))
    assert result == "ok" and len(calls) == 2 and time.perf_counter() - started < 2.0


def test_a_blocking_call_cannot_be_given_a_deadline_it_cannot_enforce() -> None:
    with pytest.raises(ValueError, match="own timeout"):
        retry_call(lambda: "x", RetryPolicy(request_timeout=1.0), is_flaky)
