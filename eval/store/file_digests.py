"""sha256 of files remembered by their stat, so a folder digested again reads only what changed.

The entries live in one small JSON file under the cache directory (`file_digests.json` in
`$FACTPROBE_CACHE`): absolute path → size, mtime_ns, ctime_ns, inode and sha256. A file whose
stat still matches is not read again; any other is hashed, and its entry replaced. A file modified
less than SETTLE_NS (2 s) before it was hashed is not remembered: another write in the same clock
tick could leave its stat unchanged. The cache is never worth failing for: a sidecar that cannot be
read is started afresh, one that cannot be written is left as it was.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from factprobe.eval.store.json_store import default_cache_dir, file_sha256

SIDECAR = "file_digests.json"
SETTLE_NS = 2 * 10**9
MAX_SIDECAR_BYTES = 256 * 2**20   # a larger sidecar is not ours to read whole: started afresh
MAX_ENTRIES = 2_000_000           # above this, only the folder just digested is kept


def _stamp(stat: os.stat_result) -> list[int]:
    return [stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino]


def _load(path: Path) -> dict[str, list[Any]]:
    try:
        if path.stat().st_size > MAX_SIDECAR_BYTES:
            return {}
        entries = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    if not isinstance(entries, dict):
        return {}
    return {key: value for key, value in entries.items()
            if isinstance(value, list) and len(value) == 5 and isinstance(value[4], str)}


class FileDigests:
    """The sha256 of files, read from the sidecar when their stat is unchanged; `save` writes it back."""

    def __init__(self, sidecar: Path | None = None) -> None:
        self.sidecar = sidecar or default_cache_dir() / SIDECAR
        self.entries = _load(self.sidecar)
        self.seen: set[str] = set()
        self.changed = False

    def sha256(self, file: Path) -> str:
        """The file's sha256: remembered when its stat matches, else read (stat taken first, so a
        write during the read shows as a changed stat next time)."""
        key = str(file.absolute())
        self.seen.add(key)
        stat = file.stat()
        stamp = _stamp(stat)
        entry = self.entries.get(key)
        if entry is not None and entry[:4] == stamp:
            return str(entry[4])
        digest = file_sha256(file)
        if stat.st_mtime_ns < time.time_ns() - SETTLE_NS:
            self.entries[key] = [*stamp, digest]
        else:
            self.entries.pop(key, None)
        self.changed = True
        return digest

    def save(self, root: Path) -> None:
        """Write the sidecar when an entry changed, dropping the entries under `root` not digested
        this time (files deleted or now hidden); atomic, so a concurrent reader sees one version."""
        prefix = str(root.absolute()) + os.sep
        gone = [key for key in self.entries if key.startswith(prefix) and key not in self.seen]
        if not self.changed and not gone:
            return
        for key in gone:
            del self.entries[key]
        if len(self.entries) > MAX_ENTRIES:
            self.entries = {key: value for key, value in self.entries.items() if key in self.seen}
        try:
            self.sidecar.parent.mkdir(parents=True, exist_ok=True)
            handle, name = tempfile.mkstemp(dir=self.sidecar.parent, prefix=SIDECAR, suffix=".tmp")
            try:
                with os.fdopen(handle, "w", encoding="utf-8") as out:
                    out.write(json.dumps(self.entries, separators=(",", ":")))   # the C encoder: fast
                os.replace(name, self.sidecar)
            except BaseException:
                Path(name).unlink(missing_ok=True)
                raise
        except OSError:
            return
