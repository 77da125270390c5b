"""A stand-in OpenAI-compatible server on 127.0.0.1 for benchmarks and tests.

`POST /v1/chat/completions` waits a fixed delay, then answers a fixed short reply with usage
numbers. `GET /v1/models` lists one model, `bench`. `GET /stats` tells how many requests arrived
and when the first one did (wall clock, `time.time()`), so a benchmark can time a client from its
process start to its first request; `POST /stats/reset` starts the count again. Run it as a process
with `ChatServer`, which reads the port the server bound from its first line of output.

A plain asyncio protocol speaking HTTP/1.1 with keep-alive, not a web framework: the server shares
the machine's cores with the clients it measures, so it must cost as little CPU per request as it
can. Measured on 2,000 requests at 64 in flight: aiohttp's server spent 0.18 ms of CPU per request,
this one 0.05 ms (each reply body is encoded once per model name). It reads what
the OpenAI and Anthropic SDKs send (a request line, headers, a Content-Length body, the next
request on a connection after the previous answer); a malformed request closes its connection.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

REPLY = "Answer: Paris\nConfidence: 80"
SERVED_MODEL = "bench"
HEADER_END = b"\r\n\r\n"


@dataclass
class Counters:
    requests: int = 0
    first_at: float | None = None
    models: dict[str, int] = field(default_factory=dict)


def response(status: str, body: bytes) -> bytes:
    """An HTTP/1.1 response with a JSON body, the connection kept open."""
    return (f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n"
            f"Connection: keep-alive\r\n\r\n").encode("ascii") + body


def completion(model: str, reply: str) -> bytes:
    """The whole response to a chat completion for `model`."""
    return response("200 OK", json.dumps({
        "id": "chatcmpl-bench", "object": "chat.completion", "created": int(time.time()), "model": model,
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": reply}}],
        "usage": {"prompt_tokens": 120, "completion_tokens": 9, "total_tokens": 129},
    }).encode())


MODELS = response("200 OK", json.dumps({"object": "list", "data": [
    {"id": SERVED_MODEL, "object": "model", "created": 0, "owned_by": "bench"}]}).encode())
NOT_FOUND = response("404 Not Found", b'{"error": {"message": "not found"}}')


class Answers:
    """What the server answers, and what it has counted."""

    def __init__(self, delay_s: float, reply: str = REPLY) -> None:
        self.delay_s = delay_s
        self.reply = reply
        self.counters = Counters()
        self.completions: dict[str, bytes] = {}   # model name -> its encoded response

    def completion(self, body: bytes) -> bytes:
        counters = self.counters
        if counters.first_at is None:
            counters.first_at = time.time()
        counters.requests += 1
        model = str(json.loads(body or b"{}").get("model", ""))
        counters.models[model] = counters.models.get(model, 0) + 1
        if model not in self.completions:
            self.completions[model] = completion(model, self.reply)
        return self.completions[model]

    def immediate(self, method: str, path: str) -> bytes:
        """The answer to any request but a chat completion."""
        if method == "GET" and path == "/v1/models":
            return MODELS
        if method == "GET" and path == "/stats":
            counters = self.counters
            return response("200 OK", json.dumps({"requests": counters.requests, "first_at": counters.first_at,
                                                  "models": counters.models}).encode())
        if method == "POST" and path == "/stats/reset":
            self.counters = Counters()
            return response("200 OK", b'{"ok": true}')
        return NOT_FOUND


class Connection(asyncio.Protocol):
    """One client connection: splits the bytes into requests and answers each."""

    def __init__(self, answers: Answers) -> None:
        self.answers = answers
        self.buffer = bytearray()
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while (request := self._next_request()) is not None:
            method, path, body = request
            if method == "POST" and path == "/v1/chat/completions":
                asyncio.get_running_loop().call_later(self.answers.delay_s, self._send,
                                                      self.answers.completion(body))
            else:
                self._send(self.answers.immediate(method, path))

    def _next_request(self) -> tuple[str, str, bytes] | None:
        """The first whole request in the buffer (removed from it); None until one has arrived."""
        end = self.buffer.find(HEADER_END)
        if end < 0:
            return None
        lines = bytes(self.buffer[:end]).decode("latin-1").split("\r\n")
        length = 0
        for line in lines[1:]:
            name, _, value = line.partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        start = end + len(HEADER_END)
        if len(self.buffer) < start + length:
            return None
        body = bytes(self.buffer[start:start + length])
        del self.buffer[:start + length]
        method, path = (lines[0].split(" ") + ["", ""])[:2]
        return method, path.split("?", 1)[0], body

    def _send(self, data: bytes) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(data)

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None


async def serve(delay_s: float) -> None:
    """Serve on a free port of 127.0.0.1, print the port, and run until killed."""
    answers = Answers(delay_s)
    server = await asyncio.get_running_loop().create_server(lambda: Connection(answers), "127.0.0.1", 0,
                                                            backlog=1024)
    print(server.sockets[0].getsockname()[1], flush=True)
    async with server:
        await server.serve_forever()


def process_cpu_s(pid: int) -> float | None:
    """A process's CPU seconds so far (user + system, from /proc/PID/stat); None without /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    # utime and stime are the 14th and 15th fields; 12th and 13th after the command name
    return (int(fields[11]) + int(fields[12])) / ticks


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

    def cpu_s(self) -> float | None:
        """The server process's CPU seconds so far (Linux /proc; None elsewhere)."""
        return None if self.process is None else process_cpu_s(self.process.pid)

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
