"""The `jsonl` loader: factprobe's native schema (eval.schema.Question), one object per line.

A record without a `source` gets the file's name (without suffix) as its source.
"""

from __future__ import annotations

from pathlib import Path

from factprobe.eval.datasets.raw import check_hop_references, jsonl_records, parse_records
from factprobe.eval.datasets.registry import Dataset
from factprobe.eval.schema import Question


def load(path: Path) -> Dataset:
    questions = []
    for where, question in parse_records(path, jsonl_records(path), Question, "factprobe's native schema"):
        check_hop_references(path, where, question.hops)
        questions.append(question if question.source else question.model_copy(update={"source": path.stem}))
    return Dataset(path.stem, questions)
