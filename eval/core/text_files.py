"""Reading a data file's text and JSON so that every failure names the file and the line.

A line-based file (JSON Lines, CSV, TSV, id lists) is read line by line (`text_lines`), each line
with a bounded read: a line longer than MAX_LINE_BYTES is refused before more of it is held in
memory, so a damaged file that is one line of gigabytes stops at once with a clear message.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from factprobe.eval.core.errors import DatasetError

# the longest line a record may take: WorldVQA's TSV holds whole base64 images in a cell (a few MB)
MAX_LINE_BYTES = 64 * 2**20


def _check_regular(path: Path) -> None:
    if not path.is_file():
        raise DatasetError(f"{path}: no such file" if not path.exists() else f"{path}: not a regular file")


def _not_utf8(path: Path, line: int, data: bytes, exc: UnicodeDecodeError) -> DatasetError:
    """The message for the first byte of `data` (line `line`'s bytes, or the whole file's) that is not UTF-8."""
    column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
    return DatasetError(f"{path}, line {line}: not UTF-8 text (byte 0x{data[exc.start]:02x} at column "
                        f"{column}); save the file as UTF-8")


def text_lines(path: Path, limit: int | None = None) -> Iterator[tuple[int, str]]:
    """(line number, text with its newline) of every line of a UTF-8 file (a byte-order mark
    dropped). Each line is read with `readline(limit + 1)`: one longer than `limit` bytes
    (default MAX_LINE_BYTES) is a DatasetError naming the file and line, raised before the rest of
    it is read; so is a line that is not UTF-8."""
    limit = MAX_LINE_BYTES if limit is None else limit
    _check_regular(path)
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise DatasetError(f"{path}: cannot be read ({exc.strerror})") from None
    with handle:
        number = 0
        while data := handle.readline(limit + 1):
            number += 1
            if len(data) > limit and not data.endswith(b"\n"):
                raise DatasetError(f"{path}, line {number}: longer than {limit:,} bytes, the most one line "
                                   f"may hold; the file is damaged or not of this format")
            if number == 1:
                data = data.removeprefix(codecs.BOM_UTF8)
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise _not_utf8(path, number, data, exc) from None
            yield number, text


def read_utf8(path: Path) -> str:
    """The file's text (a UTF-8 byte-order mark dropped); DatasetError naming the line and column
    of the first byte that is not UTF-8."""
    _check_regular(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DatasetError(f"{path}: cannot be read ({exc.strerror})") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _not_utf8(path, data.count(b"\n", 0, exc.start) + 1, data, exc) from None


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
