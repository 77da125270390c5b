"""Strategies from the user's own code: the decorator, a wrapped LangGraph graph, --plugin files
and modules, entry points, and the one rule for duplicate names."""

from __future__ import annotations

import asyncio
import textwrap
from pathlib import Path
from typing import TypedDict

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langgraph.graph import END, START, StateGraph

import factprobe
from factprobe.agents import registry
from factprobe.agents.context import StrategyContext
from factprobe.agents.plugins import PluginError, load_plugin
from factprobe.eval.core.schema import Question
from factprobe.eval.run.runner import state_costs
from tests.fakes import ScriptedModel

pytestmark = pytest.mark.usefixtures("own_strategy_registry")


class UserState(TypedDict, total=False):
    question: str
    passages: list
    answer: str
    confidence: float


def chat_graph(reply: str, input_tokens: int = 11, output_tokens: int = 4):
    """A user's own graph: one LangChain chat-model call that reports its token usage."""
    chat = GenericFakeChatModel(messages=iter([AIMessage(content=reply, usage_metadata={
        "input_tokens": input_tokens, "output_tokens": output_tokens,
        "total_tokens": input_tokens + output_tokens})]))

    async def answer(state: UserState) -> dict:
        message = await chat.ainvoke(state["question"])
        return {"answer": message.content, "confidence": 70,
                "passages": state.get("passages")}

    graph = StateGraph(UserState)
    graph.add_node("answer", answer)
    graph.add_edge(START, "answer")
    graph.add_edge("answer", END)
    return graph.compile()


def run_spec(name: str, question: Question, context: dict | None = None) -> dict:
    spec = registry.get_strategy(name)
    graph = spec.build(StrategyContext(model=ScriptedModel(lambda m, p: "Answer: x")))
    state = {"question": question, "repeat": 0, **(context or {})}
    return asyncio.run(graph.ainvoke(state))


def test_graph_strategy_answers_and_counts_the_chat_model_tokens() -> None:
    factprobe.graph_strategy("user_graph", chat_graph("Paris", 11, 4))
    state = run_spec("user_graph", Question(id="q", question="Capital of France?", answer="Paris"))
    costs = state_costs(state)
    assert state["answer"] == "Paris" and state["confidence"] == 70
    assert (costs["prompt_tokens"], costs["completion_tokens"], costs["llm_calls"]) == (11, 4, 1)
    assert costs["latency_s"] >= costs["llm_latency_s"] > 0
    assert [step["step"] for step in state["trace"]] == ["answer"]       # one step per node that ran
    assert state["trace"][0]["graph"] == "user_graph" and state["trace"][0]["prompt_tokens"] == 11


def test_graph_strategy_must_write_an_answer() -> None:
    graph = StateGraph(UserState)
    graph.add_node("noop", lambda state: {"confidence": 5})
    graph.add_edge(START, "noop")
    graph.add_edge("noop", END)
    factprobe.graph_strategy("silent", graph.compile())
    with pytest.raises(ValueError, match="must write an `answer`"):
        run_spec("silent", Question(id="q", question="?", answer="a"))


def test_graph_strategy_rejects_an_uncompiled_graph() -> None:
    with pytest.raises(TypeError, match="compiled LangGraph"):
        factprobe.graph_strategy("raw", StateGraph(UserState))


def test_decorated_builder_registers_and_composes_with_retrieval() -> None:
    @factprobe.strategy("echo_first_word", "answers with the question's first word", reads=())
    def build(context: StrategyContext):
        graph = StateGraph(factprobe.QAState)
        graph.add_node("echo", lambda state: {"answer": state["question"].question.split()[0],
                                              "trace": [{"step": "echo"}]})
        graph.add_edge(START, "echo")
        graph.add_edge("echo", END)
        return graph.compile()

    assert "echo_first_word" in registry.strategies()
    assert registry.get_strategy("echo_first_word+rag").retrieves
    state = run_spec("echo_first_word", Question(id="q", question="Paris is?", answer="Paris"))
    assert state["answer"] == "Paris"


def test_two_builders_under_one_name_is_an_error_naming_both() -> None:
    with pytest.raises(registry.DuplicateStrategyError, match="registered twice"):
        @factprobe.strategy("vanilla", "a second vanilla")
        def build(context):  # pragma: no cover - never built
            raise AssertionError


def test_plugin_file_registers_its_strategy(tmp_path: Path) -> None:
    plugin = tmp_path / "my_strategies.py"
    plugin.write_text(textwrap.dedent('''
        import factprobe
        from langgraph.graph import END, START, StateGraph

        @factprobe.strategy("always_paris", "answers Paris")
        def build(context):
            graph = StateGraph(factprobe.QAState)
            graph.add_node("answer", lambda state: {"answer": "Paris"})
            graph.add_edge(START, "answer")
            graph.add_edge("answer", END)
            return graph.compile()
    '''), encoding="utf-8")
    load_plugin(str(plugin))
    load_plugin(str(plugin))  # loading the same file twice is harmless
    assert registry.strategies()["always_paris"].description == "answers Paris"


def test_plugin_errors_name_the_plugin(tmp_path: Path) -> None:
    with pytest.raises(PluginError, match="no module named 'no_such_module_xyz'"):
        load_plugin("no_such_module_xyz")
    with pytest.raises(PluginError, match="no such file"):
        load_plugin(str(tmp_path / "missing.py"))
    broken = tmp_path / "broken.py"
    broken.write_text("raise RuntimeError('boom')\n", encoding="utf-8")
    with pytest.raises(PluginError, match="RuntimeError: boom"):
        load_plugin(str(broken))


def test_builtin_strategies_come_from_the_entry_point_group() -> None:
    from importlib.metadata import entry_points

    declared = {point.name for point in entry_points(group="factprobe.strategies")}
    assert {"vanilla", "rag", "best_of_n", "self_refine", "refusal", "decompose"} <= declared
    assert declared <= set(registry.strategies())


def test_graph_strategy_follows_the_one_duplicate_rule() -> None:
    first, second = chat_graph("Paris"), chat_graph("Rome")
    with pytest.raises(registry.DuplicateStrategyError, match="registered twice"):
        factprobe.graph_strategy("vanilla", first)            # a built-in name is taken
    factprobe.graph_strategy("mine", first)
    factprobe.graph_strategy("mine", first)                    # the same graph again: fine
    with pytest.raises(registry.DuplicateStrategyError):
        factprobe.graph_strategy("mine", second)
    factprobe.graph_strategy("mine", second, replace=True)     # a notebook cell rebuilding its graph
    assert run_spec("mine", Question(id="q", question="?", answer="Rome"))["answer"] == "Rome"
    with pytest.raises(ValueError, match="without"):
        factprobe.graph_strategy("bad+name", first)
    assert registry.get_strategy("vanilla").origin.startswith("factprobe.agents.strategies.vanilla")
