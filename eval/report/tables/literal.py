"""A rich Table whose data prints as written: the one place where text from a run (a category, a
strategy or run name, an error) becomes table markup, escaped so that "[/bold]x[red]" neither
crashes the table nor vanishes into styles. The terminal tables, and the HTML report that reads
them back (factprobe.eval.report.html.tables), see the text unchanged."""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.markup import escape
from rich.table import Table


def literal(value: Any) -> Any:
    """A string as markup that prints as written; anything else (a Text, a renderable, None) as it is."""
    return escape(value) if isinstance(value, str) else value


class LiteralTable(Table):
    """A Table whose title, column headers and cells are text, not markup; its caption (the
    caller's own words) stays markup."""

    def __init__(self, *headers: Any, title: Any = None, **kwargs: Any) -> None:
        super().__init__(*headers, title=literal(title), **kwargs)   # headers go through add_column

    def add_column(self, header: RenderableType = "", *args: Any, **kwargs: Any) -> None:
        super().add_column(literal(header), *args, **kwargs)

    def add_row(self, *renderables: RenderableType | None, **kwargs: Any) -> None:
        super().add_row(*map(literal, renderables), **kwargs)
