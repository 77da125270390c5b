"""`--dataset` values: `sample` or `LOADER:PATH`; each loader is one module plus a line here."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from factprobe.eval.core.errors import DatasetError
from factprobe.eval.core.schema import Passage, Question
from factprobe.eval.core.suggest import did_you_mean


@dataclass
class Dataset:
    """Questions plus the shared corpus retrieval searches (per-question corpora ride on questions)."""

    name: str
    questions: list[Question]
    corpus: list[Passage] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what a loader changed or could not map


Loader = Callable[[Path], Dataset]

# name -> (module, one-line description); the module defines `load(path) -> Dataset`.
LOADERS: dict[str, tuple[str, str]] = {
    "jsonl": ("factprobe.eval.datasets.jsonl_loader", "factprobe's native schema, one Question per line"),
    "simpleqa": ("factprobe.eval.datasets.simpleqa", "SimpleQA CSV (metadata, question/problem, true_answer/answer)"),
    "musique": ("factprobe.eval.datasets.musique", "MuSiQue JSONL: 2-4 hop chains, 20 paragraphs per question"),
    "hotpotqa": ("factprobe.eval.datasets.hotpotqa", "HotpotQA distractor JSONL: 10 paragraphs, supporting facts"),
    "2wiki": ("factprobe.eval.datasets.twowiki", "2WikiMultihopQA JSONL: paragraphs, evidence triples as hops"),
    "selfaware": ("factprobe.eval.datasets.selfaware", "SelfAware JSON: answerable and unanswerable questions"),
    "kuq": ("factprobe.eval.datasets.kuq", "Known Unknowns (KUQ) JSONL: known and unknown questions"),
    "fanoutqa": ("factprobe.eval.datasets.fanoutqa", "FanOutQA JSON: human decompositions with depends_on"),
    "compceleb": ("factprobe.eval.datasets.compceleb", "Compositional Celebrities JSON: Q1/A1 then Q2/A2"),
    "videosimpleqa": ("factprobe.eval.datasets.videosimpleqa",
                      "Video SimpleQA JSON: 2-4 per-hop sub-QAs, video id as media_id"),
    "mcq": ("factprobe.eval.datasets.mcq", "multiple-choice JSONL: id, question, choices, answer (letter or text)"),
    "mmworld": ("factprobe.eval.datasets.mmworld", "MMWorld annotation JSON: videos with lettered options"),
    "worldsense": ("factprobe.eval.datasets.worldsense",
                   "WorldSense worldsense_qa.json: task0.. per video, letter answers"),
}


def load_sample_dataset() -> Dataset:
    from factprobe.eval.datasets.sample import load_sample, load_sample_corpus

    return Dataset("sample", load_sample(), load_sample_corpus())


def describe_loaders() -> dict[str, str]:
    """Every dataset name and loader with its description."""
    return {"sample": "bundled benchmark: single- and multi-hop, unanswerable, with its own corpus",
            **{name: description for name, (_, description) in LOADERS.items()}}


def load_dataset(spec: str) -> Dataset:
    """Load `sample` or `LOADER:PATH`; every problem is a DatasetError naming file, line and field."""
    if spec == "sample":
        return load_sample_dataset()
    loader_name, sep, path_text = spec.partition(":")
    if not sep or loader_name not in LOADERS or not path_text:
        hint = did_you_mean(loader_name, [*LOADERS, "sample"]) if loader_name else ""
        raise DatasetError(f"unknown dataset {spec!r}{hint}: use `sample` or LOADER:PATH with LOADER one of "
                           f"{', '.join(LOADERS)}")
    path = Path(path_text).expanduser()
    if not path.exists():
        raise DatasetError(f"{path}: no such file")
    module = importlib.import_module(LOADERS[loader_name][0])
    dataset: Dataset = module.load(path)
    if not dataset.questions:
        raise DatasetError(f"{path}: the {loader_name} loader found no questions")
    ids = [q.id for q in dataset.questions]
    if len(set(ids)) != len(ids):
        duplicate = next(i for i in ids if ids.count(i) > 1)
        raise DatasetError(f"{path}: question id {duplicate!r} appears more than once")
    return dataset
