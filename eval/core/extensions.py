"""One mechanism for every kind of extension: strategies, summary sections and per-strategy
metrics, report tables and plots, post steps, confidence methods and dataset loaders.

A `Registry` holds the named items of one kind. Every module that registers items is declared in
the kind's entry-point group, factprobe's own modules in factprobe's pyproject.toml exactly as an
installed package declares its own (`factprobe.strategies`, `factprobe.summary`,
`factprobe.report`, `factprobe.post_steps`, `factprobe.confidence`, `factprobe.loaders`); a user's
file or module comes in through `--plugin`. Importing a module runs its decorators, which call
`Registry.add`.

Order: every item is registered with an `order` number (DEFAULT_ORDER unless given); the registry
lists its items by (order, name), so the order of sections, tables and post steps never depends on
how entry points are listed or on which module happened to be imported first.

The one rule for duplicates: a name belongs to one origin (the module and function that
registered it). The same origin registering again (a module imported twice, a notebook cell run
again) replaces the item; another origin is a DuplicateExtensionError naming both.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from importlib.metadata import EntryPoint, EntryPoints, entry_points
from typing import Any, Generic, TypeVar

T = TypeVar("T")

# the order of an item registered without one: after every built-in item, ties broken by name
DEFAULT_ORDER = 1000


class DuplicateExtensionError(ValueError):
    """Two different origins registered one name in one registry."""


class ExtensionLoadError(ValueError):
    """An installed package's extension module that fails to import."""


# every entry point by sys.path: `entry_points()` (a SelectableGroups on Python 3.11, EntryPoints
# from 3.12; `select(group=…)` gives EntryPoints on both)
_scanned: dict[tuple[str, ...], Any] = {}


def declared_points(group: str, name: str | None = None) -> EntryPoints:
    """The entry points of `group` (called `name`, if given). Every installed distribution is read
    once per sys.path: each `importlib.metadata.entry_points` call reads them all again (10 ms), and
    a run asks a dozen times before its first question."""
    path = tuple(sys.path)
    if path not in _scanned:
        _scanned.clear()
        _scanned[path] = entry_points()
    found: EntryPoints = _scanned[path].select(group=group)
    return found if name is None else found.select(name=name)


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


@dataclass(frozen=True)
class Registered(Generic[T]):
    item: T
    origin: str
    order: int


class Registry(Generic[T]):
    """Named items of one kind, listed by (order, name); modules come from the entry-point `group`."""

    def __init__(self, kind: str, group: str,
                 duplicate_error: type[DuplicateExtensionError] = DuplicateExtensionError) -> None:
        self.kind = kind
        self.group = group
        self.duplicate_error = duplicate_error
        self._items: dict[str, Registered[T]] = {}
        self._loaded = False

    def add(self, name: str, item: T, origin: str, order: int = DEFAULT_ORDER, replace: bool = False) -> None:
        """Register `item` as `name`; another origin under a taken name is an error unless `replace`."""
        known = self._items.get(name)
        if known is not None and known.origin != origin and not replace:
            raise self.duplicate_error(f"{self.kind} {name!r} is registered twice: by {known.origin} and "
                                       f"by {origin}; rename one of them")
        self._items[name] = Registered(item, origin, order)

    def load(self) -> None:
        """Import every module of the entry-point group (once)."""
        if self._loaded:
            return
        for point in declared_points(self.group):
            import_entry_point(point, self.kind)
        self._loaded = True

    def load_named(self, name: str) -> bool:
        """Import only the modules the group's entry points called `name` declare (a run needs only
        its own strategies or loader, and some pull in heavy libraries); False when none has it."""
        points = declared_points(self.group, name)
        for point in points:
            import_entry_point(point, self.kind)
        return bool(points)

    def __contains__(self, name: object) -> bool:
        """Registered so far (nothing is imported)."""
        return name in self._items

    def get(self, name: str) -> T | None:
        """The item called `name`, importing its own entry point first, else the whole group; None
        when nobody registers it."""
        if name not in self._items and not (self.load_named(name) and name in self._items):
            self.load()
        found = self._items.get(name)
        return None if found is None else found.item

    def origin(self, name: str) -> str | None:
        found = self._items.get(name)
        return None if found is None else found.origin

    def items(self) -> dict[str, T]:
        """Every item by name in (order, name) order (importing the group's modules first)."""
        self.load()
        ranked = sorted(self._items.items(), key=lambda pair: (pair[1].order, pair[0]))
        return {name: registered.item for name, registered in ranked}

    def names(self) -> list[str]:
        return list(self.items())

    def values(self) -> list[T]:
        return list(self.items().values())
