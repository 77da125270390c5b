"""DIR/taxonomy.jsonl and the rows a taxonomy covers.

Entries are appended as they are classified (flushed one by one); a run skips the rows the file
already holds for the same judge, kind set and media setting, so an interrupted classification
resumes. DIR/taxonomy_kinds.json names the kind set the last `factprobe taxonomy` used, and its
draw when it classified a sample (`--sample-per`); the summary reads the latest entry per row of that
set (of the last entry's set when the file is absent), over the drawn rows only when there is a draw.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from factprobe.eval.core.schema import Grade, Result
from factprobe.eval.core.secrets import redact_values
from factprobe.eval.store.run_dir import RunDirError, write_json_atomic
from factprobe.eval.taxonomy.kinds import DEFAULT_PRESET, PRESETS

TAXONOMY_FILE = "taxonomy.jsonl"
SELECTION_FILE = "taxonomy_kinds.json"
Key = tuple[str, str, int]


def covered(row: Result) -> bool:
    """INCORRECT rows, and NOT_ATTEMPTED rows of answerable questions (declining a question that has
    no answer is what it should do, not an error)."""
    return row.grade is Grade.INCORRECT or (row.grade is Grade.NOT_ATTEMPTED and row.answerable)


def covered_rows(rows: list[Result]) -> list[Result]:
    """The latest covered row per (question, strategy, repeat), in file order."""
    latest: dict[Key, Result] = {row.key: row for row in rows}
    return [row for row in latest.values() if covered(row)]


def entry_key(entry: dict[str, Any]) -> Key:
    """The row an entry classifies: (question id, strategy, repeat)."""
    return (entry["question_id"], entry["strategy"], entry["repeat"])


def kind_set_of(entry: dict[str, Any]) -> str:
    """The kind set an entry was classified in (entries written before kind sets: the default)."""
    return str(entry.get("kind_set", DEFAULT_PRESET))


def grade_of(entry: dict[str, Any]) -> str:
    """The grade of the row when it was classified (entries written before NOT_ATTEMPTED rows were
    covered: INCORRECT)."""
    return str(entry.get("grade", Grade.INCORRECT.value))


def counted_kinds(entry: dict[str, Any]) -> list[str]:
    """The kinds the entry's kind set counts, as the entry recorded them."""
    return list(entry.get("kinds") or PRESETS[DEFAULT_PRESET].counted)


class TaxonomyFile:
    """DIR/taxonomy.jsonl: one entry per classified row, appended and flushed as it is written."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / TAXONOMY_FILE
        self.selection_path = directory / SELECTION_FILE

    def read(self) -> list[dict[str, Any]]:
        """Every entry in file order; a torn last line (a crash mid-write) is skipped."""
        if not self.path.is_file():
            return []
        lines = self.path.read_text(encoding="utf-8").splitlines()
        entries = []
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                entries.append(json.loads(line))
            except json.JSONDecodeError:
                if number == len(lines):
                    break
                raise RunDirError(f"{self.path}, line {number}: not valid JSON") from None
        return entries

    def done(self, judge: str, kind_set: str = DEFAULT_PRESET, media: bool = False,
             hear: frozenset[Key] = frozenset()) -> set[tuple[Key, str]]:
        """(row, grade) of the rows already classified by `judge` in `kind_set`, with the media or
        without as asked; a row graded again since is not done, nor a row in `hear` (its judge is
        to hear the sound track now) classified without it."""
        return {(entry_key(e), grade_of(e)) for e in self.read() if e.get("judge") == judge
                and kind_set_of(e) == kind_set and bool(e.get("media", False)) == media
                and (entry_key(e) not in hear or bool(e.get("audio")))}

    def select(self, kind_set: str, kinds: tuple[str, ...], sample: dict[str, Any] | None = None) -> None:
        """Make `kind_set` the one the summary counts (over the rows of `sample` when given)."""
        chosen: dict[str, Any] = {"kind_set": kind_set, "kinds": list(kinds)}
        write_json_atomic(self.selection_path, {**chosen, "sample": sample} if sample is not None else chosen)

    def sample(self) -> dict[str, Any] | None:
        """The draw of the last `--sample-per` classification, None when it classified every row."""
        if not self.selection_path.is_file():
            return None
        try:
            sample = json.loads(self.selection_path.read_text(encoding="utf-8")).get("sample")
        except (json.JSONDecodeError, AttributeError):
            return None          # current() names the damaged file
        return sample if isinstance(sample, dict) else None

    def current(self) -> tuple[str, list[str], dict[Key, dict[str, Any]]] | None:
        """The selected kind set, the kinds it counts, and its latest entry per row; None when the
        run was never classified."""
        entries = self.read()
        if self.selection_path.is_file():
            try:
                chosen = json.loads(self.selection_path.read_text(encoding="utf-8"))
                kind_set, kinds = str(chosen["kind_set"]), [str(kind) for kind in chosen["kinds"]]
            except (json.JSONDecodeError, KeyError, TypeError):
                raise RunDirError(f"{self.selection_path}: not a JSON object with `kind_set` and `kinds`; "
                                  f"delete it and run `factprobe taxonomy` again") from None
        elif entries:
            kind_set, kinds = kind_set_of(entries[-1]), counted_kinds(entries[-1])
        else:
            return None
        return kind_set, kinds, {entry_key(e): e for e in entries if kind_set_of(e) == kind_set}

    def append(self, entry: dict[str, Any]) -> None:
        """Append one verdict to the file (secrets redacted), flushed at once."""
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(redact_values(json.dumps(entry, ensure_ascii=False)) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
