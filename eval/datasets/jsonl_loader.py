"""The `jsonl` loader: factprobe's native schema (eval.schema.Question), one object per line."""

from __future__ import annotations

from pathlib import Path

from eval.datasets.jsonl import read_jsonl_models
from eval.datasets.registry import Dataset
from eval.schema import Question


def load(path: Path) -> Dataset:
    return Dataset(path.stem, read_jsonl_models(path, Question))
