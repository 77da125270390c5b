"""Reading a data file's text and JSON so that every failure names the file and the line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from factprobe.eval.core.errors import DatasetError


def read_utf8(path: Path) -> str:
    """The file's text (a UTF-8 byte-order mark dropped); DatasetError naming the line and column
    of the first byte that is not UTF-8."""
    if not path.is_file():
        raise DatasetError(f"{path}: no such file" if not path.exists() else f"{path}: not a regular file")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DatasetError(f"{path}: cannot be read ({exc.strerror})") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise DatasetError(f"{path}, line {line}: not UTF-8 text (byte 0x{data[exc.start]:02x} at column "
                           f"{column}); save the file as UTF-8") from None


def parse_json(text: str, path: Path, line: int | None = None) -> Any:
    """`text` as JSON; DatasetError naming the line when it is not JSON or is nested too deeply.

    `line` is the line `text` starts on in the file (JSON Lines); None for a whole document."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        where = line if line is not None else exc.lineno
        raise DatasetError(f"{path}, line {where}: not valid JSON ({exc.msg})") from None
    except RecursionError:
        at_line = f", line {line}" if line is not None else ""
        raise DatasetError(f"{path}{at_line}: JSON nested too deeply to read") from None
