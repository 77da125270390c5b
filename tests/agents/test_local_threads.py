"""The local backend without loading a model: thread count, warm-up, call timing, prefix states.

llama.cpp contexts are replaced by a stand-in that sleeps, so these run in a fraction of a second;
they still need llama-cpp-python installed, because LocalModel checks for it.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

import factprobe.agents.models.local as local_backend
import factprobe.eval.cli.main as cli
from factprobe.agents.models.base import GenerationParams, warm_up
from factprobe.agents.models.local import LocalModel, default_threads
from factprobe.agents.models.prefix_states import PrefixStates, load_full_state, prompt_family, save_full_state
from factprobe.agents.models.registry import load_model
from factprobe.eval.core.schema import Question
from tests.conftest import requires_local_model

CALL_SECONDS = 0.2
STATE_FLOATS = 1000


class SleepingContext:
    """Stands in for a llama_cpp.Llama: every completion takes `seconds`; records its calls."""

    def __init__(self, seconds: float = CALL_SECONDS) -> None:
        self.seconds = seconds
        self.n_tokens = 0
        self.calls: list[tuple[list[dict], int]] = []
        self.loaded: list[str] = []

    def create_chat_completion(self, messages: list[dict], max_tokens: int, **_: Any) -> dict:
        self.calls.append((messages, max_tokens))
        time.sleep(self.seconds)
        self.n_tokens = 10
        return {"choices": [{"message": {"content": "Answer: Paris\nConfidence: 90%"}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 6}}

    def save_state(self) -> SimpleNamespace:
        return SimpleNamespace(label=f"state after {self.calls[-1][0][0]['content']}",
                               scores=np.zeros(STATE_FLOATS, dtype=np.float32),
                               input_ids=np.zeros(self.n_tokens, dtype=np.intc), llama_state_size=0)

    def load_state(self, state: SimpleNamespace) -> None:
        self.loaded.append(state.label)


@pytest.fixture
def contexts(monkeypatch: pytest.MonkeyPatch) -> list[SleepingContext]:
    """Every context LocalModel loads is a SleepingContext; the list holds them in load order."""
    made: list[SleepingContext] = []

    def new_context(self: LocalModel, logits_all: bool) -> SleepingContext:
        made.append(SleepingContext())
        return made[-1]

    monkeypatch.setattr(LocalModel, "_new_llama", new_context)
    # the stand-in has no llama.cpp context to copy KV bytes from: it saves whole states instead
    monkeypatch.setattr(local_backend, "save_kv_prefix", save_full_state)
    monkeypatch.setattr(local_backend, "load_kv_prefix", load_full_state)
    return made


def test_default_thread_count_leaves_half_the_cores_free() -> None:
    assert [default_threads(cores) for cores in (1, 2, 3, 4, 16)] == [1, 1, 1, 2, 8]


@pytest.mark.needs_llama
@requires_local_model
def test_threads_option_reaches_the_backend_and_the_manifest(
        tmp_path: Path, contexts: list[SleepingContext]) -> None:
    data = tmp_path / "q.jsonl"
    data.write_text(Question(id="q1", question="What is the capital of France?", answer="Paris").model_dump_json())
    out = tmp_path / "run"
    assert cli.main(["run", "--dataset", f"jsonl:{data}", "--strategies", "vanilla", "--threads", "3",
                     "--out", str(out)]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["config"]["threads"] == 3
    assert manifest["model"]["n_threads"] == 3 and manifest["model"]["n_threads_batch"] == 3
    assert manifest["model"]["threads_rule"] == "--threads"
    assert len(contexts) == 1 and len(contexts[0].calls) == 2  # warm-up, then the one question


@pytest.mark.needs_llama
@requires_local_model
def test_without_threads_the_default_rule_is_used_and_recorded() -> None:
    described = load_model("local").describe()
    assert described["n_threads"] == default_threads()
    assert described["threads_rule"].startswith("default")


@pytest.mark.needs_llama
@requires_local_model
def test_latency_is_the_call_alone_not_warm_up_or_waiting(contexts: list[SleepingContext]) -> None:
    model = load_model("local")  # behind the response cache, which must pass warm_up through
    warm_up(model, [{"role": "system", "content": "shared"}, {"role": "user", "content": ""}])
    assert len(contexts) == 1 and contexts[0].calls[0][1] == 1

    async def two_at_once() -> list[float]:
        completions = await asyncio.gather(
            model.generate([{"role": "user", "content": "What is the capital of France?"}], GenerationParams()),
            model.generate([{"role": "user", "content": "What is the capital of Peru?"}], GenerationParams()))
        return [completion.latency_s for completion in completions]

    started = time.perf_counter()
    latencies = asyncio.run(two_at_once())
    elapsed = time.perf_counter() - started
    assert elapsed >= 2 * CALL_SECONDS  # calls ran one at a time ...
    assert all(CALL_SECONDS <= latency < 1.75 * CALL_SECONDS for latency in latencies)  # ... each timed alone


def family_calls(context: SleepingContext, states: PrefixStates, systems: list[str]) -> None:
    """One call per system line, each with its own prompt family."""
    for system in systems:
        messages = [{"role": "system", "content": system}, {"role": "user", "content": "Q1"}]
        states.switch(context, prompt_family(messages))
        context.create_chat_completion(messages, max_tokens=1)


def test_prefix_states_save_on_leaving_a_family_and_load_on_return() -> None:
    context = SleepingContext(seconds=0)
    family_calls(context, PrefixStates(1 << 30, save_full_state, load_full_state), ["answer", "answer", "check", "answer", "check"])
    # consecutive calls of one family touch nothing; a return loads what was saved on leaving
    assert context.loaded == ["state after answer", "state after check"]


def test_prefix_states_drop_the_least_recently_used_beyond_capacity() -> None:
    context = SleepingContext(seconds=0)
    two_states = 2 * (STATE_FLOATS * 4 + 10 * np.dtype(np.intc).itemsize)
    family_calls(context, PrefixStates(two_states, save_full_state, load_full_state), ["a", "b", "c", "d", "a", "c"])
    assert context.loaded == ["state after c"]  # a was dropped (least recently used) before it came back


@pytest.mark.needs_llama
@requires_local_model
def test_a_kv_prefix_round_trip_gives_the_same_answer_and_keeps_no_logits() -> None:
    """On the embedded model: a context that saved one family's prefix, served another, and loaded
    the first again answers exactly as a fresh context does, and the saved prefix holds no logits
    rows (far smaller than llama-cpp-python's own state)."""
    from factprobe.agents.models.prefix_states import KvPrefix, load_kv_prefix, save_kv_prefix

    model = LocalModel()
    ask = [{"role": "system", "content": "Answer briefly."}, {"role": "user", "content": "Capital of Peru?"}]
    other = [{"role": "system", "content": "Reply in one word."}, {"role": "user", "content": "A colour?"}]
    fresh = model._new_llama(logits_all=False)
    expected = fresh.create_chat_completion(messages=ask, max_tokens=12, temperature=0.0, seed=0)
    llama = model._new_llama(logits_all=False)
    states = PrefixStates(1 << 30, save_kv_prefix, load_kv_prefix)
    for messages in (ask, other, ask):
        states.switch(llama, prompt_family(messages))
        got = llama.create_chat_completion(messages=messages, max_tokens=12, temperature=0.0, seed=0)
    assert got["choices"][0]["message"]["content"] == expected["choices"][0]["message"]["content"]
    saved = save_kv_prefix(llama)
    assert isinstance(saved, KvPrefix) and len(saved.tokens) == llama.n_tokens > 0
    assert saved.nbytes < llama.save_state().scores.nbytes / 4
