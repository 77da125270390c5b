"""Package `__init__`s the command's start-up does not need, run on first use instead of on import.

LangGraph's own import pulls in two whole packages to use one submodule of each:
`langsmith.types` (about 160 generated pydantic models, 0.11 s of CPU) for the `Literal` in
`langsmith.types.run_select_field`, and `langgraph_sdk` (the LangGraph server's client: httpx,
websockets; 0.05 s) for `langgraph_sdk.auth.types.BaseUser`. With `defer_inits()` installed, importing
such a package creates it with its `__path__` (so its submodules import as usual) and runs its
`__init__` the first time an attribute it would define is asked for (`from langsmith.types import
Run`, `langgraph_sdk.get_client`): the same module, later. Python's `importlib.util.LazyLoader`
cannot do this: it loads the module on any attribute access, `__path__` included, which is the
first thing a submodule's import reads.

Only the `factprobe` command's own process installs it (factprobe.eval.cli.main).
"""

from __future__ import annotations

import sys
import threading
from importlib.abc import Loader, MetaPathFinder
from importlib.machinery import ModuleSpec, PathFinder
from types import ModuleType
from typing import Any, Sequence

DEFERRED = ("langsmith.types", "langgraph_sdk")


class DeferredInitLoader(Loader):
    """Wraps a package's loader: the module is created and registered at import, its code runs at
    the first attribute the module lacks (through a module `__getattr__`, PEP 562)."""

    def __init__(self, loader: Loader) -> None:
        self.loader = loader

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        return self.loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        lock = threading.Lock()

        def __getattr__(name: str) -> Any:
            with lock:
                if module.__dict__.get("__getattr__") is __getattr__:
                    del module.__dict__["__getattr__"]   # the real `__init__` may define its own
                    self.loader.exec_module(module)
            return getattr(module, name)

        module.__dict__["__getattr__"] = __getattr__

    def __getattr__(self, name: str) -> Any:   # get_filename, get_resource_reader, …: the real loader's
        return getattr(self.loader, name)


class DeferredInitFinder(MetaPathFinder):
    """Finds the packages named in `names` as the path finder does, with their `__init__` deferred."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = frozenset(names)

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
                  ) -> ModuleSpec | None:
        if fullname not in self.names:
            return None
        spec = PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None or spec.submodule_search_locations is None:
            return None   # not an ordinary package here: imported the usual way
        spec.loader = DeferredInitLoader(spec.loader)
        return spec


def defer_inits(names: Sequence[str] = DEFERRED) -> None:
    """Defer the `__init__` of the packages `names` that are not imported yet (once per process)."""
    if not any(isinstance(finder, DeferredInitFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, DeferredInitFinder([name for name in names if name not in sys.modules]))
