"""LangGraph's own cost per question: the vanilla strategy's graph run in this process on a model
that answers at once, so what is timed is the graph runtime plus factprobe's nodes, no I/O.

Strategies are LangGraph graphs by design, so this is a floor under factprobe's per-question cost
that no client-side change short of dropping the graph runtime can remove.
"""

from __future__ import annotations

import asyncio
import time

from factprobe.agents.context import StrategyContext
from factprobe.agents.models.base import Completion, GenerationParams, Message
from factprobe.agents.registry import get_strategy
from factprobe.eval.core.schema import Question
from factprobe.eval.run.runner import stream_graph


class InstantModel:
    """Answers every call at once with a fixed reply."""

    name = "instant"
    supports_logprobs = False
    supports_images = False

    async def generate(self, messages: list[Message], params: GenerationParams) -> Completion:
        return Completion(text="Answer: Paris\nConfidence: 80", model=self.name, prompt_tokens=10,
                          completion_tokens=5, latency_s=0.0)

    def describe(self) -> dict:
        return {"backend": "instant"}


def graph_seconds_per_question(questions: int) -> float:
    """Mean wall seconds of one vanilla graph run (build_prompt → generate → parse), as the runner
    streams it, over `questions` distinct questions, after one untimed run."""
    context = StrategyContext(model=InstantModel(), seed=0, temperature=0.0, max_tokens=96)
    graph = get_strategy("vanilla").build(context)
    asked = [Question(id=f"q{n}", question=f"Which city is landmark number {n} in?", answer="Paris")
             for n in range(questions)]

    async def run_all() -> float:
        await stream_graph(graph, {"question": asked[0], "repeat": 0}, {})
        started = time.perf_counter()
        for question in asked:
            await stream_graph(graph, {"question": question, "repeat": 0}, {})
        return (time.perf_counter() - started) / len(asked)

    return asyncio.run(run_all())
