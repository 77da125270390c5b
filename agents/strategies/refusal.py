"""refusal: the vanilla prompt with the MM-SAP refusal option (protocols §6).

"Give your best guess even if you are unsure" is replaced by an instruction to answer with the
fixed phrase "Sorry, I can't help with it" when the model does not know; the rule grader grades
that phrase NOT_ATTEMPTED. The forced re-ask of refused questions (unknown knowns) is a post step:
eval/forced_reask.py.
"""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph

from agents.context import StrategyContext
from agents.nodes import generate_node, parse_node
from agents.prompts import REFUSAL_USER, answer_messages, question_block
from agents.registry import register_strategy
from agents.state import QAState


def refusal_messages(question: str, passages: list[dict] | None = None) -> list[dict[str, str]]:
    """The refusal prompt: the vanilla examples, then the question with the refusal option."""
    return answer_messages(REFUSAL_USER.format(question_block=question_block(question, passages)))


@register_strategy("refusal", "vanilla prompt plus the option to reply \"Sorry, I can't help with it\"")
def build(context: StrategyContext):
    def build_prompt(state: QAState) -> dict[str, Any]:
        return {"messages": refusal_messages(state["question"].question, state.get("context")),
                "trace": [{"step": "build_prompt"}]}

    graph = StateGraph(QAState)
    graph.add_node("build_prompt", build_prompt)
    graph.add_node("generate", generate_node(context))
    graph.add_node("parse", parse_node)
    graph.add_edge(START, "build_prompt")
    graph.add_edge("build_prompt", "generate")
    graph.add_edge("generate", "parse")
    graph.add_edge("parse", END)
    return graph.compile()
