"""What the model was shown, for the question browser: a thumbnail of each image or frame a row
sent (`images_sent`) and a player for its sound track (`audio_sent`).

Thumbnails are small JPEGs made from the media store's copies of what was sent, kept in the run's
`report_media/` folder (so a later `factprobe report` has them after the cache is cleared) and
embedded in the page as data URIs, each once however many rows sent it: the page alone shows
them. Sound tracks are copied into that folder and played from there. Both are bounded: past
THUMBNAIL_BUDGET or AUDIO_BUDGET bytes the page says what it left out. A reference the store no
longer holds, or an http(s) image, gets no thumbnail (the page shows its name or link).
"""

from __future__ import annotations

import base64
import io
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from factprobe.eval.store.media_cache import AUDIO_PREFIX, REF_PREFIX, MediaStore

MEDIA_FOLDER = "report_media"
THUMBNAIL_SIDE = 160             # pixels, the longer side
THUMBNAIL_QUALITY = 70
THUMBNAIL_BUDGET = 12_000_000    # bytes of thumbnails embedded in one page
AUDIO_BUDGET = 64_000_000        # bytes of sound tracks copied beside one page


def sent_references(rows: Iterable[Any]) -> tuple[list[str], list[str]]:
    """The distinct image and audio references the rows sent, in first-seen order."""
    images: dict[str, None] = {}
    audio: dict[str, None] = {}
    for row in rows:
        images.update(dict.fromkeys(row.extra_field("images_sent") or ()))
        audio.update(dict.fromkeys(row.extra_field("audio_sent") or ()))
    return list(images), list(audio)


def thumbnail(jpeg: bytes) -> bytes:
    """`jpeg` shrunk to THUMBNAIL_SIDE on its longer side (never enlarged), as JPEG bytes."""
    from PIL import Image  # lazy: only a run that sent images needs it

    with Image.open(io.BytesIO(jpeg)) as image:
        image.draft("RGB", (THUMBNAIL_SIDE, THUMBNAIL_SIDE))   # a JPEG decoded at a fraction of its size: faster
        small = image.convert("RGB")
        small.thumbnail((THUMBNAIL_SIDE, THUMBNAIL_SIDE))
        out = io.BytesIO()
        small.save(out, format="JPEG", quality=THUMBNAIL_QUALITY)
    return out.getvalue()


def _thumbnail_file(ref: str, folder: Path, store: MediaStore) -> Path | None:
    """The run's thumbnail of `ref`, made from the store when the run has none yet; None when
    neither has it (or it is not an image of the store)."""
    if not ref.startswith(REF_PREFIX):
        return None
    path = folder / f"{ref.removeprefix(REF_PREFIX)}.jpg"
    if path.is_file():
        return path
    source = store.path_of(ref)
    if not source.is_file():
        return None
    try:
        small = thumbnail(source.read_bytes())
    except (OSError, ValueError):       # a damaged file in the store: no thumbnail, the page goes on
        return None
    folder.mkdir(parents=True, exist_ok=True)
    path.write_bytes(small)
    return path


def _audio_file(ref: str, folder: Path, store: MediaStore) -> Path | None:
    if not ref.startswith(AUDIO_PREFIX):
        return None
    path = folder / f"{ref.removeprefix(AUDIO_PREFIX)}.wav"
    if path.is_file():
        return path
    source = store.audio_path(ref)
    if not source.is_file():
        return None
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, path)
    return path


def media_previews(rows: Iterable[Any], run_path: Path, store: MediaStore | None = None) -> dict[str, Any]:
    """{"thumbs": {ref: data URI}, "audio": {ref: path relative to the page}, "missing": refs the
    store no longer holds, "over_budget": refs left out for the page's size}."""
    images, audio = sent_references(rows)
    previews: dict[str, Any] = {"thumbs": {}, "audio": {}, "missing": 0, "over_budget": 0}
    if not images and not audio:
        return previews
    store = store or MediaStore()
    folder = run_path / MEDIA_FOLDER
    spent = 0
    for ref in images:
        path = _thumbnail_file(ref, folder, store)
        if path is None:
            previews["missing"] += ref.startswith(REF_PREFIX)
            continue
        data = path.read_bytes()
        if spent + len(data) > THUMBNAIL_BUDGET:
            previews["over_budget"] += 1
            continue
        spent += len(data)
        previews["thumbs"][ref] = "data:image/jpeg;base64," + base64.b64encode(data).decode("ascii")
    copied = 0
    for ref in audio:
        size = store.audio_path(ref).stat().st_size if store.audio_path(ref).is_file() else 0
        if copied + size > AUDIO_BUDGET:
            previews["over_budget"] += 1
            continue
        path = _audio_file(ref, folder, store)
        if path is None:
            previews["missing"] += 1
            continue
        copied += path.stat().st_size
        previews["audio"][ref] = f"{MEDIA_FOLDER}/{path.name}"
    return previews
