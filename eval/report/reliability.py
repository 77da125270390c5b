"""What a reliability diagram draws, the same for one run's (factprobe.calibration.plots) and across
runs (factprobe.eval.report.compare_figures): WorldVQA's rule that a bin with HIDDEN_BIN_MAX_ROWS
rows or fewer is too noisy to draw as a point. Figures draw such bins hollow rather than hide
them (a small run would show none), each with its row count. The rule is a named constant, not an option: it
changes no number in summary.json, only which bins a figure shows, and each figure states it."""

from __future__ import annotations

from typing import Any

import numpy as np

HIDDEN_BIN_MAX_ROWS = 20
HIDDEN_BINS_RULE = (f"hollow: bins with ≤ {HIDDEN_BIN_MAX_ROWS} rows (WorldVQA hides them)\n"
                    "beside each point: its bin's rows")


def drawn_bins(rows_per_bin: Any) -> np.ndarray:
    """Which bins a reliability diagram draws: those with more than HIDDEN_BIN_MAX_ROWS rows."""
    return np.asarray(rows_per_bin) > HIDDEN_BIN_MAX_ROWS
