"""`factprobe compare`: one table with every strategy of several runs side by side."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from factprobe.eval.analysis.summary import build_summary
from factprobe.eval.core.format import num, pct
from factprobe.eval.store.run_dir import RunDir


def compare_runs(run_dirs: list[RunDir], console: Console) -> None:
    table = Table(title="runs compared (answerable questions; % of graded)")
    for column in ("run", "model", "dataset", "strategy", "n", "CO", "IN", "NA", "CGA", "F", "ECE",
                   "latency s"):
        table.add_column(column, justify="left" if column in ("run", "model", "dataset", "strategy")
                         else "right")
    for run_dir in run_dirs:
        manifest = run_dir.read_manifest()
        summary = build_summary(run_dir.read_results(), manifest)
        for name, s in summary["strategies"].items():
            table.add_row(run_dir.path.name, manifest["config"]["model"], manifest["config"]["dataset"],
                          name, str(s["n"]), pct(s["accuracy"]), pct(s["incorrect_rate"]),
                          pct(s["not_attempted_rate"]), pct(s["cga"]), pct(s["f_score"]),
                          pct(s.get("ece")), num(s["latency_s_mean"]))
    console.print(table)
