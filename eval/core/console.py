"""A rich console that redacts secret values before its layout: a table cell, a wrapped line or a
cell cut to `…` never holds part of one (a stream redacting the finished output would see only
the pieces). Every string and Text it renders is redacted, styles kept (factprobe.eval.core.secrets)."""

from __future__ import annotations

import re
from typing import Any, Iterable

from rich.console import Console, ConsoleOptions, RenderableType
from rich.markup import escape
from rich.segment import Segment
from rich.text import Text

from factprobe.eval.core.secrets import REDACTED, redact_values, secret_spans

_PLACEHOLDER = re.compile(r"(?<!\\)" + re.escape(REDACTED))   # not escaped already
_ESCAPED = escape(REDACTED)


def escaped_placeholders(markup: str) -> str:
    """Rich markup with every [redacted] escaped: markup would read the placeholder as a tag and
    drop it (data redacted earlier holds it: a sweep cell's folder name, a redacted model spec)."""
    return _PLACEHOLDER.sub(lambda _: _ESCAPED, markup)


def redacted_text(text: Text) -> Text:
    """`text` with every secret value replaced by [redacted], the styles of the rest kept."""
    spans = secret_spans(text.plain)
    if not spans:
        return text
    result = text.blank_copy()
    start = 0
    for begin, end in spans:
        result.append_text(text[start:begin])
        result.append(REDACTED)
        start = end
    result.append_text(text[start:])
    return result


class RedactingConsole(Console):
    """A rich Console whose strings are redacted before their markup is read (the placeholder
    escaped) and whose Text is redacted before it is laid out."""

    def render_str(self, text: str, **options: Any) -> Text:
        text = redact_values(text)
        if self._markup if options.get("markup") is None else options["markup"]:
            text = escaped_placeholders(text)
        return redacted_text(super().render_str(text, **options))

    def render(self, renderable: RenderableType, options: ConsoleOptions | None = None) -> Iterable[Segment]:
        if isinstance(renderable, Text):
            renderable = redacted_text(renderable)
        return super().render(renderable, options)
