"""factprobe's public Python API; installed as the top-level `factprobe` package.

    import factprobe
    run = factprobe.run(dataset="sample", strategies=["vanilla", "rag"], limit=20, out="runs/x")
    run.summary["gains"]; run.to_pandas()

The source tree keeps the design's folders (`agents/`, `eval/`, …); setuptools maps this folder to
`factprobe` and those folders to `factprobe.agents`, `factprobe.eval`, … (see pyproject.toml).
Names are imported on first use, so `import factprobe` stays fast.
"""

from __future__ import annotations

from importlib import import_module
from importlib.metadata import PackageNotFoundError, version
from typing import Any

try:
    __version__ = version("factprobe")
except PackageNotFoundError:  # a source tree that was never installed
    __version__ = "0+unknown"

# public name -> module that defines it
_EXPORTS = {
    "run": "factprobe.eval.run.session",
    "arun": "factprobe.eval.run.session",
    "sweep": "factprobe.eval.run.sweep",
    "Run": "factprobe.eval.analysis.run_handle",
    "load_run": "factprobe.eval.analysis.run_handle",
    "graph_strategy": "factprobe.agents.graph_strategy",
    "plot_gains": "factprobe.eval.api.figures",
    "plot_reliability": "factprobe.eval.api.figures",
    "plot_ttc": "factprobe.eval.api.figures",
    "StrategyContext": "factprobe.agents.context",
    "QAState": "factprobe.agents.state",
    "Result": "factprobe.eval.core.schema",
    "Question": "factprobe.eval.core.schema",
}
_RENAMED = {"strategy": ("factprobe.agents.registry", "register_strategy")}

__all__ = ["__version__", "strategy", *_EXPORTS]


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        value = getattr(import_module(_EXPORTS[name]), name)
    elif name in _RENAMED:
        module, attribute = _RENAMED[name]
        value = getattr(import_module(module), attribute)
    else:
        raise AttributeError(f"module 'factprobe' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
