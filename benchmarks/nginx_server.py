"""nginx on 127.0.0.1 answering every chat completion at once with one canned reply.

A stand-in whose own CPU is negligible beside its clients' (nginx's event loop in C, no body
parsing), for throughput figures where the stand-in server in Python would take a share of the
cores itself. `NginxServer` writes a config into a temporary folder, starts nginx in the
foreground on a free port, and counts requests from its access log (one line per request), so it
offers the same `base_url`, `reset`, `requests` and `cpu_s` as benchmarks.chat_server.ChatServer.
`nginx_binary()` is None when nginx is not installed (Debian: `apt-get install nginx-light`).
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

from benchmarks.chat_server import REPLY, SERVED_MODEL, process_cpu_s

CANDIDATES = ("nginx", "/usr/sbin/nginx")


def nginx_binary() -> str | None:
    """The nginx executable on PATH or in /usr/sbin; None when it is not installed."""
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


def canned_completion() -> str:
    """The chat completion nginx answers to every request, as JSON text."""
    return json.dumps({
        "id": "chatcmpl-nginx", "object": "chat.completion", "created": 0, "model": SERVED_MODEL,
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": REPLY}}],
        "usage": {"prompt_tokens": 120, "completion_tokens": 9, "total_tokens": 129},
    })


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def config_text(folder: Path, port: int) -> str:
    """An nginx.conf for one worker serving /v1/chat/completions and /v1/models from memory."""
    body = canned_completion().replace("\\", "\\\\").replace("'", "\\'")
    models = json.dumps({"object": "list", "data": [{"id": SERVED_MODEL, "object": "model", "created": 0,
                                                     "owned_by": "bench"}]})
    return f"""daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log {folder}/access.log;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    keepalive_requests 1000000;
    client_body_buffer_size 1m;
    default_type application/json;
    server {{
        listen 127.0.0.1:{port};
        location = /v1/models {{ return 200 '{models}'; }}
        location / {{ return 200 '{body}'; }}
    }}
}}
"""


class NginxServer:
    """nginx in its own process group for the length of a `with` block; raises when it is absent."""

    def __init__(self) -> None:
        binary = nginx_binary()
        if binary is None:
            raise RuntimeError("nginx is not installed (Debian: apt-get install nginx-light)")
        self.binary = binary
        self.folder = Path(tempfile.mkdtemp(prefix="factprobe-nginx-"))
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> "NginxServer":
        self.port = free_port()
        conf = self.folder / "nginx.conf"
        conf.write_text(config_text(self.folder, self.port), encoding="utf-8")
        self.process = subprocess.Popen([self.binary, "-c", str(conf), "-p", str(self.folder)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.base_url}/models", timeout=1) as answer:
                    answer.read()
                break
            except OSError:
                if self.process.poll() is not None:
                    error = self.process.stderr.read().decode(errors="replace") if self.process.stderr else ""
                    raise RuntimeError(f"nginx exited at start: {error.strip()[-500:]}") from None
                time.sleep(0.05)
        self.reset()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
        shutil.rmtree(self.folder, ignore_errors=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def reset(self) -> None:
        """Start counting requests again (nginx appends to the log, so truncating it is safe)."""
        (self.folder / "access.log").write_bytes(b"")

    def requests(self) -> int:
        """Chat completions answered since the last reset."""
        with (self.folder / "access.log").open("rb") as log:
            return sum(b"/chat/completions" in line for line in log)

    def stats(self) -> dict:
        """What benchmarks.client_harness.run_process reads of a server: the request count (nginx
        keeps no time of the first request)."""
        return {"requests": self.requests(), "first_at": None}

    def cpu_s(self) -> float | None:
        """nginx's CPU seconds so far, master and worker (Linux /proc; None elsewhere)."""
        if self.process is None:
            return None
        total = process_cpu_s(self.process.pid)
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        try:
            workers = [int(pid) for pid in children.read_text().split()]
        except OSError:
            workers = []
        for pid in workers:
            total = None if total is None else total + (process_cpu_s(pid) or 0.0)
        return total
