"""manifest.json: what was run, with which versions, so a result can be traced and redone."""

from __future__ import annotations

import hashlib
import importlib.metadata
import platform
import sys
from datetime import datetime, timezone
from typing import Any

from factprobe.agents.models.base import ChatModel
from factprobe.agents.prompts import PROMPTS_VERSION
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.datasets.registry import Dataset
from factprobe.eval.grading.base import Grader
from factprobe.eval.run.inputs import input_digests

KEY_PACKAGES = ("factprobe", "langgraph", "llama-index-core", "llama-index-retrievers-bm25",
                "llama_cpp_python", "openai", "anthropic", "pydantic", "numpy", "scipy", "rich")


def package_versions() -> dict[str, str | None]:
    versions: dict[str, str | None] = {}
    for name in KEY_PACKAGES:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def dataset_fingerprint(dataset: Dataset) -> str:
    """sha256 over the questions as loaded, so two runs can be checked to ask the same things."""
    digest = hashlib.sha256()
    for question in dataset.questions:
        # fields left at their defaults are not hashed, so adding an optional field to Question
        # does not change the fingerprint of data that does not use it
        digest.update(question.model_dump_json(exclude_defaults=True).encode("utf-8"))
    return digest.hexdigest()


STRATEGY_FLAGS = ("samples", "offers_refusal", "retrieves", "selects", "refines", "recorded")


def strategy_flags(strategies: list[str]) -> dict[str, dict[str, bool]]:
    """What evaluation needs to know of each strategy (factprobe.agents.registry.StrategySpec
    flags), kept in the manifest so reports read them without loading the strategies."""
    from factprobe.agents.registry import describes

    return {name: {flag: describes(name, flag) for flag in STRATEGY_FLAGS} for name in strategies}


def served_ids(description: Any) -> list[str]:
    """The model ids remote servers reported (`served_model.model_id`) anywhere in a model's
    description: one backend's, a wrapper's inner backend's, a fleet's endpoints'."""
    if isinstance(description, list):
        return [found for item in description for found in served_ids(item)]
    if not isinstance(description, dict):
        return []
    served = description.get("served_model")
    if isinstance(served, dict) and served.get("model_id"):
        return [str(served["model_id"])]
    return [found for value in description.values() for found in served_ids(value)]


def served_model(model: ChatModel) -> str | None:
    """The model the server behind `model` says it serves (the id `GET /models` lists, else the
    `model` field of its first reply; read when the model was reached), several joined by ", ";
    None for a model no server reports (the embedded model, Anthropic, answers from a file)."""
    return ", ".join(sorted(set(served_ids(model.describe())))) or None


def build_manifest(config: RunConfig, dataset: Dataset, question_ids: list[str], model: ChatModel,
                   grader: Grader, media: dict[str, Any] | None = None,
                   judge: ChatModel | None = None) -> dict[str, Any]:
    """`media`: how the questions' media were found and sampled (RunMedia.sampling), when any were;
    `judge`: the run's judge, whose server's model is recorded like the answering model's."""
    packages = package_versions()   # once: each lookup reads the installed distributions (1 ms)
    return {
        "factprobe_version": packages["factprobe"],
        "started_utc": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "command": sys.argv,
        "config": config.model_dump(mode="json"),
        "dataset": {"name": dataset.name, "questions": len(dataset.questions),
                    "selected": len(question_ids), "fingerprint": dataset_fingerprint(dataset),
                    "corpus_passages": len(dataset.corpus)},
        "question_ids": question_ids,
        "strategy_flags": strategy_flags(config.strategies),
        "model": model.describe(),
        "served_model": served_model(model),
        "judge_served_model": served_model(judge) if judge is not None else None,
        "inputs": input_digests(config),
        "grader": grader.describe(),
        "media": media or None,
        "prompts_version": PROMPTS_VERSION,
        "answer_prompt": config.answer_prompt(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "packages": packages,
        "executable": sys.executable,
    }
