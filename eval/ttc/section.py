"""summary['ttc']: test-time-compute curves per strategy that selects among samples (best_of_n) or
refines in rounds (self_refine), as its registry flags `selects` / `refines` say (eval.ttc)."""

from __future__ import annotations

from typing import Any

from factprobe.agents.selection import SELECTORS
from factprobe.eval.analysis.summary import SummaryInput, summary_section
from factprobe.eval.store.slim_rows import full_rows
from factprobe.eval.ttc.curves import best_of_n_curve, choose_step, self_refine_curve


def run_selector(rows, manifest: dict[str, Any]) -> str:
    """The selector the run used: from the rows' `choose` steps, else the manifest."""
    for row in rows:
        selector = choose_step(row).get("selector")
        if selector:
            return selector
    return manifest.get("config", {}).get("selector", "model")


@summary_section("ttc", order=70)
def ttc(data: SummaryInput) -> dict[str, dict[str, Any]]:
    """{strategy: {n, accuracy, f_score, tokens_mean, rows, unit, …}} for every strategy with samples."""
    out: dict[str, dict[str, Any]] = {}
    config = data.manifest.get("config", {})
    for name, rows in data.by_strategy.items():
        if data.strategy_flag(name, "selects"):
            rows = full_rows(rows)        # the curves read each row's `choose` trace step
            selector = run_selector(rows, data.manifest)
            curve = best_of_n_curve(rows, selector)
            if curve:
                curve["other_selectors"] = {
                    other: {key: value for key, value in best_of_n_curve(rows, other).items()
                            if key not in ("unit", "selector", "pick_failed")}
                    for other in SELECTORS if other not in (selector, "model")}
                out[name] = curve
        elif data.strategy_flag(name, "refines"):
            curve = self_refine_curve(rows, config.get("rounds"))
            if curve:
                out[name] = curve
    return out
