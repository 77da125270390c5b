"""The run directory: manifest.json first, results.jsonl appended row by row, summary.json last.

A run holds `DIR/.lock` (an exclusive `fcntl.flock`) from start to end, so a second run on the same
directory stops at once; the kernel releases the lock when its process dies, so a killed run never
blocks the next one. manifest.json and summary.json are replaced atomically (`write_json_atomic`).
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import time
from array import array
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, BinaryIO, Iterator

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from factprobe.eval.core import text_files
from factprobe.eval.core.errors import plain_words
from factprobe.eval.core.schema import Grade, Result
from factprobe.eval.core.secrets import redact_values
from factprobe.eval.core.speedups import reading_rows
from factprobe.eval.store.atomic import atomic_write_text
from factprobe.eval.store.disk_space import DiskFull, is_disk_full
from factprobe.eval.store.finite import check_finite
from factprobe.eval.store.row_store import RowStore, latest_of
from factprobe.eval.store.slim_rows import RowFile, SlimRow, fast_row_dict
from factprobe.eval.store.stale import remove_stale

MANIFEST = "manifest.json"
RESULTS = "results.jsonl"
SUMMARY = "summary.json"
LOCK = ".lock"
REPORT_LOCK = ".report.lock"
# the longest a finished row waits in the kernel before an fsync. Each fsync blocks the run's event
# loop, and two shards' fsyncs queue on one journal: at 0.1 s they took 1.4 s of a 28 s shard
# (--workers 2, 5,000 questions, 2 cores, profiled)
SYNC_INTERVAL_S = 1.0


Key = tuple[str, str, int]
Percent = Annotated[float, Field(ge=0, le=100)]


class RunDirError(ValueError):
    """A run directory that cannot be used as asked (missing, already used, or corrupt)."""


class _HopRanges(BaseModel):
    model_config = ConfigDict(extra="ignore")
    confidence: Percent | None = None


class _RowRanges(BaseModel):
    """Value ranges of the contract that the row model itself leaves open (confidence 0-100)."""

    model_config = ConfigDict(extra="ignore")
    confidence: Percent | None = None
    confidences: dict[str, Percent | None] = Field(default_factory=dict)
    hops: list[_HopRanges] | None = None


def write_json_atomic(path: Path, value: Any) -> None:
    """`value` as indented JSON, replacing `path` atomically and durably (fsync of file and folder)."""
    # no secret reaches a file, whatever its shape
    atomic_write_text(path, redact_values(json.dumps(value, indent=2, ensure_ascii=False) + "\n"), fsync=True)


def read_utf8(path: Path) -> str:
    """A run file's text; RunDirError naming the line of the first byte that is not UTF-8."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise RunDirError(f"{path}, line {line}: not UTF-8 text; factprobe writes UTF-8, so the file was "
                          f"changed by something else: correct or delete that line") from None


def _in_range(value: float | None) -> bool:
    return value is None or 0 <= value <= 100


def parse_row(line: str) -> Result:
    """One results.jsonl line as a Result; ValidationError when its JSON, a field or a range is bad.

    The ranges are checked on the parsed row; only a row outside them is parsed again by
    _RowRanges, for its error message (a second parse of every row would double the cost)."""
    row = Result.model_validate_json(line)
    if "NaN" in line or "Infinity" in line:      # not JSON; a row parsed this far may hold one
        check_finite(line)
    if not (_in_range(row.confidence) and all(_in_range(value) for value in row.confidences.values())
            and all(_in_range(hop.confidence) for hop in row.hops or [])):
        _RowRanges.model_validate_json(line)
    return row


def row_error(path: Path, number: int, exc: ValidationError) -> RunDirError:
    """The one-paragraph message for a bad row: file, line, field, what is wrong and the fix."""
    error = exc.errors()[0]
    if error["type"] == "json_invalid":
        problem = f"not valid JSON ({error['msg']})"
    else:
        field = ".".join(str(part) for part in error["loc"]) or "(row)"
        problem = f"field `{field}`: {plain_words(error['msg'])} (found {error.get('input')!r})"
    return RunDirError(f"{path}, line {number}: {problem}. Rows are written by factprobe; correct or "
                       f"delete that line (`factprobe run --resume` runs a deleted row again).")


class RunDir:
    """One run's folder. Rows are appended and flushed as they finish, so nothing is lost."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock_fd: int | None = None
        self._created = False
        self._synced_at = float("-inf")   # monotonic time of the last fsync of results.jsonl
        self._unsynced = False

    def lock(self) -> None:
        """Create the folder if needed and hold its lock until `unlock` (or this process ends);
        RunDirError when another process holds it or the folder cannot be used."""
        if self.path.exists() and not self.path.is_dir():
            raise RunDirError(f"--out {self.path} is a file, not a directory: choose another --out")
        try:
            self._created = not self.path.exists()
            self.path.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise RunDirError(f"--out {self.path} cannot be used as a run directory: "
                              f"{exc.strerror or exc}. Choose a folder you can write to.") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                raise RunDirError(f"--out {self.path}: cannot lock {LOCK}: {exc.strerror}") from None
            raise RunDirError(f"{self.path} is in use by another factprobe run (pid {holder}); wait for it "
                              f"to finish, or choose another --out. Two runs on one directory would mix "
                              f"their rows.") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        remove_stale(self.path)
        if not os.access(self.path, os.W_OK):
            self._lock_fd = fd
            self.unlock()
            raise RunDirError(f"--out {self.path} is not writable: choose a folder you can write to.")
        self._lock_fd = fd

    @contextmanager
    def report_lock(self) -> Iterator[None]:
        """Hold `DIR/.report.lock` while the report is written: two reports of one directory at
        once take turns (the second waits) instead of writing the same files together. Apart from
        the run's lock, so a run in progress can still be reported."""
        try:
            fd = os.open(self.path / REPORT_LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise RunDirError(f"{self.path}: cannot write its report ({exc.strerror or exc}); "
                              f"report a directory you can write to.") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            remove_stale(self.path)
            yield
        finally:
            os.close(fd)

    def unlock(self) -> None:
        """fsync the rows, release the lock; a folder this run created and left empty is removed."""
        self.sync()
        if self._lock_fd is None:
            return
        os.close(self._lock_fd)
        self._lock_fd = None
        if self._created and {p.name for p in self.path.iterdir()} <= {LOCK}:
            (self.path / LOCK).unlink(missing_ok=True)
            self.path.rmdir()

    @property
    def manifest_path(self) -> Path:
        return self.path / MANIFEST

    @property
    def results_path(self) -> Path:
        return self.path / RESULTS

    @property
    def summary_path(self) -> Path:
        return self.path / SUMMARY

    def write_manifest(self, manifest: dict[str, Any]) -> None:
        self.path.mkdir(parents=True, exist_ok=True)
        write_json_atomic(self.manifest_path, manifest)

    def read_manifest(self) -> dict[str, Any]:
        if not self.manifest_path.is_file():
            if self.results_path.is_file():     # rows are written before the manifest only by a merge
                raise RunDirError(f"{self.path} has no {MANIFEST} but holds rows: a `factprobe merge` into it "
                                  f"stopped before its end; run that merge again to finish it")
            raise RunDirError(f"{self.path} has no {MANIFEST}: it is not a factprobe run directory")
        try:
            manifest = json.loads(read_utf8(self.manifest_path))
        except (json.JSONDecodeError, RecursionError) as exc:
            problem = exc.msg if isinstance(exc, json.JSONDecodeError) else "nested too deeply"
            raise RunDirError(f"{self.manifest_path}: not valid JSON ({problem})") from None
        if not isinstance(manifest, dict):
            raise RunDirError(f"{self.manifest_path}: expected a JSON object, got {type(manifest).__name__}")
        return manifest

    def append(self, result: Result) -> None:
        """Append one row. It reaches the kernel before this returns (a killed process loses
        nothing); the disk gets it within SYNC_INTERVAL_S (an fsync at most that often, and one in
        `sync`), so a power cut loses at most the last second of rows. On a full disk
        the part of the row written is cut off again (no torn last line) and DiskFull is raised."""
        data = (redact_values(result.model_dump_json()) + "\n").encode("utf-8")
        with self.results_path.open("ab", buffering=0) as handle:
            start = os.fstat(handle.fileno()).st_size
            try:
                write_all(handle, data)
            except OSError as exc:
                if not is_disk_full(exc):
                    raise
                os.ftruncate(handle.fileno(), start)
                raise DiskFull(self.results_path, len(data),
                               f"continue with `factprobe run --resume --out {self.path}`") from None
            now = time.monotonic()
            if now - self._synced_at >= SYNC_INTERVAL_S:
                os.fsync(handle.fileno())
                self._synced_at, self._unsynced = now, False
            else:
                self._unsynced = True

    def sync(self) -> None:
        """fsync results.jsonl if rows were appended since the last fsync."""
        if self._unsynced and self.results_path.is_file():
            fd = os.open(self.results_path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        self._unsynced = False

    def read_results(self) -> list[Result]:
        """Every row in file order. A torn last line (a crash mid-write) is skipped; any other bad
        line is an error naming the line."""
        return list(self.iter_results())

    def iter_results(self) -> Iterator[Result]:
        """`read_results` one row at a time, reading the file line by line (a long run's file is
        never held whole in memory)."""
        for number, _, line, torn in self._lines():
            try:
                yield parse_row(line)
            except ValidationError as exc:
                if torn:
                    return
                raise row_error(self.results_path, number, exc) from None

    def _lines(self) -> Iterator[tuple[int, int, str, bool]]:
        """(line number, byte offset, text, torn) of every non-blank line; RunDirError at a line
        that is not UTF-8. Only the last line can be torn (lack its newline)."""
        if not self.results_path.is_file():
            return
        limit = text_files.MAX_LINE_BYTES      # read at each call, so a test can lower it
        with self.results_path.open("rb") as handle:
            offset = 0
            # a bounded read per line: a damaged file of one huge line is refused before it is held whole
            for number, data in enumerate(iter(lambda: handle.readline(limit + 1), b""), start=1):
                if len(data) > limit and not data.endswith(b"\n"):
                    raise RunDirError(f"{self.results_path}, line {number}: longer than {limit:,} bytes, the "
                                      f"most one row may hold; the file was changed by something other than "
                                      f"factprobe: correct or delete that line")
                start, offset = offset, offset + len(data)
                try:
                    line = data.decode("utf-8")
                except UnicodeDecodeError:
                    read_utf8(self.results_path)           # raises RunDirError naming the line
                    raise
                if line.strip():
                    yield number, start, line, not data.endswith(b"\n")

    def latest(self) -> dict[Key, Result]:
        """The latest row of every key: a later row (a retry, a re-grade) supersedes earlier ones."""
        return {row.key: row for row in self.iter_results()}

    def latest_slim(self) -> list[SlimRow]:
        """`latest()` as slim rows (factprobe.eval.store.slim_rows), in the same order, read in one pass
        and packed into columns (factprobe.eval.store.row_store); the same rows are accepted and the
        same errors raised."""
        file = RowFile(self.results_path, parse_row)
        with reading_rows():   # the collector paused (factprobe.eval.core.speedups)
            return self._read_slim(file, RowStore(file))

    def _read_slim(self, file: RowFile, store: RowStore) -> list[SlimRow]:
        """The latest row of each key at its key's first position (as `latest()` orders them).

        While the file is read, only the store's buffers grow (a packed row is an index, -1 - k
        the k-th row held whole): objects kept among each line's freed ones would pin the
        allocator's arenas. Keys are matched once the file is read."""
        read = array("q")
        held: list[SlimRow] = []
        for number, offset, line, torn in self._lines():
            data = fast_row_dict(line)
            index = None if data is None else store.add(data, offset)
            if index is None:
                try:
                    held.append(SlimRow.from_dict(data, file, offset) if data is not None
                                else SlimRow.from_result(parse_row(line), file, offset))
                except ValidationError as exc:
                    if torn:
                        break
                    raise row_error(self.results_path, number, exc) from None
                index = -len(held)
            read.append(index)
        return latest_of(read, store, held)

    def done_keys(self) -> set[Key]:
        """Keys --resume leaves alone: the latest row is graded and every post step succeeded.

        ERROR rows and rows with `post_step_errors` are run again; UNGRADED rows are re-graded
        (see `ungraded_rows`)."""
        return {key for key, row in self.latest().items() if not needs_rerun(row)
                and row.grade is not Grade.UNGRADED}

    def ungraded_rows(self) -> list[Result]:
        """Latest rows that have an answer but no grade: --resume re-grades them from the answer."""
        return [row for row in self.latest().values()
                if row.grade is Grade.UNGRADED and not needs_rerun(row)]

    def write_summary(self, summary: dict[str, Any]) -> None:
        self.sync()
        write_json_atomic(self.summary_path, summary)

    def drop_torn_tail(self) -> bool:
        """Remove a last line cut off by a crash mid-write, so appending continues cleanly."""
        if not self.results_path.is_file():
            return False
        data = self.results_path.read_bytes()
        if not data or data.endswith(b"\n"):
            return False
        os.truncate(self.results_path, data.rfind(b"\n") + 1)  # in place: the finished rows stay on disk
        return True


def write_all(handle: BinaryIO, data: bytes) -> None:
    """Write all of `data` through an unbuffered handle, which may take a part of it per call."""
    view = memoryview(data)
    while view:
        view = view[handle.write(view) or 0:]


def needs_rerun(row: Result) -> bool:
    """An ERROR row, a row whose post step failed, or one with an ERROR hop or hop probe (a step
    needs the strategy's live state, which a row does not hold, so the whole job runs again; the
    response cache replays the calls that succeeded)."""
    return (row.grade is Grade.ERROR or bool(getattr(row, "post_step_errors", None))
            or any(hop.grade is Grade.ERROR for hop in row.hops or [])
            or any(isinstance(probe, dict) and probe.get("grade") == Grade.ERROR.value
                   for probe in getattr(row, "hop_probes", None) or []))
