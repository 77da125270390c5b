"""`Run`: a finished (or interrupted) run directory seen from Python."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from factprobe.eval.analysis.summary import latest_rows
from factprobe.eval.core.schema import Result
from factprobe.eval.store.run_dir import RunDir


@dataclass
class Run:
    """A run directory: its manifest, summary and rows. Nothing is recomputed unless you call
    `factprobe report` (or `report()` here); the files are read once and kept."""

    path: Path

    @property
    def run_dir(self) -> RunDir:
        return RunDir(self.path)

    @cached_property
    def manifest(self) -> dict[str, Any]:
        return self.run_dir.read_manifest()

    @cached_property
    def summary(self) -> dict[str, Any]:
        """The summary.json object (contract keys: strategies, baseline, gains, per_hop, …)."""
        if not self.run_dir.summary_path.is_file():
            raise FileNotFoundError(f"{self.run_dir.summary_path} does not exist yet: run "
                                    f"`factprobe report {self.path}` to compute it")
        return json.loads(self.run_dir.summary_path.read_text(encoding="utf-8"))

    @cached_property
    def results(self) -> list[Result]:
        """The latest row per (question, strategy, repeat), as typed `Result` objects."""
        return latest_rows(self.run_dir.read_results())

    def to_pandas(self):
        """One DataFrame row per result row (pandas is an optional extra: `pip install factprobe[pandas]`)."""
        try:
            import pandas as pd
        except ImportError:
            raise ImportError("Run.to_pandas() needs pandas, which factprobe does not install by "
                              "default: pip install 'factprobe[pandas]' (or pip install pandas)") from None
        return pd.DataFrame([row.model_dump(mode="json") for row in self.results])

    def __repr__(self) -> str:
        strategies = ", ".join(self.manifest.get("config", {}).get("strategies", []))
        return f"Run({str(self.path)!r}, strategies=[{strategies}])"


def load_run(path: str | Path) -> Run:
    """Open the run directory at `path` (it must hold a manifest.json)."""
    run = Run(Path(path))
    _ = run.manifest  # fail now, with the run directory's own message, if it is not a run
    return run
