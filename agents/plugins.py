"""Strategies from outside factprobe's tree: a module or file named with `--plugin`, and packages
that declare the entry-point group `factprobe.strategies`.

factprobe's own strategies are declared in that same group (pyproject.toml), so every strategy,
built-in or not, reaches the one registry the same way: importing its module runs its
`@factprobe.strategy` decorator (or its `factprobe.graph_strategy(...)` call).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from types import ModuleType

from factprobe.eval.core.extensions import import_entry_point

ENTRY_POINT_GROUP = "factprobe.strategies"


class PluginError(ValueError):
    """A plugin that cannot be found or fails while it is imported."""


def _load_point(point: EntryPoint) -> None:
    import_entry_point(point, "strategy")


def load_entry_points() -> None:
    """Import every module declared in the `factprobe.strategies` entry-point group."""
    for point in entry_points(group=ENTRY_POINT_GROUP):
        _load_point(point)


def load_entry_point(name: str) -> bool:
    """Import only the modules the entry points called `name` declare (a run needs only its own
    strategies, and some pull in heavy libraries); False when no entry point has that name."""
    points = entry_points(group=ENTRY_POINT_GROUP, name=name)
    for point in points:
        _load_point(point)
    return bool(points)


def _import_file(path: Path) -> ModuleType:
    digest = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:10]
    name = f"factprobe_plugin_{path.stem}_{digest}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise PluginError(f"--plugin {path}: not an importable Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception:
        del sys.modules[name]
        raise
    return module


def load_plugin(spec: str) -> ModuleType:
    """Import `spec`, a dotted module name or a path to a .py file, so its strategies register."""
    path = Path(spec)
    looks_like_file = spec.endswith(".py") or path.is_file() or "/" in spec
    try:
        if looks_like_file:
            if not path.is_file():
                raise PluginError(f"--plugin {spec}: no such file")
            return _import_file(path)
        return importlib.import_module(spec)
    except PluginError:
        raise
    except ModuleNotFoundError as exc:
        if exc.name and spec.startswith(exc.name):
            raise PluginError(f"--plugin {spec}: no module named {exc.name!r} on the Python path "
                              f"(give a file path ending in .py, or install the module)") from None
        raise PluginError(f"--plugin {spec}: importing it failed: {exc}") from exc
    except Exception as exc:
        raise PluginError(f"--plugin {spec}: importing it failed: {type(exc).__name__}: {exc}") from exc
