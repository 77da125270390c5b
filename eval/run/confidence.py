"""The registry of confidence methods: what a method is, how it registers, and the checks a run
makes on `--confidence` before any model call.

The methods themselves (verbal, token_prob, consistency, p_true) live in
factprobe.calibration.methods; as in lm-polygraph, a method does not call the model itself: it
declares `needs` (names of statistics in `calibration.statistics`, e.g. the answer's token logprobs
or K extra samples), the calibration post step computes every needed statistic once, and each
method turns them into values on the 0–100 scale (None where it has none). A method may give
several values (`token_prob` gives the mean and the minimum token probability), named by `outputs`.
"""


from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from factprobe.agents.state import QAState
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.core.extensions import DEFAULT_ORDER, Registry, origin_of
from factprobe.eval.core.schema import Question
from factprobe.eval.core.suggest import did_you_mean


@dataclass(frozen=True)
class MethodInput:
    """What a method scores: the question, the strategy's final state and the computed statistics."""

    question: Question
    state: QAState
    stats: dict[str, Any]


Score = Callable[[MethodInput], dict[str, float | None]]


@dataclass(frozen=True)
class ConfidenceMethod:
    name: str
    needs: tuple[str, ...]
    outputs: tuple[str, ...]
    score: Score
    reads: tuple[str, ...] = ()  # run options the method's statistics read (a sweep must not fold them)


class UnknownConfidenceError(ValueError):
    """A --confidence value nobody registered, or options a method cannot run with."""


# a method's module is declared in the `factprobe.confidence` entry-point group (factprobe's own
# too) or loaded with --plugin; importing it registers the method
METHODS: Registry[ConfidenceMethod] = Registry("confidence method", "factprobe.confidence")


def register_confidence(name: str, needs: tuple[str, ...] = (), outputs: tuple[str, ...] | None = None,
                        reads: tuple[str, ...] = (), order: int = DEFAULT_ORDER) -> Callable[[Score], Score]:
    """Decorator (`@factprobe.confidence_method`): register `score(MethodInput) -> {output: value}` as
    the method `name`; methods and their outputs are listed by (order, name)."""

    def decorate(score: Score) -> Score:
        METHODS.add(name, ConfidenceMethod(name, tuple(needs), tuple(outputs or (name,)), score, tuple(reads)),
                    origin_of(score), order)
        return score

    return decorate


def confidence_methods() -> dict[str, ConfidenceMethod]:
    """Every registered method by name, by (order, name)."""
    return METHODS.items()


def get_method(name: str) -> ConfidenceMethod:
    """The method called `name` (importing only its own module when an entry point is named so)."""
    method = METHODS.get(name)
    if method is None:
        known = confidence_methods()
        owner = next((m.name for m in known.values() if name in m.outputs), None)
        if owner:
            raise UnknownConfidenceError(f"--confidence {name}: {name} is recorded by the {owner} method, not "
                                         f"asked for itself; use --confidence {owner}")
        raise UnknownConfidenceError(f"unknown confidence method {name!r}{did_you_mean(name, known)}; "
                                     f"known: {', '.join(known)}")
    return method


def options_read(config: RunConfig) -> set[str]:
    """Run options read by the run's confidence methods (e.g. consistency's sample temperature)."""
    return {option for name in config.confidence for option in get_method(name).reads}


def output_order() -> list[str]:
    """Every output name of every method, in the methods' order (for tables and plots)."""
    return [output for method in confidence_methods().values() for output in method.outputs]


def check_confidence_config(config: RunConfig) -> None:
    """Fail early, before any model call, on an unknown method or an unusable sample count."""
    if not config.confidence:
        raise UnknownConfidenceError("--confidence needs at least one method, e.g. verbal")
    for name in config.confidence:
        get_method(name)
    if "consistency" in config.confidence and config.consistency_samples < 1:
        raise UnknownConfidenceError(f"--consistency-samples must be at least 1, got "
                                     f"{config.consistency_samples}")
