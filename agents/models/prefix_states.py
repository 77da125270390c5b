"""Saved KV states of one llama.cpp context, one per prompt family, so strategies that alternate
prompts re-read only what differs between them."""

from __future__ import annotations

import ctypes
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from factprobe.agents.models.base import Message

if TYPE_CHECKING:   # a type only: importing numpy starts its BLAS threads, and `--workers` forks
    import numpy as np  # after reading `default_threads` from factprobe.agents.models.local

PromptFamily = tuple[tuple[str, str], ...]


def prompt_family(messages: list[Message]) -> PromptFamily:
    """Every message but the last: what consecutive calls of one strategy step have in common
    (system line and worked examples), while the last message carries the question."""
    return tuple((message["role"], message["content"]) for message in messages[:-1])


@dataclass(frozen=True)
class KvPrefix:
    """A context's KV state and the tokens it holds, without the logits rows.

    llama-cpp-python's `save_state` also copies one row of logits per token held (n_vocab floats,
    192 KiB a token on the embedded model: about 100 MB for a worked-examples prefix), which a
    context without `logits_all` never reads; this keeps only what llama.cpp needs to resume.
    """

    tokens: np.ndarray
    data: bytes

    @property
    def nbytes(self) -> int:
        return int(self.tokens.nbytes + len(self.data))


def save_kv_prefix(llama: Any) -> KvPrefix:
    """The KV state and tokens `llama` (a llama_cpp.Llama) holds now."""
    import llama_cpp

    size = llama_cpp.llama_state_get_size(llama.ctx)
    buffer = (ctypes.c_uint8 * size)()
    written = llama_cpp.llama_state_get_data(llama.ctx, buffer, size)
    return KvPrefix(tokens=llama.input_ids[:llama.n_tokens].copy(), data=bytes(memoryview(buffer)[:written]))


def load_kv_prefix(llama: Any, saved: KvPrefix) -> None:
    """Put `saved` back into `llama`, as llama-cpp-python's `load_state` does, minus the logits."""
    import llama_cpp

    buffer = (ctypes.c_uint8 * len(saved.data)).from_buffer_copy(saved.data)
    if llama_cpp.llama_state_set_data(llama.ctx, buffer, len(saved.data)) != len(saved.data):
        raise RuntimeError("llama.cpp refused a saved prefix state")
    llama.input_ids[:len(saved.tokens)] = saved.tokens
    llama.n_tokens = len(saved.tokens)
    llama._requires_eval = True  # as load_state: the last token is decoded again before sampling


def save_full_state(llama: Any) -> Any:
    """llama-cpp-python's own state, logits rows included (a `logits_all` context reads them)."""
    return llama.save_state()


def load_full_state(llama: Any, state: Any) -> None:
    llama.load_state(state)


def state_bytes(state: Any) -> int:
    """Memory a saved state holds: a KvPrefix, or llama-cpp-python's LlamaState."""
    if isinstance(state, KvPrefix):
        return state.nbytes
    return int(state.scores.nbytes + state.input_ids.nbytes + state.llama_state_size)


class PrefixStates:
    """Saved states of one context, one per prompt family, least recently used dropped first
    beyond `capacity_bytes`.

    llama.cpp already reuses the prompt prefix held in the context, so consecutive calls of one
    family re-read only the question. When a call switches family, the context's state is saved
    under the family it leaves and the new family's state, if saved, is loaded: strategies that
    alternate prompts (answer/feedback/refine, sample/pick) then re-read only what differs. Used
    instead of llama-cpp-python's LlamaRAMCache, which saves the whole state after every call
    (10-70 ms measured, over 10% of a warm vanilla call). `save`/`load` are KvPrefix's for a plain
    context and llama-cpp-python's own for a `logits_all` one.
    """

    def __init__(self, capacity_bytes: int, save: Callable[[Any], Any] = save_kv_prefix,
                 load: Callable[[Any, Any], None] = load_kv_prefix) -> None:
        self.capacity_bytes = capacity_bytes
        self._save_state, self._load_state = save, load
        self._states: OrderedDict[PromptFamily, Any] = OrderedDict()
        self._current: PromptFamily | None = None

    def switch(self, llama: Any, family: PromptFamily) -> None:
        """Make `llama` hold the longest saved prefix of `family` before a call of that family."""
        if family == self._current:
            return
        state = self._states.pop(family, None)  # saved again, updated, when the context leaves it
        if self._current is not None and llama.n_tokens:
            self._keep(self._current, self._save_state(llama))
        if state is not None:
            self._load_state(llama, state)
        self._current = family

    def _keep(self, family: PromptFamily, state: Any) -> None:
        self._states[family] = state
        while len(self._states) > 1 and sum(map(state_bytes, self._states.values())) > self.capacity_bytes:
            self._states.popitem(last=False)
