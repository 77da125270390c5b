"""Shared plumbing of the SDK-backed backends: a client per event loop, one-line failures."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

from factprobe.eval.core.redact import redact
from factprobe.eval.core.secrets import clip


async def _close_at_shutdown(client: Any) -> AsyncIterator[None]:
    try:
        yield
    finally:
        await client.close()


class LoopBoundClient:
    """Holds one SDK client (AsyncOpenAI, AsyncAnthropic) for the running event loop.

    An httpx connection pool belongs to the loop it was opened on: reused on a later loop (a
    second `asyncio.run`) it fails with "Event loop is closed". So each loop gets its own client,
    and an async generator parked on that loop closes the client when the loop finalises its
    generators (`asyncio.run` does so before closing), leaving no sockets open.
    """

    def __init__(self, factory: Callable[[], Any]) -> None:
        self._factory = factory
        self._client: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closer: AsyncIterator[None] | None = None

    async def get(self) -> Any:
        loop = asyncio.get_running_loop()
        if self._client is None or self._loop is not loop:
            self._client, self._loop = self._factory(), loop
            self._closer = _close_at_shutdown(self._client)
            await self._closer.__anext__()
        return self._client


def describe_failure(exc: BaseException, limit: int = 300) -> str:
    """`Type: message (Cause: message)` on one line, redacted, then cut at `limit` characters (a cut
    never keeps the start of a secret)."""
    text = f"{type(exc).__name__}: {exc}"
    if exc.__cause__ is not None:
        text += f" ({type(exc.__cause__).__name__}: {exc.__cause__})"
    return clip(redact(" ".join(text.split())), limit + len("..."), "...")
