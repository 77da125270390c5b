"""The digest of a folder input (`--media DIR`, a corpus folder) with each file's sha256 remembered
by its stat: an unchanged file is not read again, a changed one is, and the digest is the one the
files' contents give."""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

import pytest

from factprobe.eval.run.inputs import content_sha256
from factprobe.eval.store import file_digests

HOUR_AGO = time.time_ns() - 3600 * 10**9


def uncached(folder: Path) -> str:
    """The folder digest written out from the files' bytes: relative path, NUL, sha256, newline each."""
    digest = hashlib.sha256()
    for file in sorted(p for p in folder.rglob("*") if p.is_file() and ".hidden" not in p.parts):
        digest.update(f"{file.relative_to(folder).as_posix()}\x00{hashlib.sha256(file.read_bytes()).hexdigest()}\n"
                      .encode())
    return digest.hexdigest()


@pytest.fixture
def media(tmp_path: Path) -> Path:
    """Three files in two folders and a hidden one, last modified an hour ago."""
    folder = tmp_path / "media"
    for name, data in (("a/frame.png", b"first picture"), ("a/clip.wav", b"RIFF" + bytes(range(256))),
                       ("b.jpg", b"\xff\xd8 jpeg"), (".hidden/x", b"left out")):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
        os.utime(folder / name, ns=(HOUR_AGO, HOUR_AGO))
    return folder


@pytest.fixture
def hashed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the files whose content is read for their sha256, in order."""
    calls: list[str] = []
    real = file_digests.file_sha256

    def counting(path: Path) -> str:
        calls.append(path.name)
        return real(path)

    monkeypatch.setattr(file_digests, "file_sha256", counting)
    return calls


def test_a_second_digest_of_an_unchanged_folder_reads_no_file(media: Path, hashed: list[str],
                                                               isolated_cache: Path) -> None:
    first = content_sha256(media)
    assert sorted(hashed) == ["b.jpg", "clip.wav", "frame.png"]
    assert (isolated_cache / file_digests.SIDECAR).is_file()
    hashed.clear()
    assert content_sha256(media) == first == uncached(media)
    assert hashed == []


def test_a_touched_or_rewritten_file_is_hashed_again(media: Path, hashed: list[str]) -> None:
    first = content_sha256(media)
    (media / "a" / "frame.png").touch()                  # a new mtime, the same content
    hashed.clear()
    assert content_sha256(media) == first
    assert hashed == ["frame.png"]
    time.sleep(0.05)              # past the clock tick the fixture's change time fell in
    (media / "b.jpg").write_bytes(b"\xff\xd8 JPEG")      # the same size, its old mtime set back: a new ctime
    os.utime(media / "b.jpg", ns=(HOUR_AGO, HOUR_AGO))
    hashed.clear()
    second = content_sha256(media)
    assert "b.jpg" in hashed and second != first and second == uncached(media)


def test_a_file_modified_just_now_is_not_remembered(media: Path, hashed: list[str]) -> None:
    """A write within the same clock tick could leave its stat as it was: it is read every time
    until it has settled."""
    content_sha256(media)
    (media / "new.txt").write_text("fresh")
    for _ in range(2):
        hashed.clear()
        assert content_sha256(media) == uncached(media)
        assert hashed == ["new.txt"]


def test_a_deleted_file_leaves_the_sidecar(media: Path, isolated_cache: Path) -> None:
    content_sha256(media)
    (media / "b.jpg").unlink()
    assert content_sha256(media) == uncached(media)
    entries = json.loads((isolated_cache / file_digests.SIDECAR).read_text())
    assert sorted(Path(key).name for key in entries) == ["clip.wav", "frame.png"]


def test_a_damaged_or_unwritable_sidecar_changes_nothing(media: Path, hashed: list[str], isolated_cache: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    (isolated_cache / file_digests.SIDECAR).write_text("{not json")
    assert content_sha256(media) == uncached(media) and len(hashed) == 3
    blocked = isolated_cache / "a-file"
    blocked.write_text("")
    monkeypatch.setenv("FACTPROBE_CACHE", str(blocked / "below"))     # a cache folder that cannot be made
    hashed.clear()
    assert content_sha256(media) == uncached(media) and len(hashed) == 3
