"""p_true: ask the model whether its answer is true (Kadavath et al. 2022).

With logprobs, the value is P(True) / (P(True) + P(False)) × 100 at the probe reply's first
non-blank token, summing the alternatives that spell True/Yes and False/No. Without logprobs, or
when neither word is among the first token's alternatives, the verbal verdict is used: 100 for a
reply whose first true/false/yes/no word is True or Yes, 0 for False or No, None otherwise. The
row's trace says which reading was used.
"""

from __future__ import annotations

from factprobe.eval.run.confidence import MethodInput, register_confidence


@register_confidence("p_true", needs=("p_true_probe",), order=40)
def p_true(data: MethodInput) -> dict[str, float | None]:
    probe = data.stats["p_true_probe"]
    if probe is None:
        return {"p_true": None}
    if probe.p_true is not None:
        return {"p_true": 100.0 * probe.p_true}
    if probe.verdict is None:
        return {"p_true": None}
    return {"p_true": 100.0 if probe.verdict else 0.0}
