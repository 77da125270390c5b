"""Jinja2 rendering of the report pages, with the stylesheet and script inlined (no fetch at all)."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from markupsafe import Markup

from factprobe.eval.store.atomic import atomic_open

if TYPE_CHECKING:
    from jinja2 import Environment

ASSETS = ("report.css", "report.js")


@cache
def environment() -> Environment:
    from jinja2 import Environment, PackageLoader, StrictUndefined  # lazy: ~50 ms, needed only when a report is written

    return Environment(loader=PackageLoader("factprobe.eval.report.html", "templates"), autoescape=True,
                       undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def asset(name: str) -> Markup:
    """A stylesheet or script file, verbatim (never parsed as a template)."""
    env = environment()
    source, _, _ = env.loader.get_source(env, name)  # type: ignore[union-attr]
    return Markup(source)


def render_to(path: Path, template: str, streamed: dict[str, Iterable[str]] | None = None,
              **context: Any) -> Path:
    """Render `template` with the inlined assets into `path`, written in chunks.

    Each `streamed` value (trusted, already escaped text) is written into the file piece by piece
    where the template places that name, so a large block never exists as one string.
    """
    page = environment().get_template(template)
    markers: dict[str, Iterable[str]] = {}
    for name, pieces in (streamed or {}).items():
        marker = f"\x00{uuid.uuid4().hex}:{name}\x00"   # cannot occur in rendered text
        context[name] = Markup(marker)
        markers[marker] = pieces
    with atomic_open(path) as handle:   # two reports on one folder: each page is one whole version
        for chunk in page.generate(css=asset("report.css"), js=asset("report.js"), **context):
            _write_chunk(handle, chunk, markers)
    return path


def _write_chunk(handle: IO[str], chunk: str, markers: dict[str, Iterable[str]]) -> None:
    """Write `chunk`, writing each stream in place of its marker."""
    for marker, pieces in markers.items():
        if marker in chunk:
            before, after = chunk.split(marker, 1)
            _write_chunk(handle, before, markers)
            handle.writelines(pieces)
            _write_chunk(handle, after, markers)
            return
    handle.write(chunk)
