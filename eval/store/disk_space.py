"""A full disk, told in one line: which path could not be written, how much is free there, about
how much more is needed, and how to go on once there is room.

`DiskFull` is what a writer raises instead of the bare OSError (ENOSPC, or a quota's EDQUOT) or
sqlite's "database or disk is full"; the command line prints it as it prints bad input (exit 2).
"""

from __future__ import annotations

import errno
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

NO_SPACE = frozenset({errno.ENOSPC, errno.EDQUOT})


def is_disk_full(exc: BaseException) -> bool:
    """Whether `exc` says the file system (or the user's quota) has no room left."""
    if isinstance(exc, OSError):
        return exc.errno in NO_SPACE
    if isinstance(exc, sqlite3.Error):
        return getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or "disk is full" in str(exc)
    return False


def free_bytes(path: Path) -> int | None:
    """The bytes free on the file system holding `path` (its nearest existing folder); None when unknown."""
    for folder in (path, *path.parents):
        if folder.exists():
            try:
                return shutil.disk_usage(folder).free
            except OSError:
                return None
    return None


def size_text(count: int) -> str:
    """A byte count as a person reads it: 512 bytes, 3.2 MB, 1.5 GB (powers of 1024)."""
    value = float(count)
    for unit in ("bytes", "KB", "MB", "GB"):
        if value < 1024:
            return f"{count} bytes" if unit == "bytes" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} TB"


class DiskFull(Exception):
    """No room left to write `path`: the message names it, the space free there, `needed` (an
    estimate of what the rest of the work writes) and `then`, what to run once there is room."""

    def __init__(self, path: Path, needed: int, then: str) -> None:
        self.path, self.needed, self.then = path, needed, then
        free = free_bytes(path)
        there = "" if free is None else f" ({size_text(free)} free there)"
        super().__init__(f"{path}: no space left on the device{there}. Free at least {size_text(needed)} "
                         f"on that file system, then {then}")

    def needing(self, needed: int) -> DiskFull:
        """The same error with another estimate of the space needed."""
        return DiskFull(self.path, needed, self.then)


@contextmanager
def stop_when_full(path: Path, needed: int, then: str) -> Iterator[None]:
    """Turn a full disk met inside the block into DiskFull(path, needed, then); other errors pass."""
    try:
        yield
    except (OSError, sqlite3.Error) as exc:
        if not is_disk_full(exc):
            raise
        raise DiskFull(path, needed, then) from None
