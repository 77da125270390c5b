"""The yardstick: a bare `AsyncOpenAI` loop making given chat calls at a given concurrency.

`python -m benchmarks.raw_client BASE_URL MESSAGES.json CONCURRENCY` sends every message list in
the JSON file (a list of message lists) once, as factprobe's vanilla strategy would, and exits.
It imports nothing of factprobe, so its time and CPU are the floor a client can reach.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from openai import AsyncOpenAI

MODEL = "bench"
MAX_TOKENS = 96


async def ask_all(base_url: str, conversations: list[list[dict]], concurrency: int) -> int:
    """Send every conversation; returns how many replies had text."""
    client = AsyncOpenAI(api_key="not-needed", base_url=base_url)
    semaphore = asyncio.Semaphore(concurrency)

    async def one(messages: list[dict]) -> bool:
        async with semaphore:
            response = await client.chat.completions.create(model=MODEL, messages=messages,
                                                            temperature=0.0, max_tokens=MAX_TOKENS, seed=0)
        return bool(response.choices[0].message.content)

    answered = await asyncio.gather(*(one(messages) for messages in conversations))
    await client.close()
    return sum(answered)


if __name__ == "__main__":
    url, path, width = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
    conversations = json.loads(path.read_text(encoding="utf-8"))
    done = asyncio.run(ask_all(url, conversations, width))
    sys.exit(0 if done == len(conversations) else 1)
