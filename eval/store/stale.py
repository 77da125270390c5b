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


# Temporary names of writers that may have been killed: factprobe.eval.store.atomic's
# (`.NAME.<pid>-<thread>-<hex>.tmp`, files and folders) and the names used before it
# (`.NAME.<pid>.tmp`, index folders `NAME.tmp-<pid>-<thread>`).
TEMPORARIES = (re.compile(r"\..+\.(?P<pid>\d+)-\d+-[0-9a-f]+\.tmp"), re.compile(r"\..+\.(?P<pid>\d+)\.tmp"),
               re.compile(r".+\.tmp-(?P<pid>\d+)-\d+"))


def remove_stale(folder: Path, patterns: tuple[re.Pattern[str], ...] = TEMPORARIES) -> list[Path]:
    """Remove the entries of `folder` whose name matches one of `patterns` (each with a `pid`
    group) and whose process is gone; returns what was removed. A missing folder has nothing stale."""
    removed: list[Path] = []
    try:
        entries = list(folder.iterdir())
    except OSError:
        return removed
    for entry in entries:
        match = next((m for m in (p.fullmatch(entry.name) for p in patterns) if m), None)
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
