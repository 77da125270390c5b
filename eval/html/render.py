"""Jinja2 rendering of the report pages, with the stylesheet and script inlined (no fetch at all)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

ASSETS = ("report.css", "report.js")


@cache
def environment() -> Environment:
    return Environment(loader=PackageLoader("factprobe.eval.html", "templates"), autoescape=True,
                       undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def asset(name: str) -> Markup:
    """A stylesheet or script file, verbatim (never parsed as a template)."""
    env = environment()
    source, _, _ = env.loader.get_source(env, name)  # type: ignore[union-attr]
    return Markup(source)


def render_to(path: Path, template: str, **context: Any) -> Path:
    """Render `template` with the inlined assets into `path`, written in chunks."""
    page = environment().get_template(template)
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as handle:
        for chunk in page.generate(css=asset("report.css"), js=asset("report.js"), **context):
            handle.write(chunk)
    tmp.replace(path)
    return path
