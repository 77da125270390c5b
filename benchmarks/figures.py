"""A benchmark figure with its target, and the rich table that prints a list of them."""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Console
from rich.table import Table


@dataclass
class Figure:
    """One measured figure; `passed` is None for a figure reported without a target."""

    name: str
    value: str
    target: str = ""
    passed: bool | None = None


def print_figures(console: Console, title: str, figures: list[Figure]) -> None:
    table = Table(title=title)
    for column in ("figure", "measured", "target", "result"):
        table.add_column(column)
    verdicts = {True: "[green]PASS[/green]", False: "[red]MISS[/red]", None: ""}
    for figure in figures:
        table.add_row(figure.name, figure.value, figure.target, verdicts[figure.passed])
    console.print(table)
