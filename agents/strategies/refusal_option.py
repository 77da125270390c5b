"""refusal_option: the refusal option among the choices, with no instruction to use it.

MM-SAP's Table 3 compares asking with the refusal prompt (the built-in `refusal`: the option plus
a line saying when to choose it) against offering the option alone. This strategy is the second:
a multiple-choice question is shown with MM-SAP's fixed phrase as one more option (always last,
as for `refusal`), in vanilla's prompt or the run's `--preset`/`--prompt-file` prompt, and nothing
tells the model when to pick it. Choosing that option is graded NOT_ATTEMPTED, refused questions
are re-asked without it (eval/self_awareness/forced_reask.py), and the summary's
`self_awareness.refusal_option` holds its scores beside `self_awareness.refusal`. An open question
has no options to add one to, so it is asked exactly as vanilla asks it.
"""

from __future__ import annotations

from factprobe.agents.context import StrategyContext
from factprobe.agents.registry import register_strategy
from factprobe.agents.strategies.vanilla import answer_graph, vanilla_messages


@register_strategy("refusal_option", "the refusal option among the choices, without the instruction to choose it",
                   offers_refusal=True, reads=(), order=55,
                   in_default_run=False, reusable=True)
def build(context: StrategyContext):
    return answer_graph(context, vanilla_messages, offers_refusal=True, refusal_instruction=False)
