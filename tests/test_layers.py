"""The layers you can see: a dependency-free core, library packages below the application.

Checked on the source with `ast` rather than import-linter: import-linter's graph builder (grimp)
walks a root package's folder on disk and accepts only top-level packages as roots, while
factprobe's subpackages live in sibling folders that setuptools maps under `factprobe.` (see
pyproject.toml), so grimp sees `factprobe/__init__` and nothing else. Every import counts, also
one written inside a function.

- core: the data model, normalisation, errors, file formats, statistics and the cache store. They
  import only other core modules, so every package may import them.
- application: the command line, the Python API, the run pipeline and sweeps. Nothing in the
  library packages (agents, retrieval, calibration, decomposition) imports them.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("agents", "retrieval", "calibration", "decomposition", "eval")

CORE = {
    "factprobe.eval.schema", "factprobe.eval.grading.normalize", "factprobe.eval.datasets.errors",
    "factprobe.eval.format", "factprobe.eval.stats", "factprobe.eval.extensions", "factprobe.eval.metrics", "factprobe.eval.run_dir",
    "factprobe.eval.slim_rows",
    "factprobe.agents.models.base", "factprobe.agents.models.cache", "factprobe.agents.models.replies",
}
APPLICATION = ("factprobe.eval.cli", "factprobe.eval.pipeline", "factprobe.eval.session",
               "factprobe.eval.sweep", "factprobe.eval.run_options", "factprobe.eval.audit_command",
               "factprobe.eval.run_handle")
LIBRARIES = ("factprobe.agents", "factprobe.retrieval", "factprobe.calibration", "factprobe.decomposition")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    if parts[:2] == ["eval", "api"]:
        parts = parts[2:]
    return ".".join(["factprobe", *parts])


def import_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for top in PACKAGES:
        for path in (ROOT / top).rglob("*.py"):
            found: set[str] = set()
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("factprobe"):
                    found.add(node.module)
                elif isinstance(node, ast.Import):
                    found |= {alias.name for alias in node.names if alias.name.startswith("factprobe")}
            graph[module_name(path)] = found
    return graph


def within(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes)


def test_the_graph_sees_every_package() -> None:
    graph = import_graph()
    assert {"factprobe.eval.cli", "factprobe.agents.registry", "factprobe.eval.schema"} <= set(graph)
    assert "factprobe.eval.schema" in graph["factprobe.eval.runner"]


def test_core_modules_import_only_core_modules() -> None:
    graph = import_graph()
    assert CORE <= set(graph), sorted(CORE - set(graph))
    upward = {module: sorted(graph[module] - CORE) for module in CORE if graph[module] - CORE}
    assert not upward, f"core modules importing above the core: {upward}"


def test_library_packages_never_import_the_application_layer() -> None:
    graph = import_graph()
    upward = {module: sorted(t for t in targets if within(t, APPLICATION))
              for module, targets in graph.items() if within(module, LIBRARIES)}
    upward = {module: targets for module, targets in upward.items() if targets}
    assert not upward, f"library modules importing the application layer: {upward}"


def test_the_application_layer_is_imported_only_from_above() -> None:
    """Below the application layer, nothing imports the CLI, the API or the pipeline."""
    graph = import_graph()
    order = ["factprobe.eval.cli", "factprobe.eval.sweep", "factprobe.eval.session", "factprobe.eval.pipeline"]
    for rank, module in enumerate(order):
        importers = {source for source, targets in graph.items() if module in targets}
        allowed = set(order[:rank]) | {"factprobe"}
        assert importers <= allowed, f"{module} is imported by {sorted(importers - allowed)}"
