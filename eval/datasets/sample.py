"""The bundled `sample` benchmark: our own questions and corpus, shipped as package data.

Questions live in `eval/datasets/data/sample/questions/*.jsonl` (native schema, one `Question` per line)
and passages in `eval/datasets/data/sample/corpus/*.jsonl` (one `Passage` per line). Files are read in
name order, so the dataset is the same on every machine.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from factprobe.eval.core.jsonl import read_jsonl_models
from factprobe.eval.core.schema import Passage, Question


def sample_dir() -> Path:
    """The folder holding the bundled sample benchmark."""
    return Path(str(resources.files("factprobe.eval.datasets") / "data" / "sample"))


def load_sample_corpus() -> list[Passage]:
    """Every passage of the sample corpus."""
    passages: list[Passage] = []
    for path in sorted((sample_dir() / "corpus").glob("*.jsonl")):
        passages.extend(read_jsonl_models(path, Passage))
    return passages


def load_sample() -> list[Question]:
    """Every question of the sample benchmark, answerable and unanswerable."""
    questions: list[Question] = []
    for path in sorted((sample_dir() / "questions").glob("*.jsonl")):
        questions.extend(read_jsonl_models(path, Question))
    return questions
