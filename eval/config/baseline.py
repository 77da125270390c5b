"""Which strategy a run's gains are measured against."""

from __future__ import annotations

DEFAULT_BASELINE = "vanilla"


class BaselineError(ValueError):
    """--baseline names a strategy the run does not include."""


def resolve_baseline(requested: str | None, strategies: list[str]) -> str | None:
    """The strategy gains are measured against: `--baseline`, else vanilla when it runs, else the
    first strategy given. Fixed in the manifest so the summary never depends on row order."""
    if requested is not None:
        if requested not in strategies:
            raise BaselineError(f"--baseline {requested} is not one of the run's strategies "
                                f"({', '.join(strategies)}); name one of them or add it to --strategies")
        return requested
    if DEFAULT_BASELINE in strategies:
        return DEFAULT_BASELINE
    return strategies[0] if strategies else None
