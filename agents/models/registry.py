"""Turn a `--model`/`--judge` value into a backend (contract: local, local:PATH, openai:…, anthropic:…)."""

from __future__ import annotations

from pathlib import Path

from factprobe.agents.models.base import ChatModel, ModelSpecError
from factprobe.agents.models.cache import CachedModel, ResponseCache, default_cache_dir

SPEC_HELP = ("use `local` (embedded SmolLM2), `local:PATH.gguf`, `openai:MODEL`, "
             "`openai:MODEL@BASE_URL` (any OpenAI-compatible server) or `anthropic:MODEL`")


def load_backend(spec: str, threads: int | None = None) -> ChatModel:
    """The uncached backend a spec names; raises ModelSpecError with a fix when it names none.

    `threads` is the local backend's CPU thread count (None: its default rule); remote backends ignore it.
    """
    kind, _, rest = spec.partition(":")
    if kind == "local":
        from factprobe.agents.models.local import LocalModel

        return LocalModel(Path(rest).expanduser() if rest else None, n_threads=threads)
    if kind == "openai" and rest:
        from factprobe.agents.models.openai_backend import OpenAIModel

        model, _, base_url = rest.partition("@")
        return OpenAIModel(model, base_url=base_url or None)
    if kind == "anthropic" and rest:
        from factprobe.agents.models.anthropic_backend import AnthropicModel

        return AnthropicModel(rest)
    raise ModelSpecError(f"unknown model {spec!r}: {SPEC_HELP}")


def load_model(spec: str, cache_dir: Path | None = None, use_cache: bool = True,
               threads: int | None = None) -> ChatModel:
    """The backend a spec names, behind the on-disk response cache unless `use_cache` is off."""
    backend = load_backend(spec, threads)
    if not use_cache:
        return backend
    return CachedModel(backend, ResponseCache((cache_dir or default_cache_dir()) / "responses.sqlite"))
