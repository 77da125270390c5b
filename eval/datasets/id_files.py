"""`--only-ids FILE` / `--exclude-ids FILE`: question ids, one per line (as `factprobe difficulty`
writes them); blank lines and lines starting with `#` are skipped, and a line's first
whitespace-separated word is the id."""

from __future__ import annotations

from pathlib import Path

from factprobe.eval.core.errors import DatasetError
from factprobe.eval.core.schema import Question
from factprobe.eval.core.text_files import text_lines

SHOWN = 5   # the unknown ids a message names before "and N more"


def read_ids(path: Path, option: str) -> set[str]:
    """The ids of an id file; DatasetError naming the option and file when there are none."""
    try:
        ids = {line.split()[0] for _, line in text_lines(Path(path))
               if line.strip() and not line.lstrip().startswith("#")}
    except DatasetError as exc:
        raise DatasetError(f"{option}: {exc}") from None
    if not ids:
        raise DatasetError(f"{option} {path}: the file lists no question id (one per line)")
    return ids


def _unknown(questions: list[Question], ids: set[str]) -> str | None:
    """The ids that name no question, as '2 ids name no question of the dataset: a, b'; None when all do."""
    unknown = sorted(ids - {q.id for q in questions})
    if not unknown:
        return None
    shown = ", ".join(unknown[:SHOWN]) + (f" and {len(unknown) - SHOWN} more" if len(unknown) > SHOWN else "")
    return f"{len(unknown)} of its ids name no question of the dataset: {shown}"


def select_ids(questions: list[Question], only: Path | None, exclude: Path | None) -> list[Question]:
    """The questions `--only-ids` keeps and `--exclude-ids` leaves, in dataset order; DatasetError
    when none are left, or when `--only-ids` names an id that is no question of the dataset."""
    if only is not None:
        wanted = read_ids(only, "--only-ids")
        kept = [q for q in questions if q.id in wanted]
        if not kept:
            raise DatasetError(f"--only-ids {only}: none of its {len(wanted)} ids is a question of the dataset")
        unknown = _unknown(questions, wanted)
        if unknown:
            raise DatasetError(f"--only-ids {only}: {unknown}; remove them, or check --dataset")
        questions = kept
    if exclude is not None:
        dropped = read_ids(exclude, "--exclude-ids")
        questions = [q for q in questions if q.id not in dropped]
        if not questions:
            raise DatasetError(f"--exclude-ids {exclude} leaves no question of the dataset")
    return questions


def exclude_notes(questions: list[Question], exclude: Path | None) -> list[str]:
    """A note when `--exclude-ids` names ids that are no question of the dataset (they leave nothing
    out, so the run goes on: an exclusion list may be shared by datasets)."""
    unknown = None if exclude is None else _unknown(questions, read_ids(exclude, "--exclude-ids"))
    return [f"--exclude-ids {exclude}: {unknown}; they leave nothing out"] if unknown else []
