"""The strategy registry: a strategy is one module that registers a graph builder by name.

Modules reach it through the `factprobe.strategies` entry-point group (factprobe's own strategies
are declared there too) or `--plugin`; see factprobe.agents.plugins."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from factprobe.agents.context import StrategyContext
from factprobe.eval.core.extensions import DuplicateExtensionError
from factprobe.eval.core.suggest import did_you_mean

GraphBuilder = Callable[[StrategyContext], Any]


@dataclass(frozen=True)
class StrategySpec:
    """A registered strategy: its name, a one-line description, its graph builder, and what the
    evaluation needs to know about it (does it sample, offer a refusal option, retrieve)."""

    name: str
    description: str
    build: GraphBuilder
    samples: bool = False
    offers_refusal: bool = False
    retrieves: bool = False
    # the run options the graph reads (e.g. ("samples", "selector")); None: it may read any, so a
    # sweep never folds two cells that differ only in strategy options
    reads: tuple[str, ...] | None = None
    source: str | None = None  # what registered it when the builder's own name does not say

    @property
    def origin(self) -> str:
        """Where the builder was defined (or `source`): two registrations from one origin are the
        same code run again (a notebook cell, a re-imported module)."""
        if self.source:
            return self.source
        return f"{getattr(self.build, '__module__', '?')}.{getattr(self.build, '__qualname__', '?')}"


_STRATEGIES: dict[str, StrategySpec] = {}


class UnknownStrategyError(ValueError):
    """A strategy name nobody registered."""


class DuplicateStrategyError(DuplicateExtensionError):
    """Two different builders registered under one name (the rule of factprobe.eval.core.extensions)."""


def register(spec: StrategySpec, replace: bool = False) -> None:
    """Add `spec` to the registry. The one rule for duplicates: a name belongs to one origin; the
    same code registered again (a module imported twice) replaces it, any other origin is an error
    (unless the caller explicitly asks to `replace` a strategy of its own)."""
    known = _STRATEGIES.get(spec.name)
    if known is not None and known.build is not spec.build and not replace:
        if known.origin != spec.origin:
            raise DuplicateStrategyError(f"strategy {spec.name!r} is registered twice: by {known.origin} "
                                         f"and by {spec.origin}; rename one of them")
    _STRATEGIES[spec.name] = spec


def check_name(name: str) -> None:
    """A strategy name composes with `+rag`, `@setting` and comma lists: none of those marks."""
    if not name or any(mark in name for mark in "+,@") or name != name.strip():
        raise ValueError(f"strategy name {name!r}: use a non-empty name without '+', ',', '@' or spaces")


def register_strategy(name: str, description: str, *, samples: bool = False,
                      offers_refusal: bool = False, retrieves: bool = False,
                      reads: tuple[str, ...] | None = None) -> Callable[[GraphBuilder], GraphBuilder]:
    """Decorator (`@factprobe.strategy`): register `build(context) -> compiled LangGraph` as `name`.

    The graph reads and writes `factprobe.agents.state.QAState`; see README "Your own strategies"."""
    check_name(name)

    def decorate(build: GraphBuilder) -> GraphBuilder:
        register(StrategySpec(name, description, build, samples, offers_refusal, retrieves, reads))
        return build

    return decorate


def _load_all() -> None:
    from factprobe.agents.plugins import load_entry_points

    load_entry_points()


def _registered_with(name: str) -> dict[str, StrategySpec]:
    """The registry after importing what registers `name`: its own entry point when one has that
    name, every entry point otherwise."""
    from factprobe.agents.plugins import load_entry_point

    if name not in _STRATEGIES and not (load_entry_point(name) and name in _STRATEGIES):
        _load_all()
    return dict(_STRATEGIES)


def strategies() -> dict[str, StrategySpec]:
    """Every registered strategy by name, in registration order."""
    _load_all()
    return dict(_STRATEGIES)


def describes(name: str, flag: str) -> bool:
    """A spec flag (`samples`, `offers_refusal`, `retrieves`) of strategy `name`; False for a name
    not registered in this process (e.g. `factprobe report` on a run whose plugin is not loaded)."""
    try:
        return bool(getattr(get_strategy(name), flag))
    except UnknownStrategyError:
        return False


def get_strategy(name: str) -> StrategySpec:
    """The strategy called `name` (or `X+rag`: retrieval, then X; `X@SETTING`: X in an input setting,
    see factprobe.eval.core.modality); a ValueError lists the known names otherwise."""
    if "@" in name:
        from factprobe.eval.core.modality import UnknownSettingError, split_variant

        try:
            return get_strategy(split_variant(name)[0])
        except UnknownSettingError as exc:
            raise UnknownStrategyError(str(exc)) from None
    base = name.removesuffix("+rag")
    known = _registered_with(name if name in _STRATEGIES or base == name else base)
    if name not in known and base != name and base in known and base != "rag":
        return rag_composition(known[base])
    if name not in known:
        raise UnknownStrategyError(f"unknown strategy {name!r}{did_you_mean(name, known)}; known: {', '.join(known)} "
                                   f"(each also as NAME+rag, with retrieval first)")
    return known[name]


def rag_composition(base: Any) -> Any:
    """The StrategySpec of `base.name + "+rag"`: retrieval, then `base`'s graph."""
    from factprobe.agents.rag import RAG_SUFFIX, with_retrieval  # langgraph: only when composing

    def build(context: StrategyContext):
        return with_retrieval(base.build(context), context)

    reads = None if base.reads is None else (*base.reads, "retriever", "top_k")
    return StrategySpec(f"{base.name}{RAG_SUFFIX}", f"{base.description}, after retrieval", build,
                        samples=base.samples, offers_refusal=base.offers_refusal, retrieves=True,
                        reads=reads)
