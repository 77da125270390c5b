"""The strategy registry: a strategy is one module that registers a graph builder by name.

It is a factprobe.eval.core.extensions.Registry like every other kind: modules reach it through the
`factprobe.strategies` entry-point group (factprobe's own strategies are declared there too) or
`--plugin` (factprobe.agents.plugins), and strategies are listed by (order, name)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from factprobe.agents.context import StrategyContext
from factprobe.eval.core.extensions import DEFAULT_ORDER, DuplicateExtensionError, Registry
from factprobe.eval.core.suggest import did_you_mean

GraphBuilder = Callable[[StrategyContext], Any]
RAG_SUFFIX = "+rag"   # `X+rag`: retrieval, then strategy X (factprobe.agents.rag)
# the run options retrieval in front of a strategy reads (factprobe.agents.rag, `X+rag`)
RETRIEVAL_READS = ("retriever", "top_k", "entity_source", "entity_model")


@dataclass(frozen=True)
class StrategySpec:
    """A registered strategy: its name, a one-line description, its graph builder, and what the
    evaluation needs to know about it (does it sample, offer a refusal option, retrieve; are its
    samples candidates one is selected from, as best_of_n's, or refinement rounds, as
    self_refine's). Evaluation decides by these flags, never by a strategy's name."""

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
    selects: bool = False    # draws candidate answers and selects one (test-time-compute curves over N)
    refines: bool = False    # answers in rounds, each kept as a sample (test-time-compute curves over rounds)
    in_default_run: bool = True  # run when no strategy list is given (False: only when named)
    # answers read from a file, not asked of a model: its costs are not measured (null in the
    # summary, not zero), and no model is loaded when every strategy of a run is recorded
    recorded: bool = False
    # its graph's output depends only on the question, the repeat, the run's options (not those that
    # only grade or pick questions: result_cache.STRATEGY_BLIND) and the replies to the calls it makes
    # through the context's model, so a re-run whose every call is in the response cache may reuse
    # the recorded output instead of running the graph (factprobe.eval.run.result_cache); a strategy
    # that calls anything else (another client, a clock, chance) leaves it off
    reusable: bool = False

    @property
    def origin(self) -> str:
        """Where the builder was defined (or `source`): two registrations from one origin are the
        same code run again (a notebook cell, a re-imported module)."""
        if self.source:
            return self.source
        return f"{getattr(self.build, '__module__', '?')}.{getattr(self.build, '__qualname__', '?')}"


class UnknownStrategyError(ValueError):
    """A strategy name nobody registered."""


class DuplicateStrategyError(DuplicateExtensionError):
    """Two different builders registered under one name (the rule of factprobe.eval.core.extensions)."""


STRATEGIES: Registry[StrategySpec] = Registry("strategy", "factprobe.strategies", DuplicateStrategyError)


def register(spec: StrategySpec, replace: bool = False, order: int = DEFAULT_ORDER) -> None:
    """Add `spec` to the registry. The one rule for duplicates: a name belongs to one origin; the
    same code registered again (a module imported twice) replaces it, any other origin is an error
    (unless the caller explicitly asks to `replace` a strategy of its own)."""
    STRATEGIES.add(spec.name, spec, spec.origin, order, replace)


def check_name(name: str) -> None:
    """A strategy name composes with `+rag`, `@setting` and comma lists: none of those marks."""
    if not name or any(mark in name for mark in "+,@") or name != name.strip():
        raise ValueError(f"strategy name {name!r}: use a non-empty name without '+', ',', '@' or spaces")


def register_strategy(name: str, description: str, *, samples: bool = False,
                      offers_refusal: bool = False, retrieves: bool = False,
                      reads: tuple[str, ...] | None = None, selects: bool = False,
                      refines: bool = False, order: int = DEFAULT_ORDER,
                      in_default_run: bool = True, recorded: bool = False,
                      reusable: bool = False) -> Callable[[GraphBuilder], GraphBuilder]:
    """Decorator (`@factprobe.strategy`): register `build(context) -> compiled LangGraph` as `name`;
    `order` places it in `factprobe strategies` and in a run given no strategy list (which leaves
    it out when `in_default_run` is off: a strategy for some kinds of question only); `reusable`: see
    StrategySpec.

    The graph reads and writes `factprobe.QAState`; see docs/extending.md, "Your own strategies"."""
    check_name(name)

    def decorate(build: GraphBuilder) -> GraphBuilder:
        register(StrategySpec(name, description, build, samples, offers_refusal, retrieves, reads,
                              selects=selects, refines=refines, in_default_run=in_default_run,
                              recorded=recorded, reusable=reusable), order=order)
        return build

    return decorate


def strategies() -> dict[str, StrategySpec]:
    """Every registered strategy by name, by (order, name)."""
    return STRATEGIES.items()


def default_strategies() -> list[str]:
    """The strategies a run given no strategy list runs, by (order, name)."""
    return [name for name, spec in strategies().items() if spec.in_default_run]


def describes(name: str, flag: str) -> bool:
    """A spec flag (`samples`, `offers_refusal`, `retrieves`, `selects`, `refines`, `recorded`) of strategy
    `name`; False for a name not registered in this process (e.g. `factprobe report` on a run
    whose plugin is not loaded)."""
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
    base = name.removesuffix(RAG_SUFFIX)
    if base != name and name not in STRATEGIES:
        composed = STRATEGIES.get(base)
        if composed is not None and not composed.retrieves:
            return rag_composition(composed)
    spec = STRATEGIES.get(name)
    if spec is None:
        raise UnknownStrategyError(f"unknown strategy {name!r}{did_you_mean(name, strategies())}; "
                                   f"known: {', '.join(strategies())} "
                                   f"(each also as NAME+rag, with retrieval first)")
    return spec


def rag_composition(base: Any) -> Any:
    """The StrategySpec of `base.name + "+rag"`: retrieval, then `base`'s graph."""
    from factprobe.agents.rag import with_retrieval  # langgraph: only when composing

    def build(context: StrategyContext):
        return with_retrieval(base.build(context), context)

    reads = None if base.reads is None else (*base.reads, *RETRIEVAL_READS)
    return StrategySpec(f"{base.name}{RAG_SUFFIX}", f"{base.description}, after retrieval", build,
                        samples=base.samples, offers_refusal=base.offers_refusal, retrieves=True,
                        reads=reads, selects=base.selects, refines=base.refines, recorded=base.recorded,
                        reusable=base.reusable)
