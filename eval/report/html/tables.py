"""The report's tables as plain data: the terminal tables captured from their functions, plus the
per-category table the terminal leaves out.

Capturing the rich tables the `@report_table` functions print keeps one definition of every table:
a new terminal table shows up in the HTML report with no change here.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any, Callable

from rich.console import Console, RenderableType
from rich.errors import MarkupError
from rich.table import Table
from rich.text import Text

from factprobe.eval.core.console import RedactingConsole, escaped_placeholders
from factprobe.eval.core.format import pct

TableFn = Callable[[dict[str, Any], Console], None]


@dataclass
class HtmlTable:
    """One table as text cells; `notes` are lines printed right after it."""

    title: str
    columns: list[str]
    rows: list[list[str]]
    caption: str = ""
    numeric: list[bool] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    source: str = ""


def plain(value: Any) -> str:
    """Text of a rich renderable or markup string, without styles (a [redacted] in it kept as text;
    a renderable laid out by a redacting console)."""
    if value is None:
        return ""
    if isinstance(value, Text):
        return value.plain
    if isinstance(value, str):
        try:
            return Text.from_markup(escaped_placeholders(value)).plain
        except MarkupError:
            return value
    buffer = io.StringIO()
    RedactingConsole(file=buffer, width=200, color_system=None).print(value)
    return buffer.getvalue().rstrip()


def from_rich(table: Table, source: str = "") -> HtmlTable:
    columns = table.columns
    n_rows = max((len(column._cells) for column in columns), default=0)
    rows = [[plain(column._cells[i]) if i < len(column._cells) else "" for column in columns]
            for i in range(n_rows)]
    return HtmlTable(title=plain(table.title), columns=[plain(column.header) for column in columns],
                     rows=rows, caption=plain(table.caption),
                     numeric=[column.justify == "right" for column in columns], source=source)


class TableCollector(Console):
    """A console that keeps the tables printed to it (and text printed after one as its notes)."""

    def __init__(self) -> None:
        super().__init__(file=io.StringIO(), width=200, color_system=None)
        self.tables: list[HtmlTable] = []
        self.source = ""

    def print(self, *objects: RenderableType, **kwargs: Any) -> None:  # type: ignore[override]
        for item in objects:
            if isinstance(item, Table):
                self.tables.append(from_rich(item, self.source))
            elif self.tables and self.tables[-1].source == self.source:
                self.tables[-1].notes.append(plain(item))


def capture_tables(functions: list[TableFn], summary: dict[str, Any]) -> list[HtmlTable]:
    """Every table the functions print for `summary`, tagged with the function's name."""
    collector = TableCollector()
    for function in functions:
        collector.source = function.__name__
        function(summary, collector)
    return collector.tables


def per_category_table(summary: dict[str, Any]) -> HtmlTable | None:
    """CO, IN, NA, CGA and F per strategy and category (summary['per_category'])."""
    per_category = summary.get("per_category") or {}
    rows = [[strategy, category, str(s.get("n", "")), pct(s.get("accuracy")), pct(s.get("incorrect_rate")),
             pct(s.get("not_attempted_rate")), pct(s.get("cga")), pct(s.get("f_score"))]
            for strategy, categories in per_category.items() for category, s in categories.items()]
    if not rows:
        return None
    return HtmlTable(title="Per category (answerable questions, % of graded)",
                     columns=["strategy", "category", "n", "CO", "IN", "NA", "CGA", "F"], rows=rows,
                     numeric=[False, False, True, True, True, True, True, True], source="per_category")


def report_tables(functions: list[TableFn], summary: dict[str, Any]) -> list[HtmlTable]:
    """The terminal tables in their order, with the per-category table after the first one."""
    tables = capture_tables(functions, summary)
    category = per_category_table(summary)
    if category:
        tables.insert(min(1, len(tables)), category)
    return tables
