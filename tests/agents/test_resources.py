"""`StrategyContext.resources`: a typed RunResources, still built from the mapping older code passed."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

import pytest

import factprobe
from factprobe.agents.context import StrategyContext
from factprobe.agents.entities import entity_context
from factprobe.agents.registry import get_strategy
from factprobe.agents.resources import RunResources
from factprobe.eval.core.schema import Passage, Question
from tests.fakes import ScriptedModel, last_user

EXTENDING = Path(__file__).parents[2] / "docs" / "extending.md"
PASSAGE = Passage(id="p1", title="Oslo", text="Oslo is the capital of Norway.")
DECLARED = {"corpus", "config", "retrieval", "judge", "entity_model", "cache_dir", "hop_probe_retrieval", "extra"}


def model(name: str = "scripted") -> ScriptedModel:
    return ScriptedModel(lambda messages, params: "Answer: Oslo\nConfidence: 70", name=name)


def test_the_resources_declare_every_field_the_run_sets() -> None:
    assert {item.name for item in fields(RunResources)} == DECLARED
    empty = StrategyContext(model=model()).resources
    assert isinstance(empty, RunResources) and empty == RunResources()
    assert empty.corpus == [] and empty.extra == {} and empty.retrieval is None and empty.hop_probe_retrieval is None
    assert StrategyContext(model=model()).resources is not empty      # each context its own, never a shared default


def test_a_mapping_of_the_old_keys_becomes_the_typed_resources() -> None:
    judge, mine = model("judge"), object()
    context = StrategyContext(model=model(), resources={"corpus": [PASSAGE], "judge": judge, "entity_model": None,
                                                        "my_index": mine, "extra": {"kept": 1}})
    resources = context.resources
    assert isinstance(resources, RunResources)
    assert resources.corpus == [PASSAGE] and resources.judge is judge and resources.entity_model is None
    assert resources.extra == {"my_index": mine, "kept": 1}   # unknown keys go to the one open slot
    public = factprobe.StrategyContext(model=model(), resources={})   # the public name, old style
    assert isinstance(public.resources, factprobe.RunResources) and public.resources == RunResources()


def test_a_copy_of_the_context_shares_its_resources_and_their_memos() -> None:
    resources = RunResources(entity_model=model("reader"))
    context = StrategyContext(model=model(), options={"entity_model": "openai:reader"}, resources=resources)
    assert context.resources is resources
    reading = entity_context(context)
    assert reading.model is resources.entity_model and reading.resources is resources
    reading.resources.extra["memo"] = "built once"
    assert context.resources.extra == {"memo": "built once"} and replace(context).resources is resources


@dataclass(frozen=True)
class Spec:
    local: bool = True


@dataclass(frozen=True)
class Settings:
    spec: Spec = Spec()
    top_k: int = 1
    entities: str = "rules"
    entity_source: str = "question"


class OnePassage:
    """A retrieval pipeline that finds PASSAGE for every query and remembers the queries."""

    settings = Settings()

    def __init__(self) -> None:
        self.queries: list[list[str]] = []

    async def search(self, question: Question, queries: list[str], top_k: int | None = None) -> dict[str, Any]:
        self.queries.append(queries)
        step = {"step": "retrieve", "passages": [PASSAGE.id], "latency_s": 0.0}
        return {"passages": [PASSAGE.model_dump()], "latency_s": 0.0, "step": step}


def test_rag_reads_the_pipeline_factory_from_old_style_resources() -> None:
    pipeline = OnePassage()
    replies = ScriptedModel(lambda messages, params: "Answer: Oslo\nConfidence: 70"
                            if "capital of Norway" in last_user(messages) else "Answer: no idea\nConfidence: 1")
    context = StrategyContext(model=replies, resources={"retrieval": lambda context: pipeline})
    question = Question(id="oslo", question="Which city is Norway's capital?", answer="Oslo")
    state = asyncio.run(get_strategy("rag").build(context).ainvoke({"question": question, "repeat": 0}))
    assert state["answer"] == "Oslo" and state["retrieved_ids"] == ["p1"]
    assert pipeline.queries == [[f"{question.question} Norway"]]   # the rules found the entity; one local query


@pytest.mark.usefixtures("own_strategy_registry")
def test_the_documented_strategy_keeps_its_object_in_extra_once_per_run() -> None:
    """The example of docs/extending.md, as written: its index is built once and shared."""
    [example] = [block for block in re.findall(r"```python\n(.*?)```", EXTENDING.read_text(encoding="utf-8"), re.S)
                 if "resources.extra" in block]
    exec(compile("import factprobe\n" + example, str(EXTENDING), "exec"), {})
    replies = ScriptedModel(lambda messages, params: "Answer: Norway\nConfidence: 60"
                            if "capital of Norway" in last_user(messages) else "Answer: no idea\nConfidence: 1")
    context = StrategyContext(model=replies, resources=RunResources(corpus=[PASSAGE]))
    graph = get_strategy("glossed").build(context)
    titles = context.resources.extra["glossed.titles"]
    get_strategy("glossed").build(context)
    assert context.resources.extra["glossed.titles"] is titles and list(context.resources.extra) == ["glossed.titles"]
    assert list(titles) == ["oslo"]
    question = Question(id="oslo", question="Which country is Oslo the capital of?", answer="Norway")
    state = asyncio.run(graph.ainvoke({"question": question, "repeat": 0}))
    assert state["answer"] == "Norway" and "Oslo is the capital of Norway." in last_user(replies.calls[0][0])
