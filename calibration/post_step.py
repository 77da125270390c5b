"""The post step that scores every selected confidence method for one answer.

It computes the statistics the selected methods need, each once, then lets every method score
from them, and returns the row fields:

- `confidences`: `{output: value}` on the 0–100 scale (None where a method has no value, and where
  it gave one outside 0–100, infinite or NaN: refused as unreadable, never clamped);
- `confidence_calls`, `confidence_latency_s`, `confidence_prompt_tokens`,
  `confidence_completion_tokens`: the measurement's own model calls, kept out of the row's
  `llm_calls`, `latency_s` and token counts (they are not the strategy's cost);
- `confidence_trace`: the measurement's steps (samples' answers, probe reply, answer tokens);
- `confidence_errors`: `{output: error}` when a model call a method needed failed; that method's
  values are None and the summary counts them as `method_errors`.
"""

from __future__ import annotations

from typing import Any

from factprobe.agents.models.base import ModelError
from factprobe.agents.parsing import on_scale
from factprobe.calibration.statistics import Measurement, StatisticInput, get_statistic
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.run.confidence import ConfidenceMethod, MethodInput, get_method
from factprobe.eval.run.steps import PostStepInput, register_post_step


def _needs_model(config: RunConfig) -> bool:
    return any(name != "verbal" for name in config.confidence)


@register_post_step("confidence", enabled=_needs_model, order=60)
async def confidence_step(data: PostStepInput) -> dict[str, Any]:
    methods: list[ConfidenceMethod] = [get_method(name) for name in data.config.confidence]
    measurement = Measurement()
    stats: dict[str, Any] = {}
    failures: dict[str, str] = {}
    if data.state.get("answer"):
        source = StatisticInput(data.question, data.state, data.repeat, data.context, data.config)
        for need in dict.fromkeys(need for method in methods for need in method.needs):
            try:
                stats[need] = await get_statistic(need)(source, measurement)
            except ModelError as exc:
                failures[need] = f"{type(exc).__name__}: {exc}"
    confidences: dict[str, float | None] = {}
    if data.state.get("confidence") is not None:
        confidences["verbal"] = on_scale(data.state.get("confidence"))
    errors: dict[str, str] = {}
    for method in methods:
        failed = [failures[need] for need in method.needs if need in failures]
        missing = [need for need in method.needs if need not in stats]
        if failed or missing:
            values = dict.fromkeys(method.outputs)
            errors.update(dict.fromkeys(method.outputs, failed[0]) if failed else {})
        else:
            values = method.score(MethodInput(data.question, data.state, stats))
        confidences.update({output: on_scale(value) for output, value in values.items()})
    row: dict[str, Any] = {
        "confidences": confidences,
        "confidence_calls": len(measurement.calls),
        "confidence_latency_s": sum(call.latency_s for call in measurement.calls),
        "confidence_prompt_tokens": sum(call.prompt_tokens for call in measurement.calls),
        "confidence_completion_tokens": sum(call.completion_tokens for call in measurement.calls),
        "confidence_trace": measurement.trace,
    }
    if errors:
        row["confidence_errors"] = errors
    return row
