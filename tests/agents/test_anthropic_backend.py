"""The Anthropic backend against RECORDED HTTP served locally.

Anthropic's API is unreachable from here, so these tests never touch it: a tiny http.server on
127.0.0.1 replays a Messages API response written by hand in the documented shape
(tests/fixtures/anthropic/messages_response.json), scripted 429/500 errors and malformed 200s, and
records every request so the tests can check what the official `anthropic` SDK actually sent.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest

from tests.fakes import RecordedServer

pytest.importorskip("anthropic", reason="the anthropic backend needs the `anthropic` package")

from factprobe.agents.models.anthropic_backend import AnthropicModel  # noqa: E402
from factprobe.agents.models.base import GenerationParams, ModelError, ModelSpecError  # noqa: E402

RECORDED = Path(__file__).parents[1] / "fixtures" / "anthropic" / "messages_response.json"
FAKE_KEY = "sk-ant-test-not-a-real-key"
MODEL = "claude-haiku-4-5"
MESSAGES = [{"role": "system", "content": "Answer with the name only."},
            {"role": "user", "content": "What is the capital of Australia?"}]


def _error(kind: str, message: str) -> bytes:
    return json.dumps({"type": "error", "error": {"type": kind, "message": message}}).encode()


@pytest.fixture
def api_key(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("ANTHROPIC_API_KEY", FAKE_KEY)
    return FAKE_KEY


def _ok() -> tuple[int, dict[str, str], bytes]:
    return 200, {"request-id": "req_recorded"}, RECORDED.read_bytes()


def test_text_tokens_and_system_field(api_key: str) -> None:
    params = GenerationParams(temperature=0.0, max_tokens=32, stop=("\n",), seed=7, sample_index=3)
    with RecordedServer([_ok()]) as server:
        model = AnthropicModel(MODEL, base_url=server.url)
        completion = asyncio.run(model.generate(MESSAGES, params))
    assert completion.text == "Canberra"
    assert (completion.prompt_tokens, completion.completion_tokens) == (21, 4)
    assert completion.finish_reason == "end_turn"
    assert completion.model == f"anthropic:{MODEL}"
    assert completion.latency_s > 0 and not completion.cached and completion.logprobs is None

    [request] = server.requests
    assert request["path"] == "/v1/messages"
    headers = {name.lower(): value for name, value in request["headers"].items()}
    # SDK 2.x sends the key as a bearer token; 1.x sent x-api-key
    assert headers.get("authorization") == f"Bearer {api_key}" or headers.get("x-api-key") == api_key
    assert "anthropic-version" in headers
    body = request["body"]
    assert body["system"] == "Answer with the name only."
    assert body["messages"] == [{"role": "user", "content": "What is the capital of Australia?"}]
    assert body["model"] == MODEL and body["max_tokens"] == 32
    assert body["stop_sequences"] == ["\n"]
    # anthropic-version 2026-10-21 rejects sampling parameters, and the API has no seed:
    # sample_index only separates cache entries
    assert "temperature" not in body and "seed" not in body


def test_logprobs_request_gets_none(api_key: str) -> None:
    with RecordedServer([_ok()]) as server:
        model = AnthropicModel(MODEL, base_url=server.url)
        completion = asyncio.run(model.generate(MESSAGES[1:], GenerationParams(logprobs=True,
                                                                               top_logprobs=5)))
    assert model.supports_logprobs is False
    assert completion.logprobs is None
    body = server.requests[0]["body"]
    assert "system" not in body and "logprobs" not in body and "stop_sequences" not in body


def test_429_with_retry_after_then_200_succeeds_after_one_retry(api_key: str) -> None:
    rate_limited = (429, {"retry-after": "0"}, _error("rate_limit_error", "Number of requests "
                                                                         "has exceeded your rate limit"))
    with RecordedServer([rate_limited, _ok()]) as server:
        completion = asyncio.run(AnthropicModel(MODEL, base_url=server.url).generate(
            MESSAGES, GenerationParams()))
    assert completion.text == "Canberra"
    assert len(server.requests) == 2
    assert server.requests[0]["body"] == server.requests[1]["body"]


def test_repeated_500s_end_in_model_error(api_key: str) -> None:
    # retry-after-ms keeps the SDK's backoff short; the number of attempts is what is under test
    failing = (500, {"retry-after-ms": "10"}, _error("api_error", "Internal server error"))
    with RecordedServer([failing]) as server:
        model = AnthropicModel(MODEL, base_url=server.url)
        started = time.perf_counter()
        with pytest.raises(ModelError) as caught:
            asyncio.run(model.generate(MESSAGES, GenerationParams()))
    assert time.perf_counter() - started < 10
    assert len(server.requests) == 1 + model.max_retries == 5
    message = str(caught.value)
    assert "\n" not in message
    assert f"anthropic:{MODEL}" in message and server.url in message


@pytest.mark.parametrize("body", [b"<html>this is not json{", b'{"type": "message", "content": null}',
                                  b'{"content": [{"type": "text"}]}', b"[1]"],
                         ids=["not-json", "no-content", "text-block-without-text", "not-an-object"])
def test_a_malformed_200_is_retried_like_openai_s(api_key: str, body: bytes) -> None:
    with RecordedServer([(200, {}, body), _ok()]) as server:
        model = AnthropicModel(MODEL, base_url=server.url, max_retries=2)
        completion = asyncio.run(model.generate(MESSAGES, GenerationParams()))
    assert completion.text == "Canberra"
    assert len(server.requests) == 2 and model.retries == 1


def test_a_lasting_malformed_200_ends_in_model_error_after_bounded_retries(api_key: str) -> None:
    with RecordedServer([(200, {}, b"<html>this is not json{")]) as server:
        model = AnthropicModel(MODEL, base_url=server.url, max_retries=2)
        with pytest.raises(ModelError, match=r"InvalidReply: malformed reply.* \(after 3 attempts\)$"):
            asyncio.run(model.generate(MESSAGES, GenerationParams()))
    assert len(server.requests) == 3 and model.retries == 2


def test_missing_key_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(ModelSpecError, match="ANTHROPIC_API_KEY"):
        AnthropicModel(MODEL)


def test_describe_never_shows_the_key(api_key: str) -> None:
    described = AnthropicModel(MODEL, base_url="http://127.0.0.1:9").describe()
    assert described["backend"] == "anthropic" and described["name"] == f"anthropic:{MODEL}"
    assert described["base_url"] == "http://127.0.0.1:9"
    assert api_key not in json.dumps(described)
