"""option_perplexity: pick the option whose text the model finds least perplexing, the refusal
option among them (MM-SAP Table 7's perplexity evaluation).

A multiple-choice question is shown as `refusal_option` shows it (the options, MM-SAP's refusal
phrase as one more, in the run's `--option-order`; the run's `--preset`/`--prompt-file` prompt when
it has one, else vanilla's), and no reply is generated: each option's text is scored as the
assistant's reply by the log-probability of its tokens (factprobe.agents.models.continuations).
An option's perplexity is exp(−mean token log-probability); the least perplexing option's letter is
the answer, so choosing the refusal option is graded NOT_ATTEMPTED like any refusal (and re-asked
without it, as for `refusal_option`; that re-ask is generated). The trace step `option_scores`
keeps every option's letter, text, token count, summed and mean log-probability and perplexity.

Only a backend that scores given text can run it: the local llama.cpp backend (text only). A
backend without it is refused before the run: OpenAI-compatible chat servers return log-
probabilities of generated tokens only, and the completions API's `echo` takes no images.
"""

from __future__ import annotations

import math
from typing import Any

from factprobe.agents.benchmark_prompts import benchmark_messages
from factprobe.agents.choices import context_order, presented_question, shown_choices
from factprobe.agents.context import StrategyContext
from factprobe.agents.linear import linear_graph
from factprobe.agents.models.base import CallRecord
from factprobe.agents.registry import register_strategy
from factprobe.agents.state import QAState
from factprobe.agents.strategies.vanilla import vanilla_messages
from factprobe.eval.core.errors import StrategyOptionError


def text_scorer(model: Any) -> Any | None:
    """The model, or the backend a wrapper holds in `inner`, that scores given replies."""
    current = model
    while current is not None:
        if hasattr(current, "continuation_logprobs"):
            return current
        current = getattr(current, "inner", None)
    return None


def option_messages(context: StrategyContext, state: QAState) -> list[dict[str, Any]]:
    """The prompt `refusal_option` sends: the run's answer prompt, else vanilla's."""
    question, repeat = state["question"], state.get("repeat", 0)
    prompt = context.options.get("answer_prompt")
    if prompt:
        return benchmark_messages(prompt, question, repeat, context.seed, True, state.get("context"),
                                  context_order(context), refusal_instruction=False)
    return vanilla_messages(presented_question(question, repeat, context.seed, True, context_order(context)),
                            state.get("context"))


def option_entry(letter: str, option: str, logprobs: list[float]) -> dict[str, Any]:
    mean = sum(logprobs) / len(logprobs)
    return {"letter": letter, "option": option, "tokens": len(logprobs), "logprob": sum(logprobs),
            "mean_logprob": mean, "perplexity": math.exp(-mean)}


@register_strategy("option_perplexity", "multiple choice: the option (refusal option included) whose text has the "
                   "lowest perplexity", offers_refusal=True, reads=(), order=58, in_default_run=False, reusable=True)
def build(context: StrategyContext):
    scorer = text_scorer(context.model)
    if scorer is None:
        raise StrategyOptionError(f"option_perplexity scores each option's text by its token log-probabilities as "
                                  f"the reply, which {context.model.name} cannot do (chat APIs give "
                                  f"log-probabilities of generated tokens only); use the local backend "
                                  f"(--model local or local:PATH.gguf)")

    async def score_options(state: QAState) -> dict[str, Any]:
        question, repeat = state["question"], state.get("repeat", 0)
        if not question.choices:
            raise ValueError(f"question {question.id!r} has no options; option_perplexity scores the options "
                             f"of multiple-choice questions only")
        shown = shown_choices(question, repeat, context.seed, True, context_order(context))
        messages = option_messages(context, state)
        scored, prompt_tokens, latency = await scorer.continuation_logprobs(messages, list(shown.options))
        options = [option_entry(letter, option, logprobs)
                   for letter, option, logprobs in zip(shown.letters, shown.options, scored)]
        choice = min(options, key=lambda entry: entry["perplexity"])["letter"]
        record = CallRecord(model=context.model.name, purpose="score_options",
                            prompt_tokens=prompt_tokens * len(options), completion_tokens=0, latency_s=latency)
        step = {"step": "option_scores", "scored_by": "perplexity", "messages": [dict(m) for m in messages],
                "choice": choice, "refusal_letter": shown.refusal_letter, "options": options,
                "latency_s": latency}
        return {"answer": choice, "confidence": None, "raw": choice, "calls": [record], "trace": [step]}

    return linear_graph({"score_options": score_options})
