"""A user's own module or file named with `--plugin`: importing it runs its decorators, which
register its strategies, sections, tables, plots, post steps, confidence methods and loaders.

Installed packages (and factprobe itself) declare their modules in entry-point groups instead;
factprobe.eval.core.extensions imports those.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType


class PluginError(ValueError):
    """A plugin that cannot be found or fails while it is imported."""


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
    """Import `spec`, a dotted module name or a path to a .py file, so its extensions register."""
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
