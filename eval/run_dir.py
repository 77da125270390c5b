"""The run directory: manifest.json first, results.jsonl appended row by row, summary.json last."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from factprobe.eval.schema import Grade, Result

MANIFEST = "manifest.json"
RESULTS = "results.jsonl"
SUMMARY = "summary.json"


Key = tuple[str, str, int]
Percent = Annotated[float, Field(ge=0, le=100)]


class RunDirError(ValueError):
    """A run directory that cannot be used as asked (missing, already used, or corrupt)."""


class _HopRanges(BaseModel):
    model_config = ConfigDict(extra="ignore")
    confidence: Percent | None = None


class _RowRanges(BaseModel):
    """Value ranges of the contract that the row model itself leaves open (confidence 0-100)."""

    model_config = ConfigDict(extra="ignore")
    confidence: Percent | None = None
    confidences: dict[str, Percent | None] = Field(default_factory=dict)
    hops: list[_HopRanges] | None = None


def parse_row(line: str) -> Result:
    """One results.jsonl line as a Result; ValidationError when its JSON, a field or a range is bad."""
    row = Result.model_validate_json(line)
    _RowRanges.model_validate_json(line)
    return row


def row_error(path: Path, number: int, exc: ValidationError) -> RunDirError:
    """The one-paragraph message for a bad row: file, line, field, what is wrong and the fix."""
    error = exc.errors()[0]
    if error["type"] == "json_invalid":
        problem = f"not valid JSON ({error['msg']})"
    else:
        field = ".".join(str(part) for part in error["loc"]) or "(row)"
        problem = f"field `{field}`: {error['msg']} (found {error.get('input')!r})"
    return RunDirError(f"{path}, line {number}: {problem}. Rows are written by factprobe; correct or "
                       f"delete that line (`factprobe run --resume` runs a deleted row again).")


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
        text = self.results_path.read_text(encoding="utf-8")
        lines = text.splitlines()
        torn = not text.endswith("\n")
        rows: list[Result] = []
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                rows.append(parse_row(line))
            except ValidationError as exc:
                if torn and number == len(lines):
                    break
                raise row_error(self.results_path, number, exc) from None
        return rows

    def latest(self) -> dict[Key, Result]:
        """The latest row of every key: a later row (a retry, a re-grade) supersedes earlier ones."""
        return {row.key: row for row in self.read_results()}

    def done_keys(self) -> set[Key]:
        """Keys --resume leaves alone: the latest row is graded and every post step succeeded.

        ERROR rows and rows with `post_step_errors` are run again; UNGRADED rows are re-graded
        (see `ungraded_rows`)."""
        return {key for key, row in self.latest().items() if not needs_rerun(row)
                and row.grade is not Grade.UNGRADED}

    def ungraded_rows(self) -> list[Result]:
        """Latest rows that have an answer but no grade: --resume re-grades them from the answer."""
        return [row for row in self.latest().values()
                if row.grade is Grade.UNGRADED and not needs_rerun(row)]

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


def needs_rerun(row: Result) -> bool:
    """An ERROR row, or a row whose post step failed (the step needs the strategy's live state,
    which a row does not hold, so the whole job runs again; the response cache replays its calls)."""
    return row.grade is Grade.ERROR or bool(getattr(row, "post_step_errors", None))
