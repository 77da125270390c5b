"""The run directory: manifest.json first, results.jsonl appended row by row, summary.json last."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from factprobe.eval.schema import Grade, Result

MANIFEST = "manifest.json"
RESULTS = "results.jsonl"
SUMMARY = "summary.json"


class RunDirError(ValueError):
    """A run directory that cannot be used as asked (missing, already used, or corrupt)."""


class RunDir:
    """One run's folder. Rows are appended and flushed as they finish, so nothing is lost."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @property
    def manifest_path(self) -> Path:
        return self.path / MANIFEST

    @property
    def results_path(self) -> Path:
        return self.path / RESULTS

    @property
    def summary_path(self) -> Path:
        return self.path / SUMMARY

    def write_manifest(self, manifest: dict[str, Any]) -> None:
        self.path.mkdir(parents=True, exist_ok=True)
        tmp = self.manifest_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        tmp.replace(self.manifest_path)

    def read_manifest(self) -> dict[str, Any]:
        if not self.manifest_path.is_file():
            raise RunDirError(f"{self.path} has no {MANIFEST}: it is not a factprobe run directory")
        try:
            return json.loads(self.manifest_path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise RunDirError(f"{self.manifest_path}: not valid JSON ({exc.msg})") from None

    def append(self, result: Result) -> None:
        """Append one row and flush it to disk before returning."""
        with self.results_path.open("a", encoding="utf-8") as handle:
            handle.write(result.model_dump_json() + "\n")
            handle.flush()
            os.fsync(handle.fileno())

    def read_results(self) -> list[Result]:
        """Every row in file order. A torn last line (a crash mid-write) is skipped; any other bad
        line is an error naming the line."""
        if not self.results_path.is_file():
            return []
        lines = self.results_path.read_text(encoding="utf-8").splitlines()
        rows: list[Result] = []
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                rows.append(Result.model_validate_json(line))
            except ValidationError as exc:
                if number == len(lines):
                    break
                raise RunDirError(f"{self.results_path}, line {number}: not a result row "
                                  f"({exc.errors()[0]['msg']})") from None
        return rows

    def done_keys(self) -> set[tuple[str, str, int]]:
        """Keys whose latest row finished without an error; --resume skips these."""
        latest: dict[tuple[str, str, int], Result] = {}
        for row in self.read_results():
            latest[row.key] = row
        return {key for key, row in latest.items() if row.grade is not Grade.ERROR}

    def write_summary(self, summary: dict[str, Any]) -> None:
        self.summary_path.write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n",
                                     encoding="utf-8")

    def drop_torn_tail(self) -> bool:
        """Remove a last line cut off by a crash mid-write, so appending continues cleanly."""
        if not self.results_path.is_file():
            return False
        data = self.results_path.read_bytes()
        if not data or data.endswith(b"\n"):
            return False
        keep = data[: data.rfind(b"\n") + 1]
        self.results_path.write_bytes(keep)
        return True
