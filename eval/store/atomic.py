"""Atomic replacement of a file or a folder: a reader, a crash or a concurrent writer sees the old
version or one complete new one, never a part.

Every writer works in a temporary name of its own beside the target (same folder, so the final
rename stays on one file system and is atomic), unique per process, thread and call, so two
writers of one file never collide; the temporary is removed when writing fails.
"""

from __future__ import annotations

import os
import shutil
import threading
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, Iterator


def _temporary_beside(path: Path) -> Path:
    """A name in `path`'s folder that no other writer (process, thread or call) will pick."""
    return path.with_name(f".{path.name}.{os.getpid()}-{threading.get_ident()}-{uuid.uuid4().hex[:12]}.tmp")


def _fsync_folder(folder: Path) -> None:
    """Make a rename in `folder` durable."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextmanager
def atomic_open(path: Path, mode: str = "w", *, fsync: bool = False, encoding: str = "utf-8",
                newline: str | None = None) -> Iterator[IO[Any]]:
    """A handle (`mode` "w" or "wb") on a temporary file that replaces `path` when the block ends
    without an error, and is removed when it raises.

    With `fsync`, the file is flushed to disk before the rename and the folder after it, so a
    power loss leaves the old file or the new one (used for the run directory's manifest and
    summary; caches and reports, which can be rebuilt, skip the cost).
    """
    if mode not in ("w", "wb"):
        raise ValueError(f"atomic_open writes a whole file: mode 'w' or 'wb', not {mode!r}")
    tmp = _temporary_beside(path)
    # O_EXCL: never share a temporary; 0o666 less the umask, the permissions a plain open() gives
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        handle = os.fdopen(fd, mode) if mode == "wb" else os.fdopen(fd, mode, encoding=encoding, newline=newline)
        with handle:
            yield handle
            if fsync:
                handle.flush()
                os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    if fsync:
        _fsync_folder(path.parent)


def atomic_write_text(path: Path, text: str, *, fsync: bool = False) -> None:
    """Replace `path` with `text` (UTF-8) atomically; see `atomic_open` for `fsync`."""
    with atomic_open(path, "w", fsync=fsync) as handle:
        handle.write(text)


def atomic_write_bytes(path: Path, data: bytes, *, fsync: bool = False) -> None:
    """Replace `path` with `data` atomically; see `atomic_open` for `fsync`."""
    with atomic_open(path, "wb", fsync=fsync) as handle:
        handle.write(data)


@contextmanager
def atomic_folder(path: Path) -> Iterator[Path]:
    """A fresh temporary folder beside `path`, renamed to `path` when the block ends without an
    error and removed when it raises.

    The first writer wins: when `path` already holds a folder by the time this one is done
    (another process saved the same content first), that copy is kept and this one dropped.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = _temporary_beside(path)
    tmp.mkdir()
    try:
        yield tmp
        try:
            os.rename(tmp, path)
        except OSError:  # `path` exists and is not empty: another writer finished first
            pass
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
