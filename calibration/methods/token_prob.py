"""token_prob: how probable the model found its own answer's tokens.

`token_prob` is the mean and `token_prob_min` the minimum of the answer tokens' probabilities
exp(logprob), times 100. The answer's tokens are located as `calibration.answer_span` describes;
backends without logprobs (Anthropic, scripted models) give None.
"""

from __future__ import annotations

import math

from factprobe.eval.run.confidence import MethodInput, register_confidence


@register_confidence("token_prob", needs=("answer_tokens",), outputs=("token_prob", "token_prob_min"), order=20)
def token_prob(data: MethodInput) -> dict[str, float | None]:
    tokens = data.stats["answer_tokens"].tokens
    if not tokens:
        return {"token_prob": None, "token_prob_min": None}
    probabilities = [math.exp(token.logprob) for token in tokens]
    return {"token_prob": 100.0 * sum(probabilities) / len(probabilities),
            "token_prob_min": 100.0 * min(probabilities)}
