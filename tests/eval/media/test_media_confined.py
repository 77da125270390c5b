"""Media stay inside their folders (factprobe.eval.media.confine).

A dataset's media outside its folder and `--media DIR` (`../` paths and ids, a symlink pointing out,
`~`) stop the run with exit 2 naming the file, line and field, before the recording fake of
tests/eval/media/test_media.py (a local server on 127.0.0.1) receives any chat; `--media-root`
allows a folder. A FIFO, a decompression bomb, an oversized or unreadable image makes only its
question's row ERROR.
"""

from __future__ import annotations

import json
import os
import signal
import struct
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.eval.media.conftest import run_with_media
from tests.eval.media.test_media import write_png

PIL = pytest.importorskip("PIL", reason="attached images are encoded with Pillow: pip install -e '.[media]'")

GOOD = {"id": "good", "question": "Which city is this?", "answer": "Paris", "media": ["good.png"]}


@contextmanager
def deadline(seconds: int) -> Iterator[None]:
    """Fail the test, instead of hanging, when the block takes longer than `seconds`."""
    def expire(signum: int, frame: object) -> None:
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def layout(tmp_path: Path, bad: dict) -> tuple[Path, Path]:
    """data/q.jsonl (a good question on line 1, `bad` on line 2), media/good.png and, outside both,
    private/secret.png and private/album/01.png; returns (the data file, the media folder)."""
    data, media, private = tmp_path / "data", tmp_path / "media", tmp_path / "private"
    for folder in (data, media, private / "album"):
        folder.mkdir(parents=True)
    write_png(media / "good.png", 90)
    write_png(private / "secret.png", 200)
    write_png(private / "album" / "01.png", 200)
    rows = [GOOD, {"id": "bad", "question": "Which city?", "answer": "Paris", **bad}]
    (data / "q.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    return data / "q.jsonl", media


OUTSIDE = {
    "a ../ path": ({"media": ["../private/secret.png"]}, "media.0", None),
    "a ../ media id": ({"media_id": "../private/album"}, "media_id", None),
    "a symlinked file": ({"media": ["link.png"]}, "media.0", ("link.png", "private/secret.png")),
    "a symlinked folder": ({"media_id": "album"}, "media_id", ("album", "private/album")),
    "a ~ path": ({"media": ["~/secret.png"]}, "media.0", None),
}


@pytest.mark.parametrize(("bad", "field", "link"), OUTSIDE.values(), ids=OUTSIDE.keys())
def test_media_outside_the_folders_stop_the_run_naming_file_line_and_field(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], bad: dict, field: str,
        link: tuple[str, str] | None) -> None:
    data, media = layout(tmp_path, bad)
    if link is not None:
        (media / link[0]).symlink_to(tmp_path / link[1])
    status, chats = run_with_media(data, media, tmp_path / "run")
    err = capsys.readouterr().err
    assert status == 2 and chats == []
    assert f"{data}, line 2: field `{field}`" in " ".join(err.split()), err
    assert "Traceback" not in err


def test_media_root_allows_the_folder_that_holds_them(tmp_path: Path) -> None:
    data, media = layout(tmp_path, {"media": ["../private/secret.png"]})
    status, chats = run_with_media(data, media, tmp_path / "run", "--media-root", str(tmp_path / "private"))
    assert status == 0 and len(chats) == 2
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["config"]["media_root"] == str((tmp_path / "private").resolve())


def write_bomb(path: Path) -> None:
    """A small PNG whose header declares 100,000 × 100,000 pixels (its CRC fixed)."""
    write_png(path, 10, size=(8, 8))
    raw = bytearray(path.read_bytes())
    ihdr = raw[12:29]   # chunk type and data of the first chunk, IHDR
    ihdr[4:12] = struct.pack(">II", 100_000, 100_000)
    raw[12:29] = ihdr
    raw[29:33] = struct.pack(">I", zlib.crc32(bytes(ihdr)))
    path.write_bytes(bytes(raw))


def unreadable(kind: str, path: Path) -> None:
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "bomb":
        write_bomb(path)
    else:
        path.write_bytes(b"not an image at all")


UNREADABLE = {"fifo": "a FIFO (named pipe), not a regular file", "folder": "holds no image files",
              "bomb": "too large an image to decode", "garbage": "not a readable image"}


@pytest.mark.parametrize(("kind", "message"), UNREADABLE.items(), ids=UNREADABLE.keys())
def test_an_unreadable_media_file_is_an_error_row_and_the_run_goes_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, message: str) -> None:
    data, media = layout(tmp_path, {"media": ["x.png"]})
    unreadable(kind, media / "x.png")
    with deadline(60):
        status, chats = run_with_media(data, media, tmp_path / "run", "--max-error-rate", "1")
    rows = {row["question_id"]: row for row in map(json.loads, (tmp_path / "run" / "results.jsonl").open())}
    assert "Traceback" not in capsys.readouterr().err
    assert status == 0 and len(chats) == 1
    assert rows["good"]["grade"] == "CORRECT"
    assert rows["bad"]["grade"] == "ERROR" and message in rows["bad"]["error"], rows["bad"]["error"]


def test_an_image_file_over_the_size_cap_is_an_error_row(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import factprobe.eval.media.sources as sources

    data, media = layout(tmp_path, {"media": ["big.png"]})
    write_png(media / "big.png", 30, size=(400, 400))
    monkeypatch.setattr(sources, "MAX_IMAGE_BYTES", (media / "good.png").stat().st_size)
    status, chats = run_with_media(data, media, tmp_path / "run", "--max-error-rate", "1")
    rows = {row["question_id"]: row for row in map(json.loads, (tmp_path / "run" / "results.jsonl").open())}
    assert status == 0 and len(chats) == 1
    assert rows["bad"]["grade"] == "ERROR" and "bytes, over the" in rows["bad"]["error"]
