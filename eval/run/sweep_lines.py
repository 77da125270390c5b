"""The one line a sweep prints per cell without --verbose: its strategies' F (and ΔF against the
cell's baseline, with its 95% CI), its exit status when not 0, and where its run directory is."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from factprobe.eval.core.format import pct


def _strategy_part(name: str, scores: dict[str, Any], gain: dict[str, Any] | None) -> str:
    text = f"{name} F {pct(scores.get('f_score'))}"
    if gain and gain.get("f_score_delta") is not None:
        text += f" (ΔF {100 * gain['f_score_delta']:+.1f}"
        if gain.get("ci_low") is not None:
            text += f" [{100 * gain['ci_low']:+.1f},{100 * gain['ci_high']:+.1f}]"
        text += ")"
    return text


def cell_line(name: str, run_dir: Path, status: int) -> str:
    """`name: vanilla F 61.5, best_of_n F 64.0 (ΔF +2.5 [-1.0,+6.1]) · DIR`, from the cell's summary.json."""
    try:
        summary = json.loads((run_dir / "summary.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        summary = {}
    gains = summary.get("gains") or {}
    parts = [_strategy_part(strategy, scores, gains.get(strategy))
             for strategy, scores in (summary.get("strategies") or {}).items()]
    flag = f" [exit status {status}]" if status else ""
    return f"{name}: {', '.join(parts) or 'no summary'}{flag} · {run_dir}"
