"""A user's own compiled LangGraph graph, evaluated like any strategy.

The user's graph reads `{"question": str}` (plus `"passages": [{"id", "title", "text"}, …]` when it
runs as `NAME+rag`) and writes `answer` and optionally `confidence` (0–100). factprobe wraps it in
a one-node QAState graph that times it and records the token usage of the LangChain chat-model
calls inside it through a callback (langchain-core's UsageMetadataCallbackHandler, which sums the
`usage_metadata` every chat model reports). Calls that do not go through LangChain are invisible
to the callback: their tokens are not counted, but their time is in the graph's wall time.
"""

from __future__ import annotations

import time
from typing import Any
from uuid import UUID

from langchain_core.callbacks import UsageMetadataCallbackHandler
from langchain_core.outputs import LLMResult

from factprobe.agents.context import StrategyContext
from factprobe.agents.linear import linear_graph
from factprobe.agents.registry import STRATEGIES, StrategySpec, check_name, register
from factprobe.agents.state import QAState
from factprobe.eval.core.schema import CallRecord


class CallCounter(UsageMetadataCallbackHandler):
    """Token usage per model (the parent class) plus one record per chat-model call with its own time."""

    def __init__(self) -> None:
        super().__init__()
        self.started: dict[UUID, float] = {}
        self.records: list[CallRecord] = []

    def on_chat_model_start(self, serialized: dict[str, Any], messages: Any, *, run_id: UUID,
                            **kwargs: Any) -> None:
        self.started[run_id] = time.perf_counter()

    def on_llm_start(self, serialized: dict[str, Any], prompts: list[str], *, run_id: UUID,
                     **kwargs: Any) -> None:
        self.started[run_id] = time.perf_counter()

    def on_llm_end(self, response: LLMResult, **kwargs: Any) -> None:   # the parent's signature
        super().on_llm_end(response, **kwargs)
        usage: dict[str, Any] = {}
        for generations in response.generations:
            for generation in generations:
                message = getattr(generation, "message", None)
                if message is not None and getattr(message, "usage_metadata", None):
                    usage = message.usage_metadata
        started = self.started.pop(kwargs["run_id"], None)   # LangChain passes every handler the run id
        model = (response.llm_output or {}).get("model_name") or "langchain"
        self.records.append(CallRecord(
            model=str(model), purpose="user_graph", prompt_tokens=int(usage.get("input_tokens", 0)),
            completion_tokens=int(usage.get("output_tokens", 0)),
            latency_s=time.perf_counter() - started if started is not None else 0.0))


def _confidence(value: Any) -> float | None:
    if value is None:
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if 0 <= number <= 100 else None


def wrap_graph(name: str, compiled_graph: Any):
    """A StrategySpec builder: the user's graph as one timed node over QAState."""
    def build(context: StrategyContext):
        async def run_user_graph(state: QAState) -> dict[str, Any]:
            inputs: dict[str, Any] = {"question": state["question"].question}
            if state.get("context") is not None:
                inputs["passages"] = state["context"]
            counter = CallCounter()
            started = time.perf_counter()
            output = await compiled_graph.ainvoke(inputs, config={"callbacks": [counter]})
            wall = time.perf_counter() - started
            if not isinstance(output, dict) or "answer" not in output:
                raise ValueError(f"graph strategy {name!r}: the graph must write an `answer` key; "
                                 f"it returned {type(output).__name__} with keys "
                                 f"{sorted(output) if isinstance(output, dict) else '-'}")
            answer = output.get("answer")
            answer = None if answer is None else str(answer)
            in_calls = sum(record.latency_s for record in counter.records)
            step = {"step": name, "output": answer, "latency_s": wall,
                    "chat_model_calls": len(counter.records),
                    "prompt_tokens": sum(r.prompt_tokens for r in counter.records),
                    "completion_tokens": sum(r.completion_tokens for r in counter.records),
                    "usage_by_model": {model: dict(usage) for model, usage in counter.usage_metadata.items()}}
            return {"answer": answer, "raw": answer or "", "confidence": _confidence(output.get("confidence")),
                    "calls": counter.records, "trace": [step],
                    # graph time outside the chat-model calls (tools, python) still counts as cost
                    "other_latency_s": max(0.0, wall - in_calls)}

        return linear_graph({name: run_user_graph})

    return build


def graph_strategy(name: str, compiled_graph: Any, description: str = "", *, replace: bool = False) -> StrategySpec:
    """Register a user's compiled LangGraph graph as strategy `name` (also usable as `name+rag`).

    The same graph registered again is a no-op; another graph, or a built-in strategy, under a
    taken name is a DuplicateStrategyError (the registry's one rule for duplicates), unless
    `replace=True` (a notebook cell rebuilding its own graph)."""
    check_name(name)
    if not hasattr(compiled_graph, "ainvoke"):
        raise TypeError(f"graph_strategy({name!r}, …): expected a compiled LangGraph graph "
                        f"(StateGraph(...).compile()), got {type(compiled_graph).__name__}")
    if STRATEGIES.load_named(name) and replace:  # a built-in (or installed) strategy registers first
        raise ValueError(f"graph_strategy({name!r}, replace=True): {name!r} is a built-in or installed "
                         f"strategy; choose another name")
    spec = StrategySpec(name, description or f"user graph {name}", wrap_graph(name, compiled_graph),
                        source=f"graph_strategy({name!r}) of graph object {id(compiled_graph):#x}")
    register(spec, replace=replace)
    return spec
