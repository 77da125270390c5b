"""Prompt texts used by the strategies. Each has a version recorded in the manifest."""

from __future__ import annotations

PROMPTS_VERSION = "1"

ANSWER_FORMAT = (
    "Reply in exactly two lines:\n"
    "Answer: <your best guess, as short as possible>\n"
    "Confidence: <a number from 0 to 100: how likely your answer is correct>"
)

VANILLA_SYSTEM = "You answer factual questions briefly and accurately."

VANILLA_USER = "{question_block}\n\nGive your best guess even if you are unsure.\n" + ANSWER_FORMAT


def question_block(question: str, passages: list[dict] | None = None) -> str:
    """The question, preceded by retrieved passages when a strategy runs with retrieval.

    Every strategy builds its prompts with this, so `X+rag` works for any strategy X.
    """
    if not passages:
        return f"Question: {question}"
    lines = ["Use these passages if they help:"]
    for number, passage in enumerate(passages, start=1):
        title = f" ({passage['title']})" if passage.get("title") else ""
        lines.append(f"[{number}]{title} {passage['text']}")
    lines.append("")
    lines.append(f"Question: {question}")
    return "\n".join(lines)
