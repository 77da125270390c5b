"""self_refine: answer, self-feedback, refined answer, for `--rounds K` rounds (docs/protocols.md §4).

Round 0 is the vanilla answer. Each round asks the model to check the current answer and end with
a verdict line ("Verdict: KEEP" or "Verdict: REVISE"; a line that only says "The answer is
correct." counts too); a clear KEEP stops early, anything else (REVISE or no readable verdict)
leads to a refined answer. Every round's answer, confidence, verdict
and token cost is recorded in `samples` (field `round`), so per-round accuracy can be recomputed
offline. The loop is bounded by the round counter in state and a conditional edge.
"""

from __future__ import annotations

import re
from typing import Any

from langgraph.graph import END, START, StateGraph

from factprobe.agents.choices import asked_text
from factprobe.agents.context import StrategyContext
from factprobe.agents.nodes import ask, generate_node, parse_node
from factprobe.agents.parsing import parse_answer, parse_confidence
from factprobe.agents.prompts import FEEDBACK_SYSTEM, FEEDBACK_USER, REFINE_USER, answer_messages, question_block
from factprobe.agents.registry import register_strategy
from factprobe.agents.state import QAState
from factprobe.agents.strategies.vanilla import vanilla_messages
from factprobe.eval.core.errors import StrategyOptionError

# Each round is two graph steps; this keeps any run well inside the runner's recursion limit.
MAX_ROUNDS = 32

_VERDICT = re.compile(r"^\W*verdict\W*?(?:[:：=-]|\s+is\b)?\s*\W*(keep|revise|incorrect|correct|stands|wrong|change)\b",
                      re.IGNORECASE | re.MULTILINE)
# A whole line stating the verdict in words ("The answer is correct.", "The answer should change.").
_VERDICT_SENTENCE = re.compile(
    r"^\W*(?:the\s+)?(?:proposed\s+)?answer\s+(?:is\s+(incorrect|correct|wrong|right)"
    r"|(?:should|must|needs\s+to)\s+(change|be\s+revised|stand|be\s+kept))\W*$", re.IGNORECASE | re.MULTILINE)
_KEEP = {"keep", "correct", "stands", "right", "stand", "be kept"}


def parse_verdict(text: str) -> str | None:
    """'keep' or 'revise' from the last verdict line of the feedback; None when there is none.

    A verdict line is "Verdict: KEEP|REVISE" (or correct/incorrect/…), or a line that is only a
    verdict sentence ("The answer is correct.", "The answer should change."); the last one counts.
    """
    found = [(m.start(), m.group(1)) for m in _VERDICT.finditer(text)]
    found += [(m.start(), m.group(1) or m.group(2)) for m in _VERDICT_SENTENCE.finditer(text)]
    if not found:
        return None
    word = " ".join(max(found)[1].lower().split())
    return "keep" if word in _KEEP else "revise"


def feedback_messages(question: str, passages: list[dict] | None, answer: str | None) -> list[dict[str, str]]:
    user = FEEDBACK_USER.format(question_block=question_block(question, passages),
                                answer=answer or "(no answer)")
    return [{"role": "system", "content": FEEDBACK_SYSTEM}, {"role": "user", "content": user}]


def refine_messages(question: str, passages: list[dict] | None, answer: str | None,
                    feedback: str) -> list[dict[str, str]]:
    user = REFINE_USER.format(question_block=question_block(question, passages),
                              answer=answer or "(no answer)", feedback=feedback.strip() or "(none)")
    return answer_messages(user)


def call_tokens(update: dict[str, Any]) -> int:
    return sum(call.prompt_tokens + call.completion_tokens for call in update["calls"])


def rounds_option(context: StrategyContext) -> int:
    rounds = int(context.options.get("rounds", 2))
    if not 0 <= rounds <= MAX_ROUNDS:
        raise StrategyOptionError(f"self_refine: --rounds must be between 0 and {MAX_ROUNDS}, got {rounds}")
    return rounds


@register_strategy("self_refine", "answer, self-feedback, refined answer; stops when the answer stands (--rounds)",
                   samples=True, refines=True, reads=("rounds",), order=60, reusable=True)
def build(context: StrategyContext):
    rounds = rounds_option(context)

    async def build_prompt(state: QAState) -> dict[str, Any]:
        return {"messages": vanilla_messages(asked_text(state, context), state.get("context")),
                "trace": [{"step": "build_prompt"}]}

    async def start_rounds(state: QAState) -> dict[str, Any]:
        tokens = sum(call.prompt_tokens + call.completion_tokens for call in state.get("calls", []))
        record = {"round": 0, "answer": state.get("answer"), "confidence": state.get("confidence"),
                  "raw": state.get("raw"), "tokens": tokens, "verdict": None, "refined": False}
        return {"round": 0, "samples": [record], "trace": [{"step": "start_rounds", "max_rounds": rounds}]}

    async def feedback(state: QAState) -> dict[str, Any]:
        number = state["round"] + 1
        messages = feedback_messages(asked_text(state, context), state.get("context"), state.get("answer"))
        text, update = await ask(context, messages, "feedback", context.params(repeat=state.get("repeat", 0)))
        verdict = parse_verdict(text)
        step = {"step": "verdict", "round": number, "verdict": verdict}
        out: dict[str, Any] = {"round": number, "extra": {**state.get("extra", {}), "feedback": text,
                                                          "feedback_tokens": call_tokens(update)},
                               "calls": update["calls"], "trace": [*update["trace"], step]}
        if verdict == "keep":
            record = {"round": number, "answer": state.get("answer"), "confidence": state.get("confidence"),
                      "raw": state.get("raw"), "tokens": call_tokens(update), "verdict": verdict,
                      "refined": False}
            out["samples"] = [*state["samples"], record]
            out["extra"]["stopped"] = True
        return out

    async def refine(state: QAState) -> dict[str, Any]:
        extra = state["extra"]
        messages = refine_messages(asked_text(state, context), state.get("context"), state.get("answer"),
                                   extra["feedback"])
        text, update = await ask(context, messages, "refine", context.params(repeat=state.get("repeat", 0)))
        answer, confidence = parse_answer(text), parse_confidence(text)
        record = {"round": state["round"], "answer": answer, "confidence": confidence, "raw": text,
                  "tokens": extra["feedback_tokens"] + call_tokens(update),
                  "verdict": parse_verdict(extra["feedback"]), "refined": True}
        step = {"step": "parse_refined", "round": state["round"], "answer": answer, "confidence": confidence}
        return {"answer": answer, "confidence": confidence, "raw": text,
                "samples": [*state["samples"], record], "calls": update["calls"],
                "trace": [*update["trace"], step]}

    def after_start(state: QAState) -> str:
        return "feedback" if rounds > 0 else END

    def after_feedback(state: QAState) -> str:
        return END if state.get("extra", {}).get("stopped") else "refine"

    def after_refine(state: QAState) -> str:
        return "feedback" if state["round"] < rounds else END

    graph = StateGraph(QAState)
    graph.add_node("build_prompt", build_prompt)
    graph.add_node("generate", generate_node(context))
    graph.add_node("parse", parse_node)
    graph.add_node("start_rounds", start_rounds)
    graph.add_node("feedback", feedback)
    graph.add_node("refine", refine)
    graph.add_edge(START, "build_prompt")
    graph.add_edge("build_prompt", "generate")
    graph.add_edge("generate", "parse")
    graph.add_edge("parse", "start_rounds")
    graph.add_conditional_edges("start_rounds", after_start, ["feedback", END])
    graph.add_conditional_edges("feedback", after_feedback, ["refine", END])
    graph.add_conditional_edges("refine", after_refine, ["feedback", END])
    return graph.compile()
