"""The tests' shared fakes, in one module: a scripted model (replies are a function of the prompt,
no model is loaded), a local HTTP server replaying recorded API responses (for backends whose
service is unreachable here), and a fault-injecting OpenAI-compatible server on 127.0.0.1.

FaultServer: `FaultServer(["429", "ok"])` answers chat completions by the listed modes in order, the last one
forever; `/v1/models` lists the one served model. Every request is counted. Modes:

- `ok`: a well-formed reply (`reply` text, default "Paris")
- `429`: rate limited, with `Retry-After: 1`
- `500`, `503`: server errors (short `retry-after-ms`, so tests stay fast)
- `reset`: the connection is closed without a response
- `garbage`: status 200 with a body that is not JSON
- `empty`: a well-formed reply whose content is ""
- `oversized`: a 1 MB reply that claims 300,000 completion tokens
- `trickle`: a well-formed reply sent one byte every 0.5 s
- `hang`: the request is read and never answered
- `slow`: a well-formed reply after `SLOW_S` seconds
- `notfound`: 404, as a server answers a model it does not serve
- `echo_key`: 401 whose message echoes the request's Authorization header
- `echo_token`: 500 whose message echoes the bare token of that header (no `Bearer`), as gateways do
- `echo_credentials`: a well-formed reply whose text ends with every credential the request carried
  (heard_credentials)
"""

from __future__ import annotations

import base64
import json
import socket
import struct
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable
from urllib.parse import parse_qsl, urlsplit

from factprobe.agents.models.base import Completion, GenerationParams, Message, ModelError
from factprobe.eval.core.schema import Question

Script = Callable[[list[Message], GenerationParams], str]


class ScriptedModel:
    """A ChatModel whose reply is `script(messages, params)`; records every call it gets.

    A script may raise ModelError to simulate a failed call.
    """

    supports_logprobs = False

    def __init__(self, script: Script, name: str = "scripted") -> None:
        self.script = script
        self.name = name
        self.calls: list[tuple[list[Message], GenerationParams]] = []

    async def generate(self, messages: list[Message], params: GenerationParams) -> Completion:
        self.calls.append((messages, params))
        text = self.script(messages, params)
        prompt_tokens = sum(len(m["content"].split()) for m in messages)
        return Completion(text=text, model=self.name, prompt_tokens=prompt_tokens,
                          completion_tokens=len(text.split()), latency_s=0.01)

    def describe(self) -> dict:
        return {"backend": "scripted", "name": self.name}


def last_user(messages: list[Message]) -> str:
    """The content of the last user message."""
    return next(m["content"] for m in reversed(messages) if m["role"] == "user")


def failing(message: str) -> Script:
    def script(messages: list[Message], params: GenerationParams) -> str:
        raise ModelError(message)

    return script


def write_questions(path: Path, questions: list[Question]) -> Path:
    """A native-schema JSONL dataset file holding `questions`, one per line."""
    path.write_text("".join(q.model_dump_json() + "\n" for q in questions), encoding="utf-8")
    return path


def write_jsonl(path: Path, records: list[dict]) -> Path:
    """A JSONL file holding `records`, one per line."""
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


Body = dict | bytes


class RecordedServer:
    """Replays scripted (status, headers, body) responses in order, the last one forever, and
    records each request's time, path, lower-cased headers and JSON body. A dict body is sent as
    JSON; bytes are sent as they are."""

    def __init__(self, script: list[tuple[int, dict[str, str], Body]]) -> None:
        self.script = list(script)
        self.requests: list[dict] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                server.requests.append({"time": time.perf_counter(), "path": self.path,
                                        "headers": {k.lower(): v for k, v in self.headers.items()},
                                        "body": json.loads(body or b"{}")})
                status, headers, data = (server.script.pop(0) if len(server.script) > 1
                                         else server.script[0])
                payload = data if isinstance(data, bytes) else json.dumps(data).encode()
                self.send_response(status)
                for name, value in {"content-type": "application/json", **headers}.items():
                    self.send_header(name, value)
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> RecordedServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


def heard_credentials(handler: BaseHTTPRequestHandler) -> str:
    """Every credential a request carried, as a careless server echoes it: the Authorization header,
    the user and password of its HTTP Basic credentials decoded, the raw query and each query value
    decoded."""
    authorization = handler.headers.get("authorization", "")
    scheme, _, token = authorization.partition(" ")
    basic = base64.b64decode(token).decode("utf-8", "replace") if scheme.lower() == "basic" else ""
    query = urlsplit(handler.path).query
    values = " ".join(value for _, value in parse_qsl(query))
    return f"(heard: authorization {authorization}; basic {basic}; query {query}; values {values})"


SERVED_MODEL = "fake-model"
TRICKLE_INTERVAL_S = 0.5
SLOW_S = 0.3


def completion_body(text: str, completion_tokens: int | None = None) -> bytes:
    tokens = len(text.split()) if completion_tokens is None else completion_tokens
    return json.dumps({
        "id": "chatcmpl-fault", "object": "chat.completion", "created": 1700000000,
        "model": SERVED_MODEL,
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": text}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": tokens, "total_tokens": 10 + tokens},
    }).encode()


class FaultServer:
    """Serves `modes` in order (the last one forever) and counts the chat requests it got."""

    def __init__(self, modes: list[str], reply: str = "Paris", models: bool = True, port: int = 0) -> None:
        self.modes = list(modes)
        self.reply = reply
        self.models = models
        self.requests = 0
        self.model_requests = 0
        self.released = threading.Event()
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
                with server._lock:
                    server.model_requests += 1
                if not server.models or not urlsplit(self.path).path.endswith("/models"):
                    self._send(404, b'{"error": {"message": "not found"}}')
                    return
                self._send(200, json.dumps({"object": "list", "data": [
                    {"id": SERVED_MODEL, "object": "model", "owned_by": "tests"}]}).encode())

            def do_POST(self) -> None:  # noqa: N802
                self.rfile.read(int(self.headers.get("content-length", 0)))
                with server._lock:
                    server.requests += 1
                    mode = server.modes.pop(0) if len(server.modes) > 1 else server.modes[0]
                server.serve(self, mode)

            def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
                self.send_response(status)
                for name, value in {"content-type": "application/json", **(headers or {})}.items():
                    self.send_header(name, value)
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.handler = Handler
        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.httpd.daemon_threads = True
        self.httpd.block_on_close = False
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def serve(self, handler: BaseHTTPRequestHandler, mode: str) -> None:
        send = handler._send  # type: ignore[attr-defined]
        if mode == "ok":
            send(200, completion_body(self.reply))
        elif mode == "429":
            send(429, b'{"error": {"message": "rate limited", "type": "requests"}}', {"retry-after": "1"})
        elif mode in ("500", "503"):
            send(int(mode), b'{"error": {"message": "server error"}}', {"retry-after-ms": "10"})
        elif mode == "reset":
            handler.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            handler.close_connection = True
            handler.connection.close()
        elif mode == "garbage":
            send(200, b"<html>this is not json{")
        elif mode == "empty":
            send(200, completion_body("", 0))
        elif mode == "oversized":
            send(200, completion_body("word " * 200_000, 300_000))
        elif mode == "trickle":
            body = completion_body(self.reply)
            handler.send_response(200)
            handler.send_header("content-type", "application/json")
            handler.send_header("content-length", str(len(body)))
            handler.end_headers()
            handler.wfile.flush()
            for byte in body:
                if self.released.wait(TRICKLE_INTERVAL_S):
                    return
                try:
                    handler.wfile.write(bytes([byte]))
                    handler.wfile.flush()
                except OSError:
                    return
        elif mode == "hang":
            self.released.wait()
        elif mode == "slow":
            if not self.released.wait(SLOW_S):
                send(200, completion_body(self.reply))
        elif mode == "notfound":
            send(404, b'{"error": {"message": "The model does not exist", "code": "model_not_found"}}')
        elif mode == "echo_key":
            echoed = handler.headers.get("authorization", "")
            send(401, json.dumps({"error": {"message": f"Incorrect API key; you sent {echoed}"}}).encode())
        elif mode == "echo_token":
            token = handler.headers.get("authorization", "").removeprefix("Bearer ")
            send(500, json.dumps({"error": {"message": f"upstream refused credential {token}"}}).encode(),
                 {"retry-after-ms": "10"})
        elif mode == "echo_credentials":
            send(200, completion_body(f"{self.reply}\n{heard_credentials(handler)}"))
        else:
            raise ValueError(f"unknown fault mode {mode!r}")

    def __enter__(self) -> FaultServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.released.set()
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


def wait_for_port(url: str, timeout_s: float = 5.0) -> None:
    """Block until the server at `url` accepts connections."""
    host, port = url.split("//")[1].split("/")[0].split(":")
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((host, int(port)), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(url)


Reply = Callable[[dict], "str | tuple[str, dict]"]
Logprobs = Callable[[dict], "list[dict] | None"]


class ChatServer:
    """An OpenAI-compatible server on 127.0.0.1 (`/v1/models`, `/v1/chat/completions`) that records
    every request body and answers `reply(body)`: the reply's text, or (text, usage counts). With
    `logprobs`, the reply also carries `logprobs.content` = `logprobs(body)` (none when it is None).
    `served`: the `model` every reply reports, as a server that serves one model whatever name it
    is asked for does (unset: the name asked for); `port`: 0 for any free one."""

    def __init__(self, reply: Reply, model: str = "scripted", logprobs: Logprobs | None = None,
                 served: str | None = None, port: int = 0) -> None:
        self.requests: list[dict] = []
        self.model = model
        self.served = served
        server = self

        class Handler(BaseHTTPRequestHandler):
            def _send(self, body: dict) -> None:
                payload = json.dumps(body).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
                self._send({"object": "list", "data": [{"id": server.model, "object": "model", "created": 0,
                                                        "owned_by": "tests"}]})

            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
                server.requests.append(body)
                answered = reply(body)
                text, usage = answered if isinstance(answered, tuple) else (answered, {})
                usage = {"prompt_tokens": 5, "completion_tokens": 5, **usage}
                usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
                content = logprobs(body) if logprobs else None
                self._send({"id": "c", "object": "chat.completion", "created": 0,
                            "model": server.served or body.get("model", server.model),
                            "choices": [{"index": 0, "finish_reason": "stop",
                                         "logprobs": {"content": content} if content else None,
                                         "message": {"role": "assistant", "content": text}}],
                            "usage": usage})

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> "ChatServer":
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)

    def chats(self) -> list[dict]:
        return [request for request in self.requests if "messages" in request]


def request_text(body: dict) -> str:
    """The text of a chat request's last message (its text parts joined when it has images)."""
    content = body["messages"][-1]["content"]
    return content if isinstance(content, str) else " ".join(p.get("text", "") for p in content)


def request_images(body: dict) -> int:
    """How many image parts a chat request's last message holds."""
    content = body["messages"][-1]["content"]
    return 0 if isinstance(content, str) else sum(part["type"] == "image_url" for part in content)


class RecordingWikipedia:
    """Stands in for WikipediaSearch (no network): records every query, returns one passage for it.
    Reset `queries` in each test."""

    name = "wikipedia"
    key = "fake-wikipedia"
    queries: list[str] = []

    def search(self, query: str, top_k: int) -> list:
        from factprobe.retrieval.base import RetrievedPassage

        RecordingWikipedia.queries.append(query)
        return [RetrievedPassage(id=f"w:{query}", title=query, text=f"About {query}.", score=1.0,
                                 source="wikipedia")][:top_k]


def question_with_frames(folder: Path, question: Question, colours: list[tuple[int, int, int]]) -> Path:
    """Write one plain-coloured PNG per media path of `question` (Pillow) and the question's JSONL
    file under `folder`; return the JSONL path."""
    from PIL import Image

    for media, colour in zip(question.media, colours):
        path = folder / media
        path.parent.mkdir(parents=True, exist_ok=True)
        Image.new("RGB", (24, 16), colour).save(path)
    path = folder / "q.jsonl"
    path.write_text(question.model_dump_json() + "\n", encoding="utf-8")
    return path


def refused(capsys: Any, argv: list[str], *expected: str) -> str:
    """Run the CLI; assert exit 2 (argparse's own usage errors included), no traceback, and every `expected`
    fragment in stderr; returns stderr."""
    from factprobe.eval.cli.main import main

    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err
    for text in expected:
        assert text in err, (text, err)
    return err



def peak_bytes_raising(call: Callable[[], object], error: type[Exception], match: str) -> int:
    """Python's peak allocation while `call` runs, which must raise `error` with `match` in its message."""
    import tracemalloc

    import pytest

    tracemalloc.start()
    try:
        with pytest.raises(error, match=match):
            call()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
