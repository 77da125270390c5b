"""A user's own compiled LangGraph graph, evaluated like any strategy.

The user's graph reads `{"question": str}` (plus `"passages": [{"id", "title", "text"}, …]` when it
runs as `NAME+rag`) and writes `answer` and optionally `confidence` (0–100). factprobe runs it
inside a one-node QAState graph and gives every node the run's model as LangGraph's runtime
context: a node declaring a `runtime: Runtime` parameter calls `await runtime.context.ask(prompt)`,
which asks the run's `--model` through the run's response cache (and media attachments), with the
repeat's seed, and records the call's tokens and time in the row (see `GraphContext`).

The row's trace has one step per node that ran, in the order LangGraph finished them: its name,
what it wrote (`output`, values shortened), its wall time and the model calls made since the
previous node finished (one `ask`: its `messages` and `reply`; several: `calls`); nodes of one
parallel superstep share theirs, listed on the first of them. LangChain chat-model calls inside
the graph are counted through a callback (langchain-core's UsageMetadataCallbackHandler, which
sums the `usage_metadata` every chat model reports); calls that go through neither are
invisible: their tokens are not counted, but their time is in the graph's wall time.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from langchain_core.callbacks import UsageMetadataCallbackHandler
from langchain_core.outputs import LLMResult

from factprobe.agents.context import StrategyContext
from factprobe.agents.graph_chat_model import RECORDED
from factprobe.agents.linear import linear_graph
from factprobe.agents.models.base import ChatModel, Message
from factprobe.agents.nodes import ask
from factprobe.agents.registry import STRATEGIES, GraphBuilder, StrategySpec, check_name, register
from factprobe.agents.state import QAState
from factprobe.eval.core.schema import CallRecord, Question
from factprobe.eval.core.secrets import clip

BRIEF = 300   # characters of a written value kept in a trace step


class GraphStrategyError(RuntimeError):
    """A user's graph that raised; the message names the nodes that finished before it."""


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
        if (response.llm_output or {}).get(RECORDED):   # the run's model: GraphContext.ask recorded it
            self.started.pop(kwargs["run_id"], None)
            return
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


@dataclass
class GraphContext:
    """What every node of a user's graph gets as `runtime.context`: the run's model (behind its
    response cache), the run's strategy options and seed, the question and repeat, and `ask`."""

    strategy: StrategyContext
    question: Question
    repeat: int = 0
    calls: list[CallRecord] = field(default_factory=list)
    steps: list[dict[str, Any]] = field(default_factory=list)   # one per `ask`: messages and reply

    @property
    def model(self) -> ChatModel:
        """The run's `--model` client (cached unless `--no-cache`); `ask` records what it costs."""
        return self.strategy.model

    @property
    def chat_model(self) -> Any:
        """The run's model as a LangChain chat model (`await chat_model.ainvoke(messages)`), recorded as `ask`."""
        from factprobe.agents.graph_chat_model import RunChatModel

        return RunChatModel(graph_context=self)

    @property
    def options(self) -> dict[str, Any]:
        """The run's strategy options (samples, top_k, …) as the CLI resolved them."""
        return self.strategy.options

    async def ask(self, prompt: str | list[Message], *, purpose: str = "ask", sample_index: int = 0,
                  temperature: float | None = None, max_tokens: int | None = None) -> str:
        """The run's model's reply to `prompt` (a user message, or a list of chat messages), with
        the repeat's seed; draw distinct samples of one prompt with distinct `sample_index`es (the
        cache keeps them apart). The call's tokens and time count as the strategy's cost."""
        messages: list[Message] = [{"role": "user", "content": prompt}] if isinstance(prompt, str) else list(prompt)
        params = self.strategy.params(repeat=self.repeat, sample_index=sample_index, temperature=temperature,
                                      max_tokens=max_tokens)
        text, update = await ask(self.strategy, messages, purpose, params)
        self.calls.extend(update["calls"])
        self.steps.extend(update["trace"])
        return text


def _confidence(value: Any) -> float | None:
    if value is None:
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if 0 <= number <= 100 else None


def brief(value: Any) -> Any:
    """A value a node wrote, as the trace keeps it: numbers as they are, anything else as text of
    at most BRIEF characters (JSON where it can be), secrets redacted before the cut."""
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, str):
        text = value
    else:
        try:
            text = json.dumps(value, default=repr, ensure_ascii=False)
        except (TypeError, ValueError):   # a circular structure
            text = repr(value)
    return clip(text, BRIEF, "…")


class NodeTrace:
    """Turns the graph's stream of node updates into one trace step per node that ran."""

    def __init__(self, graph: str, context: GraphContext, counter: CallCounter) -> None:
        self.graph, self.context, self.counter = graph, context, counter
        self.steps: list[dict[str, Any]] = []
        self.mark = time.perf_counter()
        self.seen_calls = self.seen_asks = self.seen_chat = 0

    def add(self, updates: dict[str, Any]) -> None:
        """Record the nodes of one update event (several when a superstep ran nodes in parallel)."""
        now = time.perf_counter()
        nodes = [name for name in updates if not name.startswith("__")]
        calls = self.context.calls[self.seen_calls:] + self.counter.records[self.seen_chat:]
        asks = self.context.steps[self.seen_asks:]
        for index, node in enumerate(nodes):
            written = updates[node] if isinstance(updates[node], dict) else {}
            step: dict[str, Any] = {"step": node, "graph": self.graph, "latency_s": now - self.mark,
                                    "output": {key: brief(value) for key, value in written.items()}}
            if index == 0:
                step.update(llm_calls=len(calls), prompt_tokens=sum(c.prompt_tokens for c in calls),
                            completion_tokens=sum(c.completion_tokens for c in calls))
                if len(asks) == 1:   # the one prompt and reply, shown as every strategy's call step
                    step.update(messages=asks[0]["messages"], reply=asks[0]["output"], cached=asks[0]["cached"])
                elif asks:
                    step["calls"] = asks
                if len(nodes) > 1:
                    step["parallel_with"] = nodes[1:]
            self.steps.append(step)
        self.mark = now
        self.seen_calls, self.seen_asks = len(self.context.calls), len(self.context.steps)
        self.seen_chat = len(self.counter.records)


def wrap_graph(name: str, compiled_graph: Any) -> GraphBuilder:
    """A StrategySpec builder: the user's graph as one timed node over QAState."""
    def build(context: StrategyContext) -> Any:
        async def run_user_graph(state: QAState) -> dict[str, Any]:
            inputs: dict[str, Any] = {"question": state["question"].question}
            if state.get("context") is not None:
                inputs["passages"] = state["context"]
            runtime = GraphContext(context, state["question"], state.get("repeat", 0))
            counter = CallCounter()
            trace = NodeTrace(name, runtime, counter)
            output: Any = None
            started = time.perf_counter()
            try:
                async for mode, chunk in compiled_graph.astream(inputs, config={"callbacks": [counter]},
                                                                context=runtime, stream_mode=["updates", "values"]):
                    if mode == "updates":
                        trace.add(chunk)
                    else:
                        output = chunk
            except Exception as exc:   # the row's error says how far the graph got
                done = ", ".join(step["step"] for step in trace.steps) or "none"
                raise GraphStrategyError(f"graph strategy {name!r} failed after the nodes {done} finished: "
                                         f"{type(exc).__name__}: {exc}") from exc
            wall = time.perf_counter() - started
            if not isinstance(output, dict) or "answer" not in output:
                raise ValueError(f"graph strategy {name!r}: the graph must write an `answer` key; "
                                 f"it returned {type(output).__name__} with keys "
                                 f"{sorted(output) if isinstance(output, dict) else '-'}")
            answer = output.get("answer")
            answer = None if answer is None else str(answer)
            calls = [*runtime.calls, *counter.records]
            in_calls = sum(record.latency_s for record in calls)
            return {"answer": answer, "raw": answer or "", "confidence": _confidence(output.get("confidence")),
                    "calls": calls, "trace": trace.steps,
                    # graph time outside the model calls (tools, python) still counts as cost
                    "other_latency_s": max(0.0, wall - in_calls)}

        return linear_graph({name: run_user_graph})

    return build


def graph_strategy(name: str, compiled_graph: Any, description: str = "", *, replace: bool = False) -> StrategySpec:
    """Register a user's compiled LangGraph graph as strategy `name` (also usable as `name+rag`).

    The same graph registered again is a no-op; another graph, or a built-in strategy, under a
    taken name is a DuplicateStrategyError (the registry's one rule for duplicates), unless
    `replace=True` (a notebook cell rebuilding its own graph)."""
    check_name(name)
    if not hasattr(compiled_graph, "astream"):
        raise TypeError(f"graph_strategy({name!r}, …): expected a compiled LangGraph graph "
                        f"(StateGraph(...).compile()), got {type(compiled_graph).__name__}")
    if STRATEGIES.load_named(name) and replace:  # a built-in (or installed) strategy registers first
        raise ValueError(f"graph_strategy({name!r}, replace=True): {name!r} is a built-in or installed "
                         f"strategy; choose another name")
    spec = StrategySpec(name, description or f"user graph {name}", wrap_graph(name, compiled_graph),
                        source=f"graph_strategy({name!r}) of graph object {id(compiled_graph):#x}")
    register(spec, replace=replace)
    return spec
