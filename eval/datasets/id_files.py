"""`--only-ids FILE` / `--exclude-ids FILE`: question ids, one per line (as `factprobe difficulty`
writes them); blank lines and lines starting with `#` are skipped, and a line's first
whitespace-separated word is the id."""

from __future__ import annotations

from pathlib import Path

from factprobe.eval.core.errors import DatasetError
from factprobe.eval.core.schema import Question
from factprobe.eval.core.text_files import read_utf8


def read_ids(path: Path, option: str) -> set[str]:
    """The ids of an id file; DatasetError naming the option and file when there are none."""
    try:
        text = read_utf8(Path(path))
    except DatasetError as exc:
        raise DatasetError(f"{option}: {exc}") from None
    ids = {line.split()[0] for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")}
    if not ids:
        raise DatasetError(f"{option} {path}: the file lists no question id (one per line)")
    return ids


def select_ids(questions: list[Question], only: Path | None, exclude: Path | None) -> list[Question]:
    """The questions `--only-ids` keeps and `--exclude-ids` leaves, in dataset order; DatasetError
    when none are left, or when `--only-ids` names no question of the dataset."""
    if only is not None:
        wanted = read_ids(only, "--only-ids")
        questions = [q for q in questions if q.id in wanted]
        if not questions:
            raise DatasetError(f"--only-ids {only}: none of its {len(wanted)} ids is a question of the dataset")
    if exclude is not None:
        dropped = read_ids(exclude, "--exclude-ids")
        questions = [q for q in questions if q.id not in dropped]
        if not questions:
            raise DatasetError(f"--exclude-ids {exclude} leaves no question of the dataset")
    return questions
