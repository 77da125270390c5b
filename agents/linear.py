"""`linear_graph`: the wiring of a strategy that is one chain of steps, START → a → b → … → END."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from factprobe.agents.state import QAState


def linear_graph(steps: Mapping[str, Any], state: type = QAState) -> Any:
    """The compiled graph over `state` that runs the nodes of `steps` (name → node) in order.

    A strategy that branches or loops wires its own graph."""
    from langgraph.graph import END, START, StateGraph  # lazy: only building a strategy needs it

    if not steps:
        raise ValueError("linear_graph needs at least one step")
    graph: StateGraph[Any] = StateGraph(state)
    previous = START
    for name, node in steps.items():
        graph.add_node(name, node)
        graph.add_edge(previous, name)
        previous = name
    graph.add_edge(previous, END)
    return graph.compile()
