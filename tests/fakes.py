"""A scripted model for unit tests: replies come from a function of the prompt, no model is loaded."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from factprobe.agents.models.base import Completion, GenerationParams, Message, ModelError
from factprobe.eval.core.schema import Question

Script = Callable[[list[Message], GenerationParams], str]


class ScriptedModel:
    """A ChatModel whose reply is `script(messages, params)`; records every call it gets.

    A script may raise ModelError to simulate a failed call.
    """

    supports_logprobs = False

    def __init__(self, script: Script, name: str = "scripted") -> None:
        self.script = script
        self.name = name
        self.calls: list[tuple[list[Message], GenerationParams]] = []

    async def generate(self, messages: list[Message], params: GenerationParams) -> Completion:
        self.calls.append((messages, params))
        text = self.script(messages, params)
        prompt_tokens = sum(len(m["content"].split()) for m in messages)
        return Completion(text=text, model=self.name, prompt_tokens=prompt_tokens,
                          completion_tokens=len(text.split()), latency_s=0.01)

    def describe(self) -> dict:
        return {"backend": "scripted", "name": self.name}


def last_user(messages: list[Message]) -> str:
    """The content of the last user message."""
    return next(m["content"] for m in reversed(messages) if m["role"] == "user")


def failing(message: str) -> Script:
    def script(messages: list[Message], params: GenerationParams) -> str:
        raise ModelError(message)

    return script


def write_questions(path: Path, questions: list[Question]) -> Path:
    """A native-schema JSONL dataset file holding `questions`, one per line."""
    path.write_text("".join(q.model_dump_json() + "\n" for q in questions), encoding="utf-8")
    return path
