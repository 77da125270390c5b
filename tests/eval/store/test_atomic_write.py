"""The one atomic-write helper: concurrent writers of one file (threads and processes) never crash
and a reader always sees one complete version; a failed write leaves the old file and no temporary;
the reports and caches that write files use it."""

from __future__ import annotations

import multiprocessing
import os
import threading
from pathlib import Path

import pytest

from factprobe.eval.store.atomic import atomic_folder, atomic_open, atomic_write_bytes, atomic_write_text

WRITES = 150


def version(writer: int, number: int) -> str:
    """A large, self-checking version: a partial or mixed file cannot pass `is_complete`."""
    return f"{writer}:{number}\n" + (f"{writer}" * 20_000) + f"\nend {writer}:{number}\n"


def is_complete(text: str) -> bool:
    head, _, rest = text.partition("\n")
    writer, _, _ = head.partition(":")
    return rest == f"{writer}" * 20_000 + f"\nend {head}\n"


def write_many(path: str, writer: int) -> None:
    for number in range(WRITES):
        atomic_write_text(Path(path), version(writer, number))


def write_many_recording(path: str, writer: int, errors: list[BaseException]) -> None:
    try:
        write_many(path, writer)
    except BaseException as error:   # noqa: B036 - a thread's exception is otherwise only printed
        errors.append(error)


def read_while(path: Path, stop: threading.Event, seen: list[str]) -> None:
    while not stop.is_set():
        text = path.read_text(encoding="utf-8")
        if not is_complete(text):
            seen.append(text[:40])


def leftovers(folder: Path, target: str) -> list[str]:
    return sorted(name for name in os.listdir(folder) if name != target)


def test_two_threads_writing_one_file_never_collide_and_a_reader_sees_whole_versions(tmp_path):
    path = tmp_path / "summary.json"
    atomic_write_text(path, version(0, 0))
    stop, torn, errors = threading.Event(), [], []
    reader = threading.Thread(target=read_while, args=(path, stop, torn))
    reader.start()
    writers = [threading.Thread(target=write_many_recording, args=(str(path), w, errors)) for w in (1, 2)]
    for thread in writers:
        thread.start()
    for thread in writers:
        thread.join()
    stop.set()
    reader.join()
    assert errors == []
    assert torn == []
    assert is_complete(path.read_text(encoding="utf-8"))
    assert leftovers(tmp_path, "summary.json") == []


def test_two_processes_writing_one_file_never_collide(tmp_path):
    path = tmp_path / "report.html"
    atomic_write_text(path, version(0, 0))
    context = multiprocessing.get_context("fork")
    processes = [context.Process(target=write_many, args=(str(path), w)) for w in (1, 2)]
    for process in processes:
        process.start()
    stop, torn = threading.Event(), []
    reader = threading.Thread(target=read_while, args=(path, stop, torn))
    reader.start()
    for process in processes:
        process.join()
    stop.set()
    reader.join()
    assert [process.exitcode for process in processes] == [0, 0]
    assert torn == []
    assert is_complete(path.read_text(encoding="utf-8"))
    assert leftovers(tmp_path, "report.html") == []


def test_a_failed_write_keeps_the_old_file_and_removes_its_temporary(tmp_path):
    path = tmp_path / "sweep.csv"
    atomic_write_bytes(path, b"old\n")
    with pytest.raises(RuntimeError, match="half way"):
        with atomic_open(path) as handle:
            handle.write("new, but ")
            raise RuntimeError("half way")
    assert path.read_bytes() == b"old\n"
    assert leftovers(tmp_path, "sweep.csv") == []


def test_the_written_file_has_the_permissions_of_a_plain_open(tmp_path):
    plain, atomic = tmp_path / "plain", tmp_path / "atomic"
    plain.write_text("x")
    atomic_write_text(atomic, "x", fsync=True)
    assert atomic.stat().st_mode == plain.stat().st_mode


def test_an_atomic_folder_is_removed_when_saving_fails_and_the_first_writer_wins(tmp_path):
    target = tmp_path / "index"
    with pytest.raises(OSError, match="disk full"):
        with atomic_folder(target) as folder:
            (folder / "part").write_text("half")
            raise OSError("disk full")
    assert os.listdir(tmp_path) == []
    with atomic_folder(target) as folder:
        (folder / "data").write_text("first")
    with atomic_folder(target) as folder:
        (folder / "data").write_text("second")
    assert (target / "data").read_text() == "first"
    assert os.listdir(tmp_path) == ["index"]


def test_two_reports_rendered_into_one_file_at_once_both_succeed(tmp_path):
    from factprobe.eval.report.html.render import render_to

    path = tmp_path / "sweep.html"
    cells = [(f"cell {n}", f"cell{n}/report.html") for n in range(3)]
    errors: list[BaseException] = []

    def render() -> None:
        try:
            for _ in range(10):
                render_to(path, "sweep.html.j2", title="a sweep", tables=[], cells=cells, figures=[])
        except BaseException as error:   # noqa: B036 - a thread's exception is otherwise only printed
            errors.append(error)

    threads = [threading.Thread(target=render) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert path.read_text(encoding="utf-8").rstrip().endswith("</html>")
    assert leftovers(tmp_path, "sweep.html") == []
