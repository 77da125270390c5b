"""Scoring given replies to a chat prompt by the log-probability the model gives their tokens (the
perplexity evaluation of multiple-choice options, MM-SAP Table 7), on a llama.cpp context.

The prompt is the messages in the model's own chat template (its GGUF `tokenizer.chat_template`),
ending where the assistant's reply begins; each reply's text is appended and its tokens' natural-log
probabilities are read from the logits, the prompt evaluated once and its KV cache reused for every
reply. OpenAI-compatible chat servers cannot do this: their `logprobs` describe generated tokens
only, and the completions API's `echo`, where a server has it, takes a text prompt without images.
"""

from __future__ import annotations

import math
from typing import Any

from factprobe.agents.models.base import Message, ModelError


def chat_prompt(llama: Any, messages: list[Message], name: str) -> str:
    """`messages` in the model's chat template, with the assistant's turn opened."""
    from llama_cpp.llama_chat_format import Jinja2ChatFormatter

    template = (getattr(llama, "metadata", None) or {}).get("tokenizer.chat_template")
    if not template:
        raise ModelError(f"{name}: the model file has no chat template, so replies cannot be scored as chat turns")
    special = {"eos_token": llama.token_eos(), "bos_token": llama.token_bos()}
    texts = {key: llama.detokenize([token], special=True).decode("utf-8", "replace") if token >= 0 else ""
             for key, token in special.items()}
    formatter = Jinja2ChatFormatter(template=template, eos_token=texts["eos_token"], bos_token=texts["bos_token"])
    return formatter(messages=[{"role": m["role"], "content": m["content"]} for m in messages]).prompt


def log_softmax_at(row: Any, token: int) -> float:
    """log P(token) from one position's logits."""
    import numpy as np  # llama-cpp-python's own dependency

    values = np.asarray(row, dtype=np.float64)
    peak = float(values.max())
    return float(values[token]) - (peak + math.log(float(np.exp(values - peak).sum())))


def score_continuations(llama: Any, prompt: str, continuations: list[str]) -> tuple[list[list[float]], int]:
    """Each continuation's per-token log-probabilities after `prompt`, and the prompt's token count.
    `llama` must keep the logits of every position (`logits_all`)."""
    prompt_tokens = llama.tokenize(prompt.encode("utf-8"), add_bos=False, special=True)
    llama.reset()
    llama.eval(prompt_tokens)
    last = llama.scores[len(prompt_tokens) - 1].copy()
    scored = []
    for text in continuations:
        tokens = llama.tokenize((prompt + text).encode("utf-8"), add_bos=False, special=True)
        if tokens[:len(prompt_tokens)] != prompt_tokens or len(tokens) == len(prompt_tokens):
            raise ModelError(f"the reply {text!r} does not tokenize as a continuation of the prompt")
        added = tokens[len(prompt_tokens):]
        llama.n_tokens = len(prompt_tokens)   # keep the prompt's KV cache, drop the previous reply
        llama.eval(added)
        rows = [last] + [llama.scores[len(prompt_tokens) + i - 1] for i in range(1, len(added))]
        scored.append([log_softmax_at(row, token) for row, token in zip(rows, added)])
    return scored, len(prompt_tokens)
