"""Shards of one run: which questions shard I of N answers, and where a split run keeps them.

A question belongs to shard `1 + h mod N`, h a stable hash (BLAKE2b) of its id: every strategy and
repeat of a question land in one shard, so the paired statistics of the merged run stay clustered by
question, and the split is the same in every process, on every machine, in every Python version.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from factprobe.eval.config.run_config import parse_shard
from factprobe.eval.core.schema import Question

SHARDS_FOLDER = "shards"


def shard_of(question_id: str, count: int) -> int:
    """The shard (1..count) that answers `question_id`."""
    digest = hashlib.blake2b(question_id.encode("utf-8"), digest_size=8).digest()
    return 1 + int.from_bytes(digest, "big") % count


def in_shard(questions: list[Question], index: int, count: int) -> list[Question]:
    """The questions of shard `index` of `count`, in their run order."""
    return [question for question in questions if shard_of(question.id, count) == index]


def shard_entry(shard: str, selected_ids: list[str]) -> dict[str, Any]:
    """The manifest's `shard` key: which shard this run is and the whole run's selection (in run
    order), so `factprobe merge` can check that the shards are complete without the dataset."""
    index, count = parse_shard(shard)
    return {"index": index, "count": count, "run_question_ids": selected_ids}


def shard_dir(out: Path, index: int, count: int) -> Path:
    """Where a run split by --workers keeps shard `index` of `count`: OUT/shards/I-of-N."""
    return out / SHARDS_FOLDER / f"{index}-of-{count}"


def shard_dirs(out: Path, count: int) -> list[Path]:
    return [shard_dir(out, index, count) for index in range(1, count + 1)]


def existing_split(out: Path) -> set[int]:
    """The shard counts of the folders already under OUT/shards (empty for a run not split)."""
    folder = out / SHARDS_FOLDER
    if not folder.is_dir():
        return set()
    counts = set()
    for child in folder.iterdir():
        index, _, count = child.name.partition("-of-")
        if child.is_dir() and index.isdigit() and count.isdigit():
            counts.add(int(count))
    return counts
