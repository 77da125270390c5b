"""Any OpenAI-compatible chat-completions server (OpenAI itself, vLLM, llama.cpp's server, ...)."""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

from factprobe.agents.models.base import Completion, GenerationParams, Message, ModelError, ModelSpecError
from factprobe.agents.models.sdk_client import LoopBoundClient, describe_failure
from factprobe.eval.schema import TokenLogprob

KEY_VARIABLE = "OPENAI_API_KEY"
DEFAULT_BASE_URL = "https://api.openai.com/v1"
PLACEHOLDER_KEY = "not-needed"  # local OpenAI-compatible servers ignore the key but the SDK wants one


def _token_logprobs(choice: Any) -> list[TokenLogprob] | None:
    """`choice.logprobs.content` as TokenLogprobs; None when the server sent none."""
    content = getattr(getattr(choice, "logprobs", None), "content", None)
    if not content:
        return None
    return [TokenLogprob(token=item.token, logprob=float(item.logprob),
                         top={alt.token: float(alt.logprob) for alt in item.top_logprobs or []})
            for item in content]


class OpenAIModel:
    """A chat model behind the official `openai` SDK's AsyncOpenAI client.

    The key comes from `$OPENAI_API_KEY` only. The SDK retries connection errors, timeouts, 408,
    409, 429 and 5xx itself, `max_retries` times with exponential backoff honouring Retry-After;
    what still fails becomes a ModelError.
    """

    supports_logprobs = True

    def __init__(self, model: str, base_url: str | None = None, timeout: float = 120.0,
                 max_retries: int = 4) -> None:
        try:
            import openai  # noqa: F401
        except ImportError:
            raise ModelSpecError("the openai backend needs the `openai` package, which is not "
                                 "installed: pip install openai") from None
        key = os.environ.get(KEY_VARIABLE)
        if not key and base_url is None:
            raise ModelSpecError(f"openai:{model} needs an API key: set {KEY_VARIABLE} "
                                 f"(or give a base URL, openai:{model}@URL, for a local server)")
        self.model = model
        self.base_url = base_url
        self.name = f"openai:{model}" + (f"@{base_url}" if base_url else "")
        self.timeout = timeout
        self.max_retries = max_retries
        self._key = key or PLACEHOLDER_KEY
        self._clients = LoopBoundClient(self._new_client)

    def _new_client(self) -> Any:
        from openai import AsyncOpenAI

        return AsyncOpenAI(api_key=self._key, base_url=self.base_url, timeout=self.timeout,
                           max_retries=self.max_retries)

    def _request(self, messages: list[Message], params: GenerationParams) -> dict[str, Any]:
        request: dict[str, Any] = {"model": self.model, "messages": messages,
                                   "temperature": params.temperature, "max_tokens": params.max_tokens}
        if params.seed is not None:
            request["seed"] = params.seed + params.sample_index
        if params.stop:
            request["stop"] = list(params.stop)
        if params.logprobs:  # llama_cpp.server returns no logprobs unless top_logprobs is sent too
            request["logprobs"] = True
            request["top_logprobs"] = params.top_logprobs
        return request

    async def generate(self, messages: list[Message], params: GenerationParams) -> Completion:
        import openai

        client = await self._clients.get()
        started = time.perf_counter()
        try:
            response = await client.chat.completions.create(**self._request(messages, params))
        except (openai.OpenAIError, asyncio.TimeoutError) as exc:
            raise ModelError(f"openai:{self.model} at {str(client.base_url).rstrip('/')}: "
                             f"{describe_failure(exc)}") from exc
        latency = time.perf_counter() - started
        if not response.choices:
            raise ModelError(f"{self.name}: the server returned no choices")
        choice = response.choices[0]
        usage = response.usage
        return Completion(text=choice.message.content or "", model=self.name,
                          prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
                          completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
                          latency_s=latency,
                          logprobs=_token_logprobs(choice) if params.logprobs else None,
                          finish_reason=choice.finish_reason)

    def describe(self) -> dict:
        return {"backend": "openai", "name": self.name, "model": self.model,
                "base_url": self.base_url or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL,
                "timeout_s": self.timeout, "max_retries": self.max_retries}
