"""The yardstick for the embedded model: llama-cpp-python alone making given calls, one at a time.

`python -m benchmarks.raw_llama MODEL.gguf CALLS.json THREADS` loads one context as factprobe's
plain context is loaded (n_ctx 4096, THREADS for generation and prompt reading) and makes every
call in CALLS.json (written by benchmarks/local_run_recorder.py) in order, with the same messages,
temperature, max_tokens, seed and stop strings. It imports nothing of factprobe.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from llama_cpp import Llama


def replay(model_path: Path, calls: list[dict], threads: int) -> int:
    """Make every call; returns how many replies had text."""
    llama = Llama(model_path=str(model_path), n_ctx=4096, n_threads=threads, n_threads_batch=threads,
                  verbose=False)
    if any(call["params"]["logprobs"] for call in calls):
        raise SystemExit("calls asking for logprobs need a logits_all context; replay runs without them")
    answered = 0
    for call in calls:
        params = call["params"]
        seed = params["seed"] if params["seed"] is not None else 0
        out = llama.create_chat_completion(messages=call["messages"], temperature=params["temperature"],
                                           max_tokens=params["max_tokens"], seed=seed + params["sample_index"],
                                           stop=list(params["stop"]) or None)
        answered += bool(out["choices"][0]["message"].get("content"))
    return answered


if __name__ == "__main__":
    path, calls_file, thread_count = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    replay(path, json.loads(calls_file.read_text(encoding="utf-8")), thread_count)
