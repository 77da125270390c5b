"""The one way a judge model is loaded, by `factprobe run`, `audit-grader` and `taxonomy`: the model
the spec names (behind the response cache unless told otherwise), reached once before any grading,
so a dead or misnamed judge stops the command at once with exit 2 and a message naming it, instead
of turning every verdict into a failed call."""

from __future__ import annotations

import asyncio

from factprobe.agents.models.base import ChatModel, ModelError, ModelSpecError, model_identity
from factprobe.agents.models.registry import RequestLimits, load_model
from factprobe.eval.core.redact import redact


def reach_model(model: ChatModel, flag: str, spec: str) -> None:
    """Reach the model once before any question (a remote server is asked which model it serves;
    a local file is hashed): a dead server or a wrong model stops here with ModelSpecError (exit 2)."""
    try:
        asyncio.run(model_identity(model))
    except ModelError as exc:
        raise ModelSpecError(f"{flag} {spec} could not be reached, so nothing was run: {redact(str(exc))}. "
                             f"Check that the server is up and the URL is right (a slow server may "
                             f"need a longer --request-timeout).") from None


def load_judge(spec: str, use_cache: bool = True, threads: int | None = None,
               limits: RequestLimits | None = None, flag: str = "--judge") -> ChatModel:
    """The judge model `spec` names, checked reachable; ModelSpecError naming `flag` and `spec` when
    the spec is wrong or the judge cannot be reached."""
    judge = load_model(spec, use_cache=use_cache, threads=threads, limits=limits or RequestLimits())
    reach_model(judge, flag, spec)
    return judge
