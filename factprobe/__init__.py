"""factprobe's public Python API: everything a user or a plugin needs, and nothing else.

    import factprobe
    run = factprobe.run(dataset="sample", strategies=["vanilla", "rag"], limit=20, out="runs/x")
    run.summary["gains"]; run.to_pandas()

Every name below is public and stays; any deeper module path (`factprobe.eval.…`,
`factprobe.agents.…`) is private and may move. The source tree keeps the design's folders
(`agents/`, `eval/`, …), linked here as `factprobe.agents`, `factprobe.eval`, … (see
pyproject.toml). Names are imported on first use, so `import factprobe` stays fast.
"""

from __future__ import annotations

from importlib import import_module
from importlib.metadata import PackageNotFoundError, version
from typing import Any

try:
    __version__ = version("factprobe")
except PackageNotFoundError:  # a source tree that was never installed
    __version__ = "0+unknown"

_RUNS = "factprobe.eval.run.session"
_HANDLE = "factprobe.eval.analysis.run_handle"
_FIGURES = "factprobe.eval.api.figures"
_SCHEMA = "factprobe.eval.core.schema"
_SUMMARY = "factprobe.eval.analysis.summary"
_REPORT = "factprobe.eval.report.build"
_STEPS = "factprobe.eval.run.steps"
_CONFIDENCE = "factprobe.eval.run.confidence"
_DATASETS = "factprobe.eval.datasets.registry"
_STRATEGIES = "factprobe.agents.registry"
_VANILLA = "factprobe.agents.strategies.vanilla"

# public name -> (module that defines it, its name there)
_EXPORTS: dict[str, tuple[str, str]] = {
    # running and reading runs
    "run": (_RUNS, "run"),
    "arun": (_RUNS, "arun"),
    "RunFailed": (_RUNS, "RunFailed"),
    "sweep": ("factprobe.eval.run.sweep", "sweep"),
    "Run": (_HANDLE, "Run"),
    "load_run": (_HANDLE, "load_run"),
    "plot_gains": (_FIGURES, "plot_gains"),
    "plot_reliability": (_FIGURES, "plot_reliability"),
    "plot_ttc": (_FIGURES, "plot_ttc"),
    # strategies, and what a strategy commonly builds on
    "strategy": (_STRATEGIES, "register_strategy"),
    "graph_strategy": ("factprobe.agents.graph_strategy", "graph_strategy"),
    "GraphContext": ("factprobe.agents.graph_strategy", "GraphContext"),
    "StrategySpec": (_STRATEGIES, "StrategySpec"),
    "StrategyContext": ("factprobe.agents.context", "StrategyContext"),
    "RunResources": ("factprobe.agents.resources", "RunResources"),
    "QAState": ("factprobe.agents.state", "QAState"),
    "answer_graph": (_VANILLA, "answer_graph"),
    "vanilla_messages": (_VANILLA, "vanilla_messages"),
    # the other extension points (README "Extension points")
    "summary_section": (_SUMMARY, "summary_section"),
    "strategy_metric": (_SUMMARY, "strategy_metric"),
    "SummaryInput": (_SUMMARY, "SummaryInput"),
    "report_table": (_REPORT, "report_table"),
    "report_plot": (_REPORT, "report_plot"),
    "post_step": (_STEPS, "register_post_step"),
    "PostStepInput": (_STEPS, "PostStepInput"),
    "confidence_method": (_CONFIDENCE, "register_confidence"),
    "MethodInput": (_CONFIDENCE, "MethodInput"),
    "loader": (_DATASETS, "loader"),
    "Dataset": (_DATASETS, "Dataset"),
    "RunConfig": ("factprobe.eval.config.run_config", "RunConfig"),
    # the data model
    "Question": (_SCHEMA, "Question"),
    "Passage": (_SCHEMA, "Passage"),
    "Hop": (_SCHEMA, "Hop"),
    "Result": (_SCHEMA, "Result"),
    "HopResult": (_SCHEMA, "HopResult"),
    "Grade": (_SCHEMA, "Grade"),
    # errors a plugin raises or catches
    "DatasetError": ("factprobe.eval.core.errors", "DatasetError"),
    "DuplicateExtensionError": ("factprobe.eval.core.extensions", "DuplicateExtensionError"),
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'factprobe' has no attribute {name!r}")
    module, attribute = _EXPORTS[name]
    value = getattr(import_module(module), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
