"""The strategy registry: a strategy is one module that registers a graph builder by name."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable

from factprobe.agents.context import StrategyContext

GraphBuilder = Callable[[StrategyContext], Any]

# One line per strategy module; importing a module registers its strategy.
STRATEGY_MODULES = [
    "factprobe.agents.strategies.vanilla",
    "factprobe.agents.strategies.rag",
    "factprobe.agents.strategies.best_of_n",
    "factprobe.agents.strategies.self_refine",
    "factprobe.agents.strategies.refusal",
    "factprobe.decomposition.strategy",
]


@dataclass(frozen=True)
class StrategySpec:
    """A registered strategy: its name, a one-line description and its graph builder."""

    name: str
    description: str
    build: GraphBuilder


_STRATEGIES: dict[str, StrategySpec] = {}


class UnknownStrategyError(ValueError):
    """A strategy name nobody registered."""


class StrategyOptionError(ValueError):
    """A strategy option out of its range (e.g. `--samples 0`); the message names the option."""


def register_strategy(name: str, description: str) -> Callable[[GraphBuilder], GraphBuilder]:
    """Decorator: register `build(context) -> compiled LangGraph` under `name`."""

    def decorate(build: GraphBuilder) -> GraphBuilder:
        if name in _STRATEGIES and _STRATEGIES[name].build is not build:
            raise ValueError(f"strategy {name!r} is registered twice")
        _STRATEGIES[name] = StrategySpec(name, description, build)
        return build

    return decorate


def _load_all() -> None:
    for module in STRATEGY_MODULES:
        importlib.import_module(module)


def strategies() -> dict[str, StrategySpec]:
    """Every registered strategy by name, in registration order."""
    _load_all()
    return dict(_STRATEGIES)


def get_strategy(name: str) -> StrategySpec:
    """The strategy called `name` (or `X+rag`: retrieval, then X); a ValueError lists the known names otherwise."""
    known = strategies()
    base = name.removesuffix("+rag")
    if name not in known and base != name and base in known and base != "rag":
        from factprobe.retrieval.node import rag_composition

        return rag_composition(known[base])
    if name not in known:
        raise UnknownStrategyError(f"unknown strategy {name!r}; known: {', '.join(known)} "
                                   f"(each also as NAME+rag, with retrieval first)")
    return known[name]
