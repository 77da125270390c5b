"""Every node of factprobe's own strategies is a coroutine: under `astream` LangGraph runs a plain
function node in a thread pool, a hand-off that costs more CPU than the node itself."""

from __future__ import annotations

import pytest

from factprobe.agents.context import StrategyContext
from factprobe.agents.registry import get_strategy
from tests.fakes import ScriptedModel


@pytest.mark.parametrize("name", ["vanilla", "best_of_n", "self_refine", "refusal"])
def test_no_node_of_a_strategy_runs_in_a_thread(name: str) -> None:
    context = StrategyContext(model=ScriptedModel(lambda messages, params: "Answer: Oslo\nConfidence: 70"), seed=0, temperature=0.0,
                              max_tokens=32)
    graph = get_strategy(name).build(context)
    threaded = [node for node, spec in graph.builder.nodes.items() if getattr(spec.runnable, "func", None)]
    assert threaded == []
