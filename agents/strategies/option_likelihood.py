"""option_likelihood: pick the option whose letter the model finds most likely (MM-SAP Table 7).

MM-SAP compares choosing by the options' likelihood with matching the generated answer to an
option (what `vanilla` does). This strategy asks a multiple-choice question once, with the options
lettered in the run's `--option-order` as vanilla shows them (or in the run's `--preset`/`--prompt-file` prompt),
for at most a few tokens with the top 20 log-probabilities of each, and scores every option by the
log-probability of its letter as the reply's first token (factprobe.agents.option_scores). The
most likely letter is the answer; the trace step `option_scores` keeps every option's letter, text,
log-probability and probability among the scored letters. The answer carries no confidence: the
scores are in the trace, the row's `confidence` stays what the model stated (nothing here).

It needs token log-probabilities: the local backend gives them, and OpenAI-compatible servers that
answer `logprobs`/`top_logprobs`; a backend without them (Anthropic) is refused before the run,
and a server that sends none fails the row with a message naming it. A question without options,
or whose letters are all missing from the top 20, fails its row (nothing was measured).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from factprobe.agents.benchmark_prompts import benchmark_messages
from factprobe.agents.choices import context_order, presented_question, shown_choices
from factprobe.agents.context import StrategyContext
from factprobe.agents.linear import linear_graph
from factprobe.agents.models.base import ModelError
from factprobe.agents.nodes import ask_completion
from factprobe.agents.option_scores import letter_logprobs, normalised, scored_token
from factprobe.agents.prompts import question_block
from factprobe.agents.registry import register_strategy
from factprobe.agents.state import QAState
from factprobe.eval.core.errors import StrategyOptionError

OPTION_PROMPT_VERSION = "1"
LETTER_SYSTEM = "You answer multiple-choice questions with the letter of one option and nothing else."
TOP_LOGPROBS = 20      # the most OpenAI's API returns per token
REPLY_TOKENS = 4       # room for white space before the letter


class OptionScoreError(ModelError):
    """The options of a question could not be scored (no logprobs, no letter among them)."""


def letter_messages(context: StrategyContext, state: QAState) -> list[dict[str, Any]]:
    """The run's answer prompt when it has one, else the lettered question after a one-line system turn."""
    question, repeat = state["question"], state.get("repeat", 0)
    prompt = context.options.get("answer_prompt")
    if prompt:
        return benchmark_messages(prompt, question, repeat, context.seed, False, state.get("context"),
                                  context_order(context))
    user = question_block(presented_question(question, repeat, context.seed, False, context_order(context)),
                          state.get("context"))
    return [{"role": "system", "content": LETTER_SYSTEM}, {"role": "user", "content": user}]


def check_backend(context: StrategyContext) -> None:
    """StrategyOptionError, before the run, for a model that returns no token log-probabilities."""
    if not context.model.supports_logprobs:
        raise StrategyOptionError(f"option_likelihood scores options by token log-probabilities, which "
                                  f"{context.model.name} does not return; use the local backend or an "
                                  f"OpenAI-compatible server that returns logprobs")


@register_strategy("option_likelihood", "multiple choice: the option whose letter the model finds most likely",
                   reads=(), order=57, in_default_run=False, reusable=True)
def build(context: StrategyContext):
    check_backend(context)

    async def score_options(state: QAState) -> dict[str, Any]:
        question, repeat = state["question"], state.get("repeat", 0)
        if not question.choices:
            raise ValueError(f"question {question.id!r} has no options; option_likelihood scores the options "
                             f"of multiple-choice questions only")
        shown = shown_choices(question, repeat, context.seed, False, context_order(context))
        params = replace(context.params(repeat=repeat, temperature=0.0, max_tokens=REPLY_TOKENS, logprobs=True),
                         top_logprobs=TOP_LOGPROBS)
        completion, update = await ask_completion(context, letter_messages(context, state), "score_options", params)
        token = scored_token(completion.logprobs or [])
        if token is None:
            raise OptionScoreError(f"{context.model.name} returned no token log-probabilities for the options; "
                                   f"option_likelihood needs a backend that answers logprobs/top_logprobs")
        prompt = context.options.get("answer_prompt") or {}
        scores = letter_logprobs(token, shown.letters, lower=prompt.get("letter_case") == "lower")
        if all(value is None for value in scores.values()):
            raise OptionScoreError(f"none of the letters {', '.join(shown.letters)} is among the {TOP_LOGPROBS} most "
                                   f"likely first tokens (the reply began {token.token!r})")
        probabilities = normalised(scores)
        choice = max((letter for letter in shown.letters if scores[letter] is not None),
                     key=lambda letter: scores[letter] or 0.0)
        step = {"step": "option_scores", "scored_by": "letter", "prompt_version": OPTION_PROMPT_VERSION,
                "top_logprobs": TOP_LOGPROBS, "first_token": token.token, "choice": choice,
                "options": [{"letter": letter, "option": option, "logprob": scores[letter],
                             "probability": probabilities[letter]}
                            for letter, option in zip(shown.letters, shown.options)]}
        return {"answer": choice, "confidence": None, "raw": completion.text, "calls": update["calls"],
                "trace": [*update["trace"], step]}

    return linear_graph({"score_options": score_options})
