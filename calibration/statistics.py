"""The statistics confidence methods are scored from, each computed at most once per answer.

A statistic is an async function registered by name; methods list the names they need. The model
calls a statistic makes (extra samples, the true/false probe) go through `agents.nodes.ask` and are
collected in a `Measurement`, kept apart from the strategy's own calls: they measure the answer,
they are not part of the strategy's cost.
"""

from __future__ import annotations

import asyncio
import dataclasses
import math
import re
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

from factprobe.agents.context import StrategyContext
from factprobe.agents.nodes import ask
from factprobe.agents.parsing import parse_answer
from factprobe.agents.prompts import question_block
from factprobe.agents.state import QAState
from factprobe.agents.strategies.vanilla import vanilla_messages
from factprobe.calibration.answer_span import answer_tokens
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.core.schema import CallRecord, Question

# Confidence samples use sample indices from here on, so they never coincide with a strategy's own
# samples (1, 2, …) of the same prompt in the response cache.
SAMPLE_INDEX_BASE = 100
P_TRUE_TOP_LOGPROBS = 20
P_TRUE_MAX_TOKENS = 8
P_TRUE_PROMPT_VERSION = "1"
P_TRUE_SYSTEM = "You check answers to factual questions."
P_TRUE_USER = ("{question_block}\nProposed answer: {answer}\n\n"
               "Is the proposed answer true or false? Reply with one word: True or False.")
TRUE_WORDS = frozenset({"true", "yes"})
FALSE_WORDS = frozenset({"false", "no"})
_VERDICT = re.compile(r"\b(true|false|yes|no)\b", re.IGNORECASE)


@dataclass
class Measurement:
    """The measurement calls made for one answer, and their trace steps."""

    calls: list[CallRecord] = field(default_factory=list)
    trace: list[dict[str, Any]] = field(default_factory=list)

    def add(self, update: dict[str, Any]) -> None:
        self.calls.extend(update.get("calls", []))
        self.trace.extend(update.get("trace", []))


@dataclass(frozen=True)
class StatisticInput:
    question: Question
    state: QAState
    repeat: int
    context: StrategyContext
    config: RunConfig


Statistic = Callable[[StatisticInput, Measurement], Awaitable[Any]]
_STATISTICS: dict[str, Statistic] = {}


def register_statistic(name: str) -> Callable[[Statistic], Statistic]:
    def decorate(function: Statistic) -> Statistic:
        _STATISTICS[name] = function
        return function

    return decorate


def get_statistic(name: str) -> Statistic:
    if name not in _STATISTICS:
        raise KeyError(f"no statistic {name!r}; known: {', '.join(_STATISTICS)}")
    return _STATISTICS[name]


@dataclass(frozen=True)
class AnswerTokens:
    tokens: list[Any] | None
    source: str


@register_statistic("answer_tokens")
async def answer_tokens_statistic(data: StatisticInput, measurement: Measurement) -> AnswerTokens:
    """The final answer's generated tokens with logprobs (no model call)."""
    tokens, source = answer_tokens(data.state.get("calls", []), data.state.get("answer"))
    measurement.trace.append({"step": "confidence:answer_tokens", "source": source,
                              "tokens": None if tokens is None else
                              [{"token": t.token, "logprob": t.logprob} for t in tokens]})
    return AnswerTokens(tokens, source)


@dataclass(frozen=True)
class Samples:
    answers: list[str | None]
    source: str          # "strategy" (reused) or "sampled"


@register_statistic("samples")
async def samples_statistic(data: StatisticInput, measurement: Measurement) -> Samples:
    """K answers to the same question at the sampling temperature.

    A strategy that recorded independent samples of its own (`state["samples"]` entries with an
    "answer" and a "sample_index", as best_of_n writes them) is not sampled again: its samples are
    reused, all of them, the selected one included (sample once, score many; the value is then the
    self-consistency vote share of the chosen answer). Records without a sample index, such as
    self_refine's rounds, are successive revisions, not samples, and are not reused. Otherwise the
    vanilla prompt, with the same retrieved passages if any, is sent K = --consistency-samples
    times with distinct sample indices.
    """
    recorded = [s for s in data.state.get("samples") or []
                if isinstance(s, dict) and "answer" in s and s.get("sample_index") is not None]
    if recorded:
        answers = [s.get("answer") for s in recorded]
        measurement.trace.append({"step": "confidence:samples", "source": "strategy", "answers": answers})
        return Samples(answers, "strategy")
    messages = vanilla_messages(data.question.question, data.state.get("context"))
    params = [data.context.params(repeat=data.repeat, sample_index=SAMPLE_INDEX_BASE + k,
                                  temperature=data.config.sample_temperature)
              for k in range(1, data.config.consistency_samples + 1)]
    replies = await asyncio.gather(*(ask(data.context, messages, "confidence:sample", p) for p in params))
    answers = []
    for text, update in replies:
        measurement.add(update)
        answers.append(parse_answer(text))
    measurement.trace.append({"step": "confidence:samples", "source": "sampled", "answers": answers})
    return Samples(answers, "sampled")


@dataclass(frozen=True)
class TrueProbe:
    reply: str
    p_true: float | None      # P(True)/(P(True)+P(False)) from first-token logprobs, 0–1
    verdict: bool | None      # the reply's first true/false/yes/no word
    mass: float | None        # P(True)+P(False) among the first token's alternatives


def p_true_messages(question: str, answer: str, passages: list[dict] | None = None) -> list[dict[str, str]]:
    return [{"role": "system", "content": P_TRUE_SYSTEM},
            {"role": "user", "content": P_TRUE_USER.format(question_block=question_block(question, passages),
                                                           answer=answer)}]


def first_token_p_true(tokens: list[Any] | None) -> tuple[float | None, float | None]:
    """(P(True)/(P(True)+P(False)), P(True)+P(False)) at the first non-blank generated token.

    Alternatives are summed by word, case- and space-insensitively ("True", " true", "Yes" all
    count for True). None when there are no logprobs or neither word is among the alternatives.
    """
    first = next((t for t in tokens or [] if t.token.strip()), None)
    if first is None:
        return None, None
    alternatives = {**first.top, first.token: first.logprob}
    yes = sum(math.exp(lp) for tok, lp in alternatives.items() if tok.strip().lower() in TRUE_WORDS)
    no = sum(math.exp(lp) for tok, lp in alternatives.items() if tok.strip().lower() in FALSE_WORDS)
    if yes + no <= 0:
        return None, None
    return yes / (yes + no), yes + no


def verbal_verdict(text: str) -> bool | None:
    """The first true/false/yes/no word of the reply, or None when there is none."""
    match = _VERDICT.search(text)
    return None if match is None else match.group(1).lower() in TRUE_WORDS


@register_statistic("p_true_probe")
async def p_true_statistic(data: StatisticInput, measurement: Measurement) -> TrueProbe | None:
    """Ask the model whether its own answer is true (greedy, logprobs when the backend has them)."""
    answer = data.state.get("answer")
    if not answer:
        return None
    messages = p_true_messages(data.question.question, answer, data.state.get("context"))
    params = data.context.params(repeat=data.repeat, temperature=0.0, max_tokens=P_TRUE_MAX_TOKENS,
                                 logprobs=True)
    if params.logprobs:
        params = dataclasses.replace(params, top_logprobs=P_TRUE_TOP_LOGPROBS)
    text, update = await ask(data.context, messages, "confidence:p_true_probe", params)
    measurement.add(update)
    tokens = update["calls"][0].logprobs
    probability, mass = first_token_p_true(tokens)
    probe = TrueProbe(text, probability, verbal_verdict(text), mass)
    reading = "logprobs" if probability is not None else "verbal" if probe.verdict is not None else "none"
    measurement.trace.append({"step": "confidence:p_true", "reading": reading, "p_true": probability,
                              "true_false_mass": mass, "verdict": probe.verdict})
    return probe
