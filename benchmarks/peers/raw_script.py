"""The smallest client a user would write: a semaphore, one request per question, one JSONL.

`python -m benchmarks.peers.raw_script BASE_URL MESSAGES.json CONCURRENCY OUT.jsonl` sends every
message list of the JSON file (a list of [id, messages] pairs) once and writes one line per
question, `{"id", "answer"}`, when all are answered. It imports nothing of factprobe.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from openai import AsyncOpenAI

MODEL = "bench"
MAX_TOKENS = 96


async def ask_all(base_url: str, conversations: list[list], concurrency: int) -> list[dict]:
    """Every conversation's answer, in the order given."""
    client = AsyncOpenAI(api_key="not-needed", base_url=base_url)
    semaphore = asyncio.Semaphore(concurrency)

    async def one(question_id: str, messages: list[dict]) -> dict:
        async with semaphore:
            response = await client.chat.completions.create(model=MODEL, messages=messages, temperature=0.0,
                                                            max_tokens=MAX_TOKENS, seed=0)
        return {"id": question_id, "answer": response.choices[0].message.content}

    answers = await asyncio.gather(*(one(question_id, messages) for question_id, messages in conversations))
    await client.close()
    return answers


def main(argv: list[str]) -> int:
    url, source, width, out = argv[0], Path(argv[1]), int(argv[2]), Path(argv[3])
    conversations = json.loads(source.read_text(encoding="utf-8"))
    answers = asyncio.run(ask_all(url, conversations, width))
    with out.open("w", encoding="utf-8") as handle:
        for answer in answers:
            handle.write(json.dumps(answer) + "\n")
    return 0 if all(answer["answer"] for answer in answers) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
