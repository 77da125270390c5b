"""Figures for the HTML report: every plot is saved as SVG beside its PNG and inlined from there."""

from __future__ import annotations

import base64
import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from factprobe.eval.core.secrets import redact_values
from factprobe.eval.store.atomic import atomic_open

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

# Text stays text in the SVG (smaller, selectable); the browser draws it with its own fonts.
SVG_STYLE: dict[RcKeyType, Any] = {"svg.fonttype": "none"}
_SVG_START = re.compile(r"<svg\b")


def save_figure(figure: Any, path: Path, dpi: int) -> Path:
    """Write `figure` to `path` (a .png) and to the same name with .svg; return the PNG path.

    The SVG keeps the layout the PNG's drawing has just computed, so both files place everything
    alike: a figure's layout engine (constrained layout) would otherwise run again for the SVG, a
    third of its cost (0.03 s of CPU per calibration plot), and measure the text at 72 dpi instead
    of the PNG's, moving the axes by a point or two (the browser draws the SVG's text with its own
    fonts anyway). The figure gets its engine back afterwards. The SVG's text has secret values
    redacted (a label drawn into the PNG must be redacted before it is drawn)."""
    import matplotlib  # only drawing needs it; importing it costs startup time

    # each file replaced whole, so a concurrent report on the same folder never inlines a part
    with atomic_open(path, "wb") as handle:
        figure.savefig(handle, format="png", dpi=dpi)
    engine = figure.get_layout_engine()
    if engine is not None:
        figure.set_layout_engine("none")
    svg = io.StringIO()
    try:
        with matplotlib.rc_context(SVG_STYLE):
            figure.savefig(svg, format="svg")
    finally:
        if engine is not None:
            figure.set_layout_engine(engine)
    with atomic_open(path.with_suffix(".svg")) as text:   # its text is text: secrets redacted
        text.write(redact_values(svg.getvalue()))
    return path


@dataclass(frozen=True)
class InlineFigure:
    """A plot ready to paste into HTML: SVG markup, or a PNG data URI when no SVG was written."""

    name: str
    svg: str | None = None
    png_uri: str | None = None


def inline_figure(png_path: Path) -> InlineFigure:
    """The SVG written beside `png_path` without its XML prologue, else the PNG as a data URI."""
    svg_path = png_path.with_suffix(".svg")
    if svg_path.is_file():
        text = svg_path.read_text(encoding="utf-8")
        start = _SVG_START.search(text)
        if start:
            return InlineFigure(png_path.stem, svg=text[start.start():])
    data = base64.b64encode(png_path.read_bytes()).decode("ascii")
    return InlineFigure(png_path.stem, png_uri=f"data:image/png;base64,{data}")


def inline_figures(paths: list[Path]) -> list[InlineFigure]:
    return [inline_figure(path) for path in paths if path.is_file()]
