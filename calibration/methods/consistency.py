"""consistency: the share of K other answers to the same question that agree with the answer.

Answers agree when their normalised forms (`eval.grading.normalize.normalize_answer`: case,
accents, punctuation, articles, number words) are equal. A sample without an answer counts as a
disagreeing sample. The samples are the strategy's own when it recorded some, else K fresh ones at
the sampling temperature (see `calibration.statistics.samples_statistic`).
"""

from __future__ import annotations

from factprobe.eval.core.normalize import normalize_answer
from factprobe.eval.run.confidence import MethodInput, register_confidence


@register_confidence("consistency", needs=("samples",), reads=("sample_temperature",), order=30)
def consistency(data: MethodInput) -> dict[str, float | None]:
    answer = data.state.get("answer")
    samples = data.stats["samples"].answers
    if not answer or not samples:
        return {"consistency": None}
    target = normalize_answer(answer)
    agree = sum(1 for sample in samples if sample and normalize_answer(sample) == target)
    return {"consistency": 100.0 * agree / len(samples)}
