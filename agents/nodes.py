"""Graph nodes several strategies share: asking the model, and parsing its answer."""

from __future__ import annotations

from typing import Any

from factprobe.agents.context import StrategyContext
from factprobe.agents.models.base import Completion, GenerationParams, Message
from factprobe.agents.parsing import parse_answer, parse_confidence
from factprobe.agents.state import QAState


async def ask(context: StrategyContext, messages: list[Message], purpose: str,
              params: GenerationParams) -> tuple[str, dict[str, Any]]:
    """One model call; returns its text and the state update (call record and trace step)."""
    completion, update = await ask_completion(context, messages, purpose, params)
    return completion.text, update


async def ask_completion(context: StrategyContext, messages: list[Message], purpose: str,
                         params: GenerationParams) -> tuple[Completion, dict[str, Any]]:
    """As `ask`, returning the whole completion (its token logprobs, what the backend reported)."""
    completion = await context.model.generate(messages, params)
    # the trace keeps what was sent (the report shows it beside the output)
    step = {"step": purpose, "messages": [dict(message) for message in messages],
            "output": completion.text, "latency_s": completion.latency_s,
            "prompt_tokens": completion.prompt_tokens,
            "completion_tokens": completion.completion_tokens, "cached": completion.cached}
    if params.sample_index:
        step["sample_index"] = params.sample_index
    return completion, {"calls": [completion.record(purpose)], "trace": [step]}


def generate_node(context: StrategyContext, purpose: str = "generate"):
    """A node that sends `state['messages']` to the model and stores the reply in `raw`."""

    async def generate(state: QAState) -> dict[str, Any]:
        params = context.answer_params(state.get("repeat", 0))
        text, update = await ask(context, state["messages"], purpose, params)
        return {"raw": text, **update}

    return generate


async def parse_node(state: QAState) -> dict[str, Any]:
    """Parse `raw` into the answer and its verbalised confidence. A coroutine: langgraph runs a
    plain function node in a thread pool, which costs more than this parse."""
    raw = state.get("raw", "")
    answer, confidence = parse_answer(raw), parse_confidence(raw)
    return {"answer": answer, "confidence": confidence,
            "trace": [{"step": "parse", "answer": answer, "confidence": confidence}]}
