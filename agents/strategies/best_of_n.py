"""best_of_n: N independent samples, then one is selected (docs/protocols.md §4, Video SimpleQA suppl.).

Every sample is drawn with its own `sample_index` at `--sample-temperature` (1.0 by default, the
paper's setting) and recorded in `samples`, so accuracy at smaller N can be recomputed offline.
`--selector` chooses how the answer is picked: `model` (the model picks among the numbered
candidates; an unparseable pick falls back to sample 1 and is recorded as `pick_failed`),
`majority` (self-consistency over normalised answers) or `confidence` (highest stated confidence).
"""

from __future__ import annotations

import asyncio
from typing import Any

from factprobe.agents.choices import asked_text
from factprobe.agents.context import StrategyContext
from factprobe.agents.linear import linear_graph
from factprobe.agents.nodes import ask
from factprobe.agents.parsing import parse_answer, parse_confidence
from factprobe.agents.registry import register_strategy
from factprobe.agents.selection import SELECTORS, confidence_index, majority_index, parse_pick, selection_messages
from factprobe.agents.state import QAState
from factprobe.agents.strategies.vanilla import vanilla_messages
from factprobe.eval.core.errors import StrategyOptionError


def sample_record(index: int, text: str, update: dict[str, Any]) -> dict[str, Any]:
    """One recorded sample: its index, parsed answer and confidence, raw reply and cost."""
    call = update["calls"][0]
    return {"sample_index": index, "answer": parse_answer(text), "confidence": parse_confidence(text),
            "raw": text, "prompt_tokens": call.prompt_tokens,
            "completion_tokens": call.completion_tokens,
            "tokens": call.prompt_tokens + call.completion_tokens, "latency_s": call.latency_s}


async def model_pick(context: StrategyContext, state: QAState,
                     answers: list[str | None]) -> tuple[int, bool, dict[str, Any]]:
    """Ask the model for the best candidate: (0-based index, pick_failed, state update)."""
    if len(answers) == 1:
        return 0, False, {"calls": [], "trace": []}
    messages = selection_messages(asked_text(state, context), state.get("context"), answers)
    text, update = await ask(context, messages, "select", context.params(repeat=state.get("repeat", 0)))
    index = parse_pick(text, answers)
    return (0, True, update) if index is None else (index, False, update)


def options(context: StrategyContext) -> tuple[int, float, str]:
    """The validated (samples, sample_temperature, selector) options."""
    samples = int(context.options.get("samples", 4))
    temperature = float(context.options.get("sample_temperature", 1.0))
    selector = str(context.options.get("selector", "model"))
    if samples < 1:
        raise StrategyOptionError(f"best_of_n: --samples must be at least 1, got {samples}")
    if temperature < 0:
        raise StrategyOptionError(f"best_of_n: --sample-temperature must be >= 0, got {temperature}")
    if selector not in SELECTORS:
        raise StrategyOptionError(f"best_of_n: unknown --selector {selector!r}; "
                                  f"choose one of {', '.join(SELECTORS)}")
    return samples, temperature, selector


@register_strategy("best_of_n", "N samples at temperature 1.0, one selected (--samples, --selector)",
                   samples=True, selects=True, reads=("samples", "sample_temperature", "selector"), order=20,
                   reusable=True)
def build(context: StrategyContext):
    count, temperature, selector = options(context)

    async def build_prompt(state: QAState) -> dict[str, Any]:
        return {"messages": vanilla_messages(asked_text(state, context), state.get("context")),
                "trace": [{"step": "build_prompt"}]}

    async def sample(state: QAState) -> dict[str, Any]:
        repeat = state.get("repeat", 0)
        replies = await asyncio.gather(*(
            ask(context, state["messages"], "sample",
                context.params(repeat=repeat, sample_index=index, temperature=temperature))
            for index in range(1, count + 1)))
        records = [sample_record(index, text, update)
                   for index, (text, update) in enumerate(replies, start=1)]
        trace: list[dict[str, Any]] = []
        for record, (_, update) in zip(records, replies):
            trace.extend(update["trace"])
            trace.append({"step": "parse_sample", "sample_index": record["sample_index"],
                          "answer": record["answer"], "confidence": record["confidence"]})
        return {"samples": records, "trace": trace,
                "calls": [call for _, update in replies for call in update["calls"]]}

    async def select(state: QAState) -> dict[str, Any]:
        records = state["samples"]
        answers = [record["answer"] for record in records]
        update: dict[str, Any] = {"calls": [], "trace": []}
        pick_failed = False
        if selector == "model":
            index, pick_failed, update = await model_pick(context, state, answers)
        elif selector == "majority":
            index = majority_index(answers)
        else:
            index = confidence_index([record["confidence"] for record in records])
        chosen = records[index]
        samples = [{**record, "selected": i == index} for i, record in enumerate(records)]
        step = {"step": "choose", "selector": selector, "n": len(records),
                "sample_index": chosen["sample_index"], "pick_failed": pick_failed}
        if update["calls"]:
            call = update["calls"][0]
            step["tokens"] = call.prompt_tokens + call.completion_tokens
        return {"answer": chosen["answer"], "confidence": chosen["confidence"], "raw": chosen["raw"],
                "samples": samples, "calls": update["calls"], "trace": [*update["trace"], step]}

    return linear_graph({"build_prompt": build_prompt, "sample": sample, "select": select})
