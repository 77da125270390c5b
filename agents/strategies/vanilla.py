"""vanilla: ask once for a best guess and a 0–100 confidence (the seeds' elicitation protocol)."""

from __future__ import annotations

from typing import Any, Callable

from factprobe.agents.benchmark_prompts import benchmark_messages, parse_reply
from factprobe.agents.choices import context_order, presented_question
from factprobe.agents.context import StrategyContext
from factprobe.agents.linear import linear_graph
from factprobe.agents.nodes import generate_node, parse_node
from factprobe.agents.prompts import VANILLA_USER, answer_messages, question_block
from factprobe.agents.registry import register_strategy
from factprobe.agents.state import QAState


def vanilla_messages(question: str, passages: list[dict] | None = None) -> list[dict[str, str]]:
    """The vanilla prompt: worked examples, then the question (and any retrieved passages)."""
    return answer_messages(VANILLA_USER.format(question_block=question_block(question, passages)))


MessagesBuilder = Callable[[str, "list[dict] | None"], list[dict[str, str]]]


def answer_graph(context: StrategyContext, make_messages: MessagesBuilder, offers_refusal: bool = False,
                 refusal_instruction: bool = True):
    """build_prompt → generate → parse: one answer call with the prompt `make_messages` builds.

    A multiple-choice question is asked with its lettered options (agents.choices), plus the
    refusal option when `offers_refusal` (and, in a benchmark prompt, the line saying when to
    choose it unless `refusal_instruction` is off). A run's answer prompt (`--preset` / `--prompt-file`,
    context.options["answer_prompt"]) replaces the prompt and reads the reply in its format
    (factprobe.agents.benchmark_prompts)."""
    prompt = context.options.get("answer_prompt")
    order = context_order(context)

    async def build_prompt(state: QAState) -> dict[str, Any]:
        repeat = state.get("repeat", 0)
        if prompt:
            messages = benchmark_messages(prompt, state["question"], repeat, context.seed, offers_refusal,
                                          state.get("context"), order, refusal_instruction)
        else:
            messages = make_messages(presented_question(state["question"], repeat, context.seed, offers_refusal,
                                                        order), state.get("context"))
        return {"messages": messages, "trace": [{"step": "build_prompt"}]}

    reply_format: str = prompt["reply_format"] if prompt else "lines"

    async def parse_in_format(state: QAState) -> dict[str, Any]:
        answer, confidence, read_as = parse_reply(state.get("raw", ""), reply_format)
        return {"answer": answer, "confidence": confidence,
                "trace": [{"step": "parse", "answer": answer, "confidence": confidence, "read_as": read_as}]}

    return linear_graph({"build_prompt": build_prompt, "generate": generate_node(context),
                         "parse": parse_in_format if prompt else parse_node})


@register_strategy("vanilla", "closed-book answer with a verbalised 0-100 confidence", reads=(), order=10,
                   reusable=True)
def build(context: StrategyContext):
    return answer_graph(context, vanilla_messages)
