"""Wikipedia and DuckDuckGo retrieval against recorded HTTP served on 127.0.0.1.

Wikipedia and DuckDuckGo cannot be reached from the test machines, so their code paths run
against responses kept under tests/fixtures/retrieval/ (written by hand in each service's
response format: MediaWiki Action API JSON, DuckDuckGo's HTML results page), served by a local
HTTP server that the libraries are pointed at (`wikipedia.wikipedia.API_URL`, the ddgs DuckDuckGo
engine's `search_url`). The "no network" path is a refused connection on 127.0.0.1, and the
timeout path a server that answers too late.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest

from factprobe.agents.context import StrategyContext
from factprobe.agents.registry import get_strategy
from factprobe.agents.resources import RunResources
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.core.schema import Question
from factprobe.retrieval.base import RetrievalError
from factprobe.retrieval.pipeline import pipeline_for
from factprobe.retrieval.web_search import WebSearch
from factprobe.retrieval.wikipedia_search import WikipediaSearch
from tests.fakes import ScriptedModel, last_user

FIXTURES = Path(__file__).parents[1] / "fixtures" / "retrieval"
WIKIPEDIA = json.loads((FIXTURES / "wikipedia_api.json").read_text(encoding="utf-8"))["responses"]
DUCKDUCKGO_HTML = (FIXTURES / "duckduckgo_eiffel.html").read_bytes()


class RecordedHandler(BaseHTTPRequestHandler):
    """GET: the first recorded Wikipedia response whose `match` params the request holds.
    POST: the recorded DuckDuckGo results page. Requests are logged on the server."""

    def _send(self, status: int, body: bytes, content_type: str) -> None:
        delay = getattr(self.server, "delay_s", 0.0)
        if delay:
            time.sleep(delay)
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:  # noqa: N802
        params = dict(parse_qsl(urlsplit(self.path).query, keep_blank_values=True))
        self.server.requests.append(("GET", params))  # type: ignore[attr-defined]
        for entry in WIKIPEDIA:
            if all(params.get(key) == value for key, value in entry["match"].items()):
                return self._send(200, json.dumps(entry["body"]).encode(), "application/json")
        self._send(500, b'{"error": {"info": "no recorded response"}}', "application/json")

    def do_POST(self) -> None:  # noqa: N802
        length = int(self.headers.get("Content-Length", 0))
        form = dict(parse_qsl(self.rfile.read(length).decode(), keep_blank_values=True))
        self.server.requests.append(("POST", form))  # type: ignore[attr-defined]
        self._send(200, DUCKDUCKGO_HTML, "text/html; charset=utf-8")

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def server():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), RecordedHandler)
    httpd.requests = []  # type: ignore[attr-defined]
    httpd.delay_s = 0.0  # type: ignore[attr-defined]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def wikipedia_at(monkeypatch: pytest.MonkeyPatch):
    import wikipedia

    def point(url: str) -> None:
        monkeypatch.setattr(wikipedia.wikipedia, "API_URL", url)
        wikipedia.search.clear_cache()

    yield point
    wikipedia.search.clear_cache()


@pytest.fixture
def duckduckgo_at(monkeypatch: pytest.MonkeyPatch):
    from ddgs.engines.duckduckgo import Duckduckgo

    return lambda url: monkeypatch.setattr(Duckduckgo, "search_url", url)


def test_wikipedia_returns_introductions_in_search_order(server, wikipedia_at) -> None:
    wikipedia_at(f"http://127.0.0.1:{server.server_port}/w/api.php")
    passages = WikipediaSearch(timeout_s=5, retries=0).search("Eiffel Tower", 3)
    assert [p.id for p in passages] == ["wikipedia:Eiffel Tower", "wikipedia:Gustave Eiffel"]  # missing page skipped
    assert passages[0].title == "Eiffel Tower" and "1889 World's Fair" in passages[0].text
    assert "\n" not in passages[0].text and passages[0].source == "wikipedia"
    assert passages[0].score > passages[1].score
    search_request = server.requests[0][1]
    assert search_request["srsearch"] == "Eiffel Tower" and search_request["srlimit"] == "3"


def test_wikipedia_without_network_is_a_clear_error(wikipedia_at) -> None:
    wikipedia_at(f"http://127.0.0.1:{closed_port()}/w/api.php")
    started = time.perf_counter()
    with pytest.raises(RetrievalError, match=r"^wikipedia: no network\? .* after 2 attempt\(s\)") as caught:
        WikipediaSearch(timeout_s=5, retries=1, backoff_s=0).search("Eiffel Tower", 3)
    assert caught.value.source == "wikipedia" and "--retriever bm25" in str(caught.value)
    assert time.perf_counter() - started < 5


def test_wikipedia_request_past_its_deadline_is_retried_then_reported(server, wikipedia_at) -> None:
    wikipedia_at(f"http://127.0.0.1:{server.server_port}/w/api.php")
    server.delay_s = 1.0
    with pytest.raises(RetrievalError, match=r"after 3 attempt\(s\) \(no answer within 0.2 s\)"):
        WikipediaSearch(timeout_s=0.2, retries=2, backoff_s=0).search("Eiffel Tower", 3)


def test_web_search_parses_results_and_drops_ads(server, duckduckgo_at) -> None:
    duckduckgo_at(f"http://127.0.0.1:{server.server_port}/html/")
    passages = WebSearch(timeout_s=5, retries=0).search("Eiffel Tower height", 5)
    assert [p.id for p in passages] == ["https://en.wikipedia.org/wiki/Eiffel_Tower",
                                        "https://www.toureiffel.paris/en/the-monument/key-figures"]
    assert passages[1].title == "Key figures - Official Eiffel Tower website"
    assert "330 metres since 2022" in passages[1].text and passages[1].source == "web"
    assert server.requests == [("POST", {"q": "Eiffel Tower height", "b": "", "l": "us-en"})]


def test_web_search_without_network_is_a_clear_error(duckduckgo_at) -> None:
    duckduckgo_at(f"http://127.0.0.1:{closed_port()}/html/")
    with pytest.raises(RetrievalError, match=r"^web: no network\? DuckDuckGo \(via ddgs\) could not be "
                                             r"reached after 2 attempt\(s\)") as caught:
        WebSearch(timeout_s=2, retries=1, backoff_s=0).search("Eiffel Tower height", 3)
    assert "Connection refused" in str(caught.value)


def test_rag_over_wikipedia_searches_each_entity_and_fuses(server, wikipedia_at, tmp_path, monkeypatch) -> None:
    """Search engines get short queries: the question and each entity, fused by reciprocal rank."""
    monkeypatch.setenv("FACTPROBE_CACHE", str(tmp_path))
    wikipedia_at(f"http://127.0.0.1:{server.server_port}/w/api.php")

    def script(messages, params) -> str:
        text = last_user(messages)
        if text.rstrip().endswith("Entities:"):
            return "Eiffel Tower"
        return "Answer: 1889\nConfidence: 80" if "1889 World's Fair" in text else "Answer: 1900\nConfidence: 20"

    context = StrategyContext(model=ScriptedModel(script), options={"retriever": "wikipedia", "top_k": 2},
                              resources=RunResources(config=RunConfig(), retrieval=pipeline_for))
    graph = get_strategy("rag").build(context)
    question = Question(id="eiffel", question="In which year was the Eiffel Tower completed?", answer="1889")
    state = asyncio.run(graph.ainvoke({"question": question, "repeat": 0}))
    retrieve = next(step for step in state["trace"] if step["step"] == "retrieve")
    assert [q["query"] for q in retrieve["queries"]] == [question.question, "Eiffel Tower"]
    assert retrieve["queries"][0]["ids"] == ["wikipedia:Gustave Eiffel", "wikipedia:Eiffel Tower"]
    assert retrieve["queries"][1]["ids"] == ["wikipedia:Eiffel Tower"]   # the second title is a missing page
    # fused: Eiffel Tower 1/62 + 1/61 beats Gustave Eiffel 1/61
    assert state["retrieved_ids"] == ["wikipedia:Eiffel Tower", "wikipedia:Gustave Eiffel"]
    assert state["answer"] == "1889"
    assert retrieve["source"] == "wikipedia" and retrieve["corpus"] == "wikipedia"
