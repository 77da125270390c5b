"""`--dataset` values: `sample` or `LOADER:PATH`.

A loader is one module whose `load(path) -> Dataset` carries `@factprobe.loader(name, description)`;
the module is declared in the `factprobe.loaders` entry-point group (factprobe's own too, named as
the loader, so a run imports only its own) or loaded with `--plugin` (factprobe.eval.core.extensions).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from factprobe.eval.core.errors import DatasetError
from factprobe.eval.core.extensions import DEFAULT_ORDER, Registry, origin_of
from factprobe.eval.core.schema import Passage, Question
from factprobe.eval.core.suggest import did_you_mean


@dataclass
class Dataset:
    """Questions plus the shared corpus retrieval searches (per-question corpora ride on questions)."""

    name: str
    questions: list[Question]
    corpus: list[Passage] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what a loader changed or could not map
    where: dict[str, str] = field(default_factory=dict)  # question id -> `line N` / `record N`, for messages


Loader = Callable[[Path], Dataset]


@dataclass(frozen=True)
class LoaderSpec:
    name: str
    description: str
    load: Loader


LOADERS: Registry[LoaderSpec] = Registry("dataset loader", "factprobe.loaders")


def loader(name: str, description: str, order: int = DEFAULT_ORDER) -> Callable[[Loader], Loader]:
    """Decorator (`@factprobe.loader`): `load(path) -> Dataset` reads `--dataset NAME:PATH`;
    `factprobe datasets` lists loaders by (order, name)."""
    if not name or ":" in name or name == "sample" or name != name.strip():
        raise ValueError(f"loader name {name!r}: use a non-empty name without ':' or spaces, not 'sample'")

    def decorate(load: Loader) -> Loader:
        LOADERS.add(name, LoaderSpec(name, description, load), origin_of(load), order)
        return load

    return decorate


def load_sample_dataset() -> Dataset:
    from factprobe.eval.datasets.sample import load_sample, load_sample_corpus

    return Dataset("sample", load_sample(), load_sample_corpus())


def describe_loaders() -> dict[str, str]:
    """Every dataset name and loader with its description."""
    return {"sample": "bundled benchmark: single- and multi-hop, unanswerable, with its own corpus",
            **{name: spec.description for name, spec in LOADERS.items().items()}}


def load_dataset(spec: str) -> Dataset:
    """Load `sample` or `LOADER:PATH`; every problem is a DatasetError naming file, line and field."""
    if spec == "sample":
        return load_sample_dataset()
    loader_name, _, path_text = spec.partition(":")
    found = LOADERS.get(loader_name) if loader_name else None
    if found is not None and not path_text.strip():
        raise DatasetError(f"dataset {spec!r}: {loader_name} is a loader, which reads a file; give its file: "
                           f"{loader_name}:PATH")
    if found is None and LOADERS.get(loader_name.lower()) is not None:
        raise DatasetError(f"unknown dataset {spec!r}: loader names are lower case: "
                           f"{loader_name.lower()}:{path_text.strip() or 'PATH'}")
    if found is None:
        hint = did_you_mean(loader_name, [*LOADERS.items(), "sample"]) if loader_name else ""
        raise DatasetError(f"unknown dataset {spec!r}{hint}: use `sample` or LOADER:PATH with LOADER one of "
                           f"{', '.join(LOADERS.items())}")
    path = Path(path_text).expanduser()
    if not path.exists():
        raise DatasetError(f"{path}: no such file")
    dataset: Dataset = found.load(path)
    if not dataset.questions:
        raise DatasetError(f"{path}: the {loader_name} loader found no questions")
    ids = [q.id for q in dataset.questions]
    if len(set(ids)) != len(ids):
        duplicate = next(i for i in ids if ids.count(i) > 1)
        raise DatasetError(f"{path}: question id {duplicate!r} appears more than once")
    return dataset
