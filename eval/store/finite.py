"""NaN and Infinity are not JSON: a results.jsonl row holding one (Python's json module writes them;
factprobe never does) is refused with the field named, so no NaN reaches a summary."""

from __future__ import annotations

import json
import math
from typing import Any

import orjson
from pydantic import ValidationError
from pydantic_core import InitErrorDetails

Location = tuple[str | int, ...]


def non_finite(value: Any, where: Location = ()) -> tuple[Location, float] | None:
    """The location and value of the first NaN or infinite number in `value`, or None."""
    if isinstance(value, float) and not math.isfinite(value):
        return where, value
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found = non_finite(item, (*where, key))
        if found is not None:
            return found
    return None


def check_finite(line: str) -> None:
    """ValidationError naming the field when the JSON line holds NaN or Infinity (orjson, strict,
    refuses them; only then is the line walked to name the field)."""
    try:
        orjson.loads(line)
    except (ValueError, RecursionError):
        found = non_finite(json.loads(line))
        if found is None:
            return
        where, value = found
        error = InitErrorDetails(type="finite_number", loc=where, input=value)
        raise ValidationError.from_exception_data("Result", [error]) from None
