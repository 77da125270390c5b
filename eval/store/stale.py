"""Temporary files and folders left by a process killed mid-write (`kill -9`), removed by a later
process: an entry is stale when the process id in its name is no longer running."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path


def pid_alive(pid: int) -> bool:
    """Whether a process with this id runs now (one owned by another user counts as running)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_stale(folder: Path, pattern: re.Pattern[str]) -> list[Path]:
    """Remove the entries of `folder` whose name matches `pattern` (with a `pid` group) and whose
    process is gone; returns what was removed. A missing folder has nothing stale."""
    removed: list[Path] = []
    try:
        entries = list(folder.iterdir())
    except OSError:
        return removed
    for entry in entries:
        match = pattern.fullmatch(entry.name)
        if match is None or int(match["pid"]) == os.getpid() or pid_alive(int(match["pid"])):
            continue
        try:
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
        except OSError:         # removed by another process meanwhile, or not ours to remove
            continue
        removed.append(entry)
    return removed
