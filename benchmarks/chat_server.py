"""A stand-in OpenAI-compatible server on 127.0.0.1 for benchmarks and tests.

`POST /v1/chat/completions` waits a fixed delay, then answers a fixed short reply with usage
numbers. `GET /v1/models` lists one model, `bench`. `GET /stats` tells how many requests arrived
and when the first one did (wall clock, `time.time()`), so a benchmark can time a client from its
process start to its first request; `POST /stats/reset` starts the count again. Run it as a process
with `ChatServer`, which reads the port the server bound from its first line of output.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field

from aiohttp import web

REPLY = "Answer: Paris\nConfidence: 80"
SERVED_MODEL = "bench"


@dataclass
class Counters:
    requests: int = 0
    first_at: float | None = None
    models: dict[str, int] = field(default_factory=dict)


def make_app(delay_s: float, reply: str = REPLY) -> web.Application:
    """The aiohttp application: chat completions after `delay_s`, plus /stats."""
    counters = Counters()

    async def completions(request: web.Request) -> web.Response:
        if counters.first_at is None:
            counters.first_at = time.time()
        counters.requests += 1
        body = await request.json()
        model = str(body.get("model", ""))
        counters.models[model] = counters.models.get(model, 0) + 1
        await asyncio.sleep(delay_s)
        return web.json_response({
            "id": f"chatcmpl-{counters.requests}", "object": "chat.completion", "created": int(time.time()),
            "model": model,
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": reply}}],
            "usage": {"prompt_tokens": 120, "completion_tokens": 9, "total_tokens": 129},
        })

    async def models(_: web.Request) -> web.Response:
        return web.json_response({"object": "list", "data": [{"id": SERVED_MODEL, "object": "model",
                                                              "created": 0, "owned_by": "bench"}]})

    async def stats(_: web.Request) -> web.Response:
        return web.json_response({"requests": counters.requests, "first_at": counters.first_at,
                                  "models": counters.models})

    async def reset(_: web.Request) -> web.Response:
        counters.requests, counters.first_at, counters.models = 0, None, {}
        return web.json_response({"ok": True})

    app = web.Application()
    app.router.add_post("/v1/chat/completions", completions)
    app.router.add_get("/v1/models", models)
    app.router.add_get("/stats", stats)
    app.router.add_post("/stats/reset", reset)
    return app


async def serve(delay_s: float) -> None:
    """Serve on a free port of 127.0.0.1, print the port, and run until killed."""
    runner = web.AppRunner(make_app(delay_s), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0, backlog=1024)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # aiohttp exposes the bound port only here
    print(port, flush=True)
    await asyncio.Event().wait()


class ChatServer:
    """The stand-in server in its own process (so its CPU is not the client's); a context manager."""

    def __init__(self, delay_s: float = 0.02) -> None:
        self.delay_s = delay_s
        self.process: subprocess.Popen[str] | None = None
        self.port = 0

    def __enter__(self) -> "ChatServer":
        self.process = subprocess.Popen([sys.executable, "-m", "benchmarks.chat_server", "--delay", str(self.delay_s)],
                                        stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        self.port = int(self.process.stdout.readline())
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def stats(self) -> dict:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/stats", timeout=10) as response:
            return json.loads(response.read())

    def reset(self) -> None:
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}/stats/reset", method="POST", data=b"")
        urllib.request.urlopen(request, timeout=10).close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delay", type=float, default=0.02, help="seconds before each answer")
    asyncio.run(serve(parser.parse_args().delay))
