"""Turn a `--model`/`--judge` value into a backend (contract: local, local:PATH, openai:…, anthropic:…)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from factprobe.agents.models.base import ChatModel, ModelSpecError
from factprobe.agents.models.cache import CachedModel, ResponseCache
from factprobe.eval.core.secrets import remember_in_args
from factprobe.eval.store.json_store import default_cache_dir

SPEC_HELP = ("use `local` (embedded SmolLM2), `local:PATH.gguf`, `openai:MODEL`, "
             "`openai:MODEL@BASE_URL` (any OpenAI-compatible server; `@URL1,URL2,…` for several serving "
             "one model) or `anthropic:MODEL`")


@dataclass(frozen=True)
class RequestLimits:
    """Remote backends' limits per call: seconds for one whole response, and retries after a
    transient failure (`--request-timeout`, `--max-retries`)."""

    timeout_s: float = 120.0
    max_retries: int = 4


def load_backend(spec: str, threads: int | None = None, limits: RequestLimits = RequestLimits()) -> ChatModel:
    """The uncached backend a spec names; raises ModelSpecError with a fix when it names none.

    `threads` is the local backend's CPU thread count (None: its default rule); remote backends
    ignore it and take `limits` instead.
    """
    kind, _, rest = spec.partition(":")
    remember_in_args([spec])          # a key in a base URL is redacted wherever text is written
    if kind == "local":
        from factprobe.agents.models.local import LocalModel

        return LocalModel(Path(rest).expanduser() if rest else None, n_threads=threads)
    if kind == "openai" and rest:
        from factprobe.agents.models.openai_backend import OpenAIModel

        model, _, base_url = rest.partition("@")
        if not model.strip():
            raise ModelSpecError(f"{spec!r}: no model name before `@`; {SPEC_HELP}")
        if "," in base_url:  # several endpoints serving one model: a fleet used as one
            from factprobe.agents.models.fleet import FleetModel

            urls = [url.strip() for url in base_url.split(",")]
            if not all(urls):
                raise ModelSpecError(f"{spec!r}: an empty base URL in the list; {SPEC_HELP}")
            return FleetModel(spec, [OpenAIModel(model, base_url=url, timeout=limits.timeout_s,
                                                 max_retries=limits.max_retries) for url in urls])
        return OpenAIModel(model, base_url=base_url or None, timeout=limits.timeout_s,
                           max_retries=limits.max_retries)
    if kind == "anthropic" and rest:
        from factprobe.agents.models.anthropic_backend import AnthropicModel

        return AnthropicModel(rest, timeout=limits.timeout_s, max_retries=limits.max_retries)
    raise ModelSpecError(f"unknown model {spec!r}: {SPEC_HELP}")


def load_model(spec: str, cache_dir: Path | None = None, use_cache: bool = True,
               threads: int | None = None, limits: RequestLimits = RequestLimits()) -> ChatModel:
    """The backend a spec names, behind the on-disk response cache unless `use_cache` is off."""
    backend = load_backend(spec, threads, limits)
    if not use_cache:
        return backend
    return CachedModel(backend, ResponseCache((cache_dir or default_cache_dir()) / "responses.sqlite"))
