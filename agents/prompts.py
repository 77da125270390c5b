"""Prompt texts used by the strategies. Each has a version recorded in the manifest."""

from __future__ import annotations

PROMPTS_VERSION = "1"

ANSWER_FORMAT = (
    "Reply in exactly two lines:\n"
    "Answer: <your best guess, as short as possible>\n"
    "Confidence: <a number from 0 to 100: how likely your answer is correct>"
)

VANILLA_SYSTEM = "You answer factual questions briefly and accurately."

VANILLA_USER = "Question: {question}\n\nGive your best guess even if you are unsure.\n" + ANSWER_FORMAT
