"""A local HTTP server that replays recorded API responses, for backends whose service is
unreachable here (Anthropic, and OpenAI's error paths)."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

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
