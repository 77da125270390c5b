"""The OpenAI backend sends what the SDK's `chat.completions.create` would send.

The backend posts its request body through the SDK's `client.post` (it skips `create`'s type walk
over every message, the largest CPU cost of a request). These tests send the same requests both
ways to a recording http.server on 127.0.0.1 (tests.fakes.RecordedServer; nothing leaves the
machine) and compare path, body and key header, for text, image and audio parts, stop sequences,
seeds and logprobs.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.fakes import RecordedServer

pytest.importorskip("openai", reason="the openai backend needs the `openai` package")

from openai import AsyncOpenAI  # noqa: E402

from factprobe.agents.models.base import GenerationParams, ModelError  # noqa: E402
from factprobe.agents.models.openai_backend import OpenAIModel  # noqa: E402

REPLY = {"id": "c1", "object": "chat.completion", "created": 0, "model": "m",
         "choices": [{"index": 0, "finish_reason": "stop",
                      "message": {"role": "assistant", "content": "Answer: Lisbon"}}],
         "usage": {"prompt_tokens": 11, "completion_tokens": 3, "total_tokens": 14}}

TEXT = [{"role": "system", "content": "Reply with one word."},
        {"role": "user", "content": "Name the largest city of Portugal."}]
WITH_IMAGE = [{"role": "user", "content": "What is shown?", "images": ["http://127.0.0.1:9/tile.png"]}]

CASES: list[tuple[list[dict[str, Any]], GenerationParams]] = [
    (TEXT, GenerationParams(temperature=0.0, max_tokens=32, seed=0)),
    (TEXT, GenerationParams(temperature=0.9, max_tokens=8, seed=4, sample_index=3, stop=("\n", "Q:"))),
    (TEXT, GenerationParams(temperature=0.3, max_tokens=4, logprobs=True, top_logprobs=5)),
    (WITH_IMAGE, GenerationParams(max_tokens=16)),
]


@pytest.fixture
def no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


@pytest.mark.parametrize(("messages", "params"), CASES)
def test_the_backend_sends_the_body_create_sends(no_key: None, messages: list[dict[str, Any]],
                                                 params: GenerationParams) -> None:
    with RecordedServer([(200, {}, REPLY)]) as server:
        model = OpenAIModel("m", base_url=server.url + "/v1")
        completion = asyncio.run(model.generate(messages, params))

        async def through_create() -> None:
            client = AsyncOpenAI(api_key="not-needed", base_url=server.url + "/v1", max_retries=0)
            await client.chat.completions.create(**model._request(messages, params))
            await client.close()

        asyncio.run(through_create())
    ours, sdk = server.requests
    assert ours["path"] == sdk["path"] == "/v1/chat/completions"
    assert ours["body"] == sdk["body"]
    assert ours["headers"]["authorization"] == sdk["headers"]["authorization"] == "Bearer not-needed"
    assert ours["headers"]["content-type"] == sdk["headers"]["content-type"]
    assert (completion.text, completion.prompt_tokens, completion.completion_tokens) == ("Answer: Lisbon", 11, 3)
    assert completion.finish_reason == "stop"


def test_an_http_error_still_becomes_a_model_error_naming_the_status(no_key: None) -> None:
    refused = (400, {}, {"error": {"message": "unknown parameter", "type": "invalid_request_error"}})
    with RecordedServer([refused]) as server:
        model = OpenAIModel("m", base_url=server.url + "/v1", max_retries=2)
        with pytest.raises(ModelError, match="400"):
            asyncio.run(model.generate(TEXT, GenerationParams()))
    assert len(server.requests) == 1      # a 400 is not retried


def test_a_base_url_with_credentials_keeps_the_default_client() -> None:
    """aiohttp refuses credentials in the URL beside the key's header; httpx sends them."""
    from factprobe.agents.models.openai_backend import http_transport

    assert http_transport("http://gate:word@127.0.0.1:9/v1") is None
    assert http_transport("http://127.0.0.1:9/v1?key=abc") is not None
    assert http_transport(None) is not None


def test_a_refused_connection_reads_as_a_connection_error_not_a_timeout(no_key: None) -> None:
    """The SDK's aiohttp transport calls a refused connection a connect timeout; the backend says what
    happened. The port is one the test bound and closed on 127.0.0.1, so nothing listens there."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    model = OpenAIModel("m", base_url=f"http://127.0.0.1:{port}/v1", timeout=5.0, max_retries=0)
    with pytest.raises(ModelError) as caught:
        asyncio.run(model.generate(TEXT, GenerationParams()))
    assert "APIConnectionError: Connection error" in str(caught.value)
    assert "timed out" not in str(caught.value).lower()
