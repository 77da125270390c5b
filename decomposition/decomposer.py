"""Decomposers: turn a question into a plan of single-fact sub-questions that may use `#k`.

`model` asks the LLM for a numbered list and validates it; `gold` takes the dataset's sub-QAs
(Question.hops). Every plan is valid by construction: 1 to MAX_HOPS hops, and each `#k` points at
an earlier hop. A reply that cannot be read as such a plan (no numbered lines, more than MAX_HOPS
hops, a reference to the same or a later hop) is rejected as a whole and the plan falls back to
one hop, the question itself, with the reason kept. Cutting an over-long plan was rejected as an
option: the hops past the cut are the ones that ask for the final answer.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, replace
from typing import Any

from factprobe.agents.context import StrategyContext
from factprobe.agents.nodes import ask
from factprobe.agents.prompts import DECOMPOSE_EXAMPLES, DECOMPOSE_SYSTEM, DECOMPOSE_USER, question_block
from factprobe.eval.core.errors import StrategyOptionError
from factprobe.eval.core.schema import HOP_REFERENCE, Question

MAX_HOPS = 5
DECOMPOSERS = ("model", "gold")
DECOMPOSER_MAX_TOKENS = 128

_NUMBERED = re.compile(
    r"^\s*(?:[-*]\s*)?\**\s*(?:(?:sub-?question|step|q)\s*)?(?P<number>\d+)\s*\**\s*[.):\]]\s*(?P<text>.+?)\s*$",
    re.IGNORECASE)


class PlanError(ValueError):
    """A decomposer reply that is not a valid plan; the message says why."""


@dataclass(frozen=True)
class Plan:
    """Sub-questions in order (`#k` = answer of hop k, 1-based) and how they were obtained.

    `fallback` is None for a plan the decomposer produced, else why the question became one hop.
    """

    hops: tuple[str, ...]
    decomposer: str
    fallback: str | None = None

    def record(self) -> dict[str, Any]:
        """What the trace and the result row keep about the plan."""
        return {**asdict(self), "hops": list(self.hops)}


def check_decomposer(name: str) -> str:
    """`name` when it is a known decomposer; StrategyOptionError otherwise."""
    if name not in DECOMPOSERS:
        raise StrategyOptionError(f"decompose: unknown --decomposer {name!r}; known: {', '.join(DECOMPOSERS)}")
    return name


def validate_plan(hops: list[str], max_hops: int = MAX_HOPS) -> tuple[str, ...]:
    """The hops when they form a valid plan; PlanError naming the first problem otherwise."""
    if not hops:
        raise PlanError("no numbered sub-questions")
    if len(hops) > max_hops:
        raise PlanError(f"{len(hops)} sub-questions, more than the limit of {max_hops}")
    for index, text in enumerate(hops, start=1):
        if not HOP_REFERENCE.sub("", text).strip(" ?.!"):
            raise PlanError(f"sub-question {index} is empty")
        for reference in (int(k) for k in HOP_REFERENCE.findall(text)):
            if not 1 <= reference < index:
                raise PlanError(f"sub-question {index} refers to #{reference}, which is not an earlier "
                                f"sub-question")
    return tuple(hops)


def parse_plan(text: str, max_hops: int = MAX_HOPS) -> tuple[str, ...]:
    """Read a numbered list (1., 2., …) into a validated plan.

    Reading stops where the numbering stops counting up from 1 (a model that goes on to invent a
    second example starts again at 1); lines without a number are ignored.
    """
    hops: list[str] = []
    for line in text.splitlines():
        match = _NUMBERED.match(line)
        if not match:
            continue
        if int(match.group("number")) != len(hops) + 1:
            break
        hops.append(match.group("text").strip().strip("*").strip())
    return validate_plan(hops, max_hops)


def single_hop(question: Question, decomposer: str, reason: str) -> Plan:
    return Plan((question.question,), decomposer, fallback=reason)


def gold_plan(question: Question) -> Plan:
    """The dataset's sub-questions; a question without gold hops is asked as one hop."""
    if not question.hops:
        return single_hop(question, "gold", "the question has no gold sub-questions")
    try:
        return Plan(validate_plan([hop.question for hop in question.hops], max_hops=len(question.hops)), "gold")
    except PlanError as exc:
        return single_hop(question, "gold", f"gold sub-questions are not a valid plan: {exc}")


def decompose_messages(question: str, passages: list[dict] | None = None,
                       max_hops: int = MAX_HOPS) -> list[dict[str, str]]:
    """System line, the worked examples as earlier turns, then the question (with any passages)."""

    def user(block: str) -> dict[str, str]:
        return {"role": "user", "content": DECOMPOSE_USER.format(max_hops=max_hops, question_block=block)}

    messages = [{"role": "system", "content": DECOMPOSE_SYSTEM}]
    for example, reply in DECOMPOSE_EXAMPLES:
        messages += [user(question_block(example)), {"role": "assistant", "content": reply}]
    return [*messages, user(question_block(question, passages))]


async def model_plan(context: StrategyContext, question: Question, repeat: int,
                     passages: list[dict] | None = None) -> tuple[Plan, dict[str, Any]]:
    """Ask the model for a plan; returns it with the state update of the call (calls, trace).

    Generation stops at the first blank line: a plan is one block of lines, and a small model
    otherwise goes on inventing further questions until the token limit.
    """
    params = replace(context.params(repeat=repeat, max_tokens=DECOMPOSER_MAX_TOKENS), stop=("\n\n",))
    text, update = await ask(context, decompose_messages(question.question, passages), "decompose", params)
    try:
        plan = Plan(parse_plan(text), "model")
    except PlanError as exc:
        plan = single_hop(question, "model", f"unusable decomposition ({exc}): asked as one hop")
    return plan, update
