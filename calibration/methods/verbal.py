"""verbal: the 0–100 confidence the model stated in its reply, as the strategy parsed it."""

from __future__ import annotations

from factprobe.eval.run.confidence import MethodInput, register_confidence


@register_confidence("verbal", order=10)
def verbal(data: MethodInput) -> dict[str, float | None]:
    return {"verbal": data.state.get("confidence")}
