"""refusal: the vanilla prompt with the MM-SAP refusal option (docs/protocols.md §6).

"Give your best guess even if you are unsure" is replaced by an instruction to answer with the
fixed phrase "Sorry, I can't help with it" when the model does not know; the rule grader grades
that phrase NOT_ATTEMPTED. The forced re-ask of refused questions (unknown knowns) is a post step:
eval/self_awareness/forced_reask.py. The graph is vanilla's with this prompt.
"""

from __future__ import annotations

from factprobe.agents.context import StrategyContext
from factprobe.agents.prompts import REFUSAL_USER, answer_messages, question_block
from factprobe.agents.registry import register_strategy
from factprobe.agents.strategies.vanilla import answer_graph


def refusal_messages(question: str, passages: list[dict] | None = None) -> list[dict[str, str]]:
    """The refusal prompt: the vanilla examples, then the question with the refusal option."""
    return answer_messages(REFUSAL_USER.format(question_block=question_block(question, passages)))


@register_strategy("refusal", "vanilla prompt plus the option to reply \"Sorry, I can't help with it\"",
                   offers_refusal=True, reads=(), order=50, reusable=True)
def build(context: StrategyContext):
    return answer_graph(context, refusal_messages, offers_refusal=True)
