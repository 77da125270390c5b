"""`linear_graph`, the wiring of the strategies that are one chain of steps."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from factprobe.agents.context import StrategyContext
from factprobe.agents.linear import linear_graph
from factprobe.agents.state import QAState
from factprobe.agents.strategies.best_of_n import build as build_best_of_n
from factprobe.agents.strategies.vanilla import build as build_vanilla
from tests.fakes import ScriptedModel


def edges(compiled: Any) -> set[tuple[str, str]]:
    return {(edge.source, edge.target) for edge in compiled.get_graph().edges}


def step(name: str):
    def node(state: QAState) -> dict[str, Any]:
        return {"trace": [{"step": name}]}

    return node


def test_steps_run_once_each_in_the_order_given() -> None:
    graph = linear_graph({"b": step("b"), "a": step("a"), "c": step("c")})
    assert edges(graph) == {("__start__", "b"), ("b", "a"), ("a", "c"), ("c", "__end__")}
    final = asyncio.run(graph.ainvoke({"trace": []}))
    assert [entry["step"] for entry in final["trace"]] == ["b", "a", "c"]


def test_no_steps_is_an_error() -> None:
    with pytest.raises(ValueError, match="at least one step"):
        linear_graph({})


def test_the_chain_strategies_are_wired_by_it() -> None:
    context = StrategyContext(model=ScriptedModel(lambda messages, params: "Answer: x"), options={"samples": 2})
    assert edges(build_vanilla(context)) == {("__start__", "build_prompt"), ("build_prompt", "generate"),
                                             ("generate", "parse"), ("parse", "__end__")}
    assert edges(build_best_of_n(context)) == {("__start__", "build_prompt"), ("build_prompt", "sample"),
                                               ("sample", "select"), ("select", "__end__")}
