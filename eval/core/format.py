"""Number formatting for terminal tables: fractions as percentages, missing values as a dash."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

WIDE = 160   # columns of tables written anywhere but a terminal (a file, a pipe, a CI log, a notebook's stdout)


def pct(value: float | None, digits: int = 1) -> str:
    """0.4932 -> '49.3'; None -> '–'."""
    return "–" if value is None else f"{100 * value:.{digits}f}"


def num(value: float | None, digits: int = 2) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def ratio_x(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}×"


def stdout_gone() -> None:
    """Point stdout at /dev/null after its reader closed the pipe (`factprobe … | head`), so no
    later write or the interpreter's final flush raises BrokenPipeError."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def output_console(quiet: bool = False) -> Console:
    """The console tables print to: the terminal's width on a terminal, else WIDE columns (unless
    COLUMNS says otherwise), so a table is not squeezed to 80 columns and cut to `44…`. When the
    reader of stdout goes away (`factprobe run | head`), it falls silent and the work goes on: the
    run still writes its report and exits with its own status (rich would exit with status 1).
    Secrets are redacted before the layout (factprobe.eval.core.console)."""
    from factprobe.eval.core.console import RedactingConsole

    class PipeSafeConsole(RedactingConsole):
        def on_broken_pipe(self) -> None:
            self.quiet = True
            stdout_gone()

    wide = sys.stdout.isatty() or "COLUMNS" in os.environ
    return PipeSafeConsole(quiet=quiet, width=None if wide else WIDE)
