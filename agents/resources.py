"""What a run lends its strategies and post steps besides the model: `StrategyContext.resources`.

The run (factprobe.eval.run.runner) fills a `RunResources` once per run: the dataset's shared
corpus, the run's config, the retrieval pipeline factory, the judge and entity models. Fields
marked as memos start empty and are set by the first step that needs them, so every later step of
the run reuses the object. `extra` is the one open slot: a plugin's strategy or post step keeps its
own per-run objects there under names of its choosing (docs/extending.md).

The retrieval search and the run's config belong to packages above this one, so their types here
are protocols of what factprobe's own parts read from them, not imports.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Protocol

from factprobe.agents.models.base import ChatModel
from factprobe.eval.core.schema import Passage, Question


class RunSettings(Protocol):
    """The run's options as strategies read them; at run time the run's `factprobe.RunConfig`."""

    @property
    def use_cache(self) -> bool:
        """Whether retrieval results and model replies may be read from and written to the caches."""
        ...


class SearchSettings(Protocol):
    """The retrieval options a pipeline was built with (factprobe.retrieval.pipeline.RetrievalSettings)."""

    @property
    def spec(self) -> Any:
        """The retriever (`--retriever`); its `local` says whether it searches a local corpus."""
        ...

    @property
    def top_k(self) -> int: ...

    @property
    def entities(self) -> str:
        """How queries' entities are found: "model" or "rules"."""
        ...

    @property
    def entity_source(self) -> str:
        """What the entities are named from: "question" or "media"."""
        ...


class SearchPipeline(Protocol):
    """A retrieval pipeline as the graph steps use it (factprobe.retrieval.pipeline.RetrievalPipeline)."""

    @property
    def settings(self) -> SearchSettings: ...

    async def search(self, question: Question, queries: list[str], top_k: int | None = None) -> dict[str, Any]:
        """{"passages": [passage dicts best first], "latency_s": …, "step": trace step}."""
        ...


PipelineFactory = Callable[[Any], SearchPipeline]
"""Builds the retrieval pipeline of a strategy context (the run supplies retrieval.pipeline.pipeline_for)."""


@dataclass
class RunResources:
    """The run's shared objects a strategy or post step may use; every field may be left unset."""

    corpus: list[Passage] = field(default_factory=list, repr=False)
    """The dataset's shared corpus, which local retrievers index when a question brings none."""
    config: RunSettings | None = None
    """The run's config (a `factprobe.RunConfig`); None outside a run."""
    retrieval: PipelineFactory | None = None
    """Builds a retrieval pipeline from a strategy context; None: strategies that retrieve cannot run."""
    judge: ChatModel | None = None
    """The run's `--judge` model (None without one); post steps such as `multiple_choice` ask it."""
    entity_model: ChatModel | None = None
    """The `--entity-model` that names the entities retrieval searches for (None: the model under test)."""
    cache_dir: Path | None = None
    """Where retrieval keeps its indexes and result cache; None: the default cache folder."""
    hop_probe_retrieval: SearchPipeline | None = None
    """Memo: the one retrieval pipeline the hop probes share, built by the first probe that retrieves."""
    extra: dict[str, Any] = field(default_factory=dict)
    """A plugin's own per-run objects, by names of its choosing; factprobe never reads or writes it."""

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> RunResources:
        """Resources from the mapping older code passed: keys naming a field set it (a None value
        leaves the field's default); every other key, and the entries of an `extra` mapping, go to
        `extra`."""
        names = {item.name for item in fields(cls)} - {"extra"}
        known = {name: value for name, value in values.items() if name in names and value is not None}
        extra = dict(values.get("extra") or {})
        extra.update((name, value) for name, value in values.items() if name not in names and name != "extra")
        return cls(**known, extra=extra)
