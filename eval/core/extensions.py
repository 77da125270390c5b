"""One mechanism for every kind of extension: summary sections and per-strategy metrics, report
tables and plots, post steps and confidence methods (strategies follow the same rule in
factprobe.agents.registry).

A `Registry` holds the named items of one kind. factprobe's own items come from an ordered list
of its modules (their order is the order of sections and tables); an installed package adds
modules through the kind's entry-point group (`factprobe.summary`, `factprobe.report`,
`factprobe.post_steps`, `factprobe.confidence`), and a user's file or module through
`--plugin`. Importing a module runs its decorators, which call `Registry.add`.

The one rule for duplicates: a name belongs to one origin (the module and function that
registered it). The same origin registering again (a module imported twice, a notebook cell run
again) replaces the item; another origin is a DuplicateExtensionError naming both.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from importlib.metadata import EntryPoint, entry_points
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class DuplicateExtensionError(ValueError):
    """Two different origins registered one name in one registry."""


class ExtensionLoadError(ValueError):
    """An installed package's extension module that fails to import."""


def origin_of(function: Any) -> str:
    """`module.qualname` of a function: where it was defined."""
    return f"{getattr(function, '__module__', '?')}.{getattr(function, '__qualname__', repr(function))}"


def import_entry_point(point: EntryPoint, kind: str) -> None:
    """Import the module an entry point declares; a failure names the point and its package."""
    try:
        point.load()
    except Exception as exc:  # a third-party package's bug must name the package
        owner = point.dist.name if point.dist else "an installed package"
        raise ExtensionLoadError(f"the {kind} entry point {point.name!r} = {point.value!r} of {owner} "
                                 f"failed to import: {type(exc).__name__}: {exc}") from exc


class Registry(Generic[T]):
    """Named items of one kind, in registration order."""

    def __init__(self, kind: str, group: str, builtin: Sequence[str] = ()) -> None:
        self.kind = kind
        self.group = group
        self.builtin = list(builtin)
        self._items: dict[str, tuple[T, str]] = {}
        self._loaded = False

    def add(self, name: str, item: T, origin: str) -> None:
        known = self._items.get(name)
        if known is not None and known[1] != origin:
            raise DuplicateExtensionError(f"{self.kind} {name!r} is registered twice: by {known[1]} and "
                                          f"by {origin}; rename one of them")
        self._items[name] = (item, origin)

    def load(self) -> None:
        """Import factprobe's own modules of this kind, then every module of the entry-point group."""
        if self._loaded:
            return
        for module in self.builtin:
            importlib.import_module(module)
        for point in entry_points(group=self.group):
            import_entry_point(point, self.kind)
        self._loaded = True

    def items(self) -> dict[str, T]:
        """Every item by name (loading the modules first)."""
        self.load()
        return {name: item for name, (item, _) in self._items.items()}

    def values(self) -> list[T]:
        return list(self.items().values())
