"""A user's LangGraph graph asks the run's own model (and its response cache) through the runtime
context, and its row's trace has one step per node that ran."""

from __future__ import annotations

import asyncio
from typing import TypedDict

import pytest
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

import factprobe
from factprobe.agents import registry
from factprobe.agents.context import StrategyContext
from factprobe.agents.models.cache import CachedModel, ResponseCache
from factprobe.eval.core.schema import Question
from factprobe.eval.run.runner import state_costs
from tests.fakes import ScriptedModel, last_user

pytestmark = pytest.mark.usefixtures("own_strategy_registry")


class DraftState(TypedDict, total=False):
    question: str
    draft: str
    answer: str
    confidence: float


def draft_then_check() -> object:
    """Two nodes, each asking the run's model once, and a third that only copies."""
    async def draft(state: DraftState, runtime: Runtime[factprobe.GraphContext]) -> dict:
        return {"draft": await runtime.context.ask(f"Draft: {state['question']}")}

    async def check(state: DraftState, runtime: Runtime[factprobe.GraphContext]) -> dict:
        reply = await runtime.context.ask([{"role": "user", "content": f"Check: {state['draft']}"}],
                                          purpose="check")
        return {"answer": reply}

    async def finish(state: DraftState) -> dict:
        return {"confidence": 55}

    graph = StateGraph(DraftState)
    for name, node in (("draft", draft), ("check", check), ("finish", finish)):
        graph.add_node(name, node)
    graph.add_edge(START, "draft")
    graph.add_edge("draft", "check")
    graph.add_edge("check", "finish")
    graph.add_edge("finish", END)
    return graph.compile()


def script(messages, params) -> str:
    text = last_user(messages)
    return "Lyon" if text.startswith("Draft") else "Paris"


def run_once(model, repeat: int = 0) -> dict:
    graph = registry.get_strategy("drafting").build(StrategyContext(model=model, seed=3))
    question = Question(id="q", question="Capital of France?", answer="Paris")
    return asyncio.run(graph.ainvoke({"question": question, "repeat": repeat}))


def test_nodes_ask_the_runs_model_and_each_node_is_a_trace_step() -> None:
    factprobe.graph_strategy("drafting", draft_then_check())
    model = ScriptedModel(script)
    state = run_once(model)
    assert state["answer"] == "Paris" and state["confidence"] == 55
    assert [step["step"] for step in state["trace"]] == ["draft", "check", "finish"]
    draft, check, finish = state["trace"]
    assert draft["output"] == {"draft": "Lyon"} and check["output"] == {"answer": "Paris"}
    assert (draft["llm_calls"], check["llm_calls"], finish["llm_calls"]) == (1, 1, 0)
    assert check["messages"][-1]["content"] == "Check: Lyon" and check["reply"] == "Paris"
    costs = state_costs(state)
    assert costs["llm_calls"] == 2 and costs["prompt_tokens"] == draft["prompt_tokens"] + check["prompt_tokens"] > 0
    assert [params.seed for _, params in model.calls] == [3, 3]          # the run's seed, repeat 0


def test_the_runs_cache_answers_a_second_run_of_the_graph(tmp_path) -> None:
    factprobe.graph_strategy("drafting", draft_then_check())
    inner = ScriptedModel(script)
    cached = CachedModel(inner, ResponseCache(tmp_path / "responses.sqlite"))
    first = run_once(cached)
    assert len(inner.calls) == 2 and not first["trace"][0]["cached"]
    second = run_once(cached)
    assert len(inner.calls) == 2 and second["trace"][0]["cached"]   # no new model call
    run_once(cached, repeat=1)                                        # another repeat: its own seed
    assert len(inner.calls) == 4 and inner.calls[-1][1].seed == 3 + 1000


def test_a_run_gives_the_graph_its_model_and_records_every_node(tmp_path, monkeypatch) -> None:
    import factprobe.eval.run.pipeline as pipeline
    from tests.fakes import write_questions

    model = ScriptedModel(script)
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: model)
    factprobe.graph_strategy("drafting", draft_then_check())
    data = write_questions(tmp_path / "q.jsonl", [Question(id="fr", question="Capital of France?", answer="Paris")])
    run = factprobe.run(dataset=f"jsonl:{data}", strategies=["drafting"], out=tmp_path / "run", quiet=True)
    row = run.results[0]
    assert row.grade == "CORRECT" and row.llm_calls == 2 and row.prompt_tokens > 0
    assert [step["step"] for step in row.trace] == ["draft", "check", "finish"]
    assert [last_user(messages) for messages, _ in model.calls] == ["Draft: Capital of France?", "Check: Lyon"]
    assert run.summary["strategies"]["drafting"]["llm_calls_mean"] == 2


def test_nodes_of_one_parallel_superstep_are_each_a_step() -> None:
    class Fan(TypedDict, total=False):
        question: str
        left: str
        right: str
        answer: str

    graph = StateGraph(Fan)
    graph.add_node("left", lambda state: {"left": "L"})
    graph.add_node("right", lambda state: {"right": "R"})
    graph.add_node("join", lambda state: {"answer": state["left"] + state["right"]})
    graph.add_edge(START, "left")
    graph.add_edge(START, "right")
    graph.add_edge(["left", "right"], "join")
    graph.add_edge("join", END)
    factprobe.graph_strategy("fan", graph.compile())
    state = asyncio.run(registry.get_strategy("fan").build(StrategyContext(model=ScriptedModel(script))).ainvoke(
        {"question": Question(id="q", question="?", answer="LR")}))
    assert state["answer"] == "LR"
    assert sorted(step["step"] for step in state["trace"][:2]) == ["left", "right"]
    assert state["trace"][2]["step"] == "join"


def test_a_failing_node_names_the_nodes_that_finished() -> None:
    class Two(TypedDict, total=False):
        question: str
        answer: str

    def broken(state: Two) -> dict:
        raise KeyError("no such page")

    graph = StateGraph(Two)
    graph.add_node("look_up", lambda state: {"answer": "?"})
    graph.add_node("broken", broken)
    graph.add_edge(START, "look_up")
    graph.add_edge("look_up", "broken")
    graph.add_edge("broken", END)
    factprobe.graph_strategy("fragile", graph.compile())
    built = registry.get_strategy("fragile").build(StrategyContext(model=ScriptedModel(script)))
    with pytest.raises(RuntimeError, match=r"failed after the nodes look_up finished: KeyError: 'no such page'"):
        asyncio.run(built.ainvoke({"question": Question(id="q", question="?", answer="a")}))


def test_a_langchain_node_uses_the_runs_model_as_a_chat_model_counted_once() -> None:
    async def answer(state: DraftState, runtime: Runtime[factprobe.GraphContext]) -> dict:
        reply = await runtime.context.chat_model.ainvoke([("system", "Be brief."),
                                                         ("human", f"Draft: {state['question']}")])
        return {"answer": reply.content}

    graph = StateGraph(DraftState)
    graph.add_node("answer", answer)
    graph.add_edge(START, "answer")
    graph.add_edge("answer", END)
    factprobe.graph_strategy("chatty", graph.compile())
    model = ScriptedModel(script)
    state = asyncio.run(registry.get_strategy("chatty").build(StrategyContext(model=model)).ainvoke(
        {"question": Question(id="q", question="Capital of France?", answer="Paris")}))
    assert state["answer"] == "Lyon"
    [(messages, _)] = model.calls
    assert [m["role"] for m in messages] == ["system", "user"] and messages[1]["content"].startswith("Draft:")
    costs = state_costs(state)
    assert costs["llm_calls"] == 1 and costs["prompt_tokens"] == len("Be brief. Draft: Capital of France?".split())
