"""The media store: JPEGs by content hash, and which JPEGs a source file became.

Every attached image is resized and JPEG-encoded once; the JPEG is kept as
`<cache>/media/images/<sha256>.jpg` and named in messages by `sha256:<hex>`. An index
(`<cache>/media/index.sqlite`) maps a source key (the source file's content hash plus the
sampling settings) to its list of references, so a second run neither decodes nor encodes again.
"""

from __future__ import annotations

import hashlib
import io
from pathlib import Path
from typing import TYPE_CHECKING

from factprobe.eval.store.atomic import atomic_write_bytes
from factprobe.eval.store.json_store import JsonStore, default_cache_dir, hash_key

REF_PREFIX = "sha256:"
JPEG_QUALITY = 85
MEDIA_TYPE = "image/jpeg"
# Bump when the way images are sampled or encoded changes, so old index entries are not reused.
ENCODING_VERSION = 1

if TYPE_CHECKING:
    from PIL.Image import Image


def is_ref(value: str) -> bool:
    return value.startswith(REF_PREFIX)


def encode_jpeg(image: Image, long_side: int) -> bytes:
    """`image` shrunk (never enlarged) to `long_side` on its longer side, as RGB JPEG bytes."""
    from PIL.Image import Resampling

    image = image.convert("RGB")
    image.thumbnail((long_side, long_side), Resampling.LANCZOS)
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=JPEG_QUALITY)
    return out.getvalue()


class MediaStore:
    """Content-addressed JPEGs plus the index of what each source became."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder or default_cache_dir() / "media"
        self.images = self.folder / "images"
        self.images.mkdir(parents=True, exist_ok=True)
        self._index: JsonStore | None = None

    @property
    def index(self) -> JsonStore:
        if self._index is None:
            self._index = JsonStore(self.folder / "index.sqlite", "sources")
        return self._index

    def path_of(self, ref: str) -> Path:
        return self.images / f"{ref.removeprefix(REF_PREFIX)}.jpg"

    def put(self, jpeg: bytes) -> str:
        """Keep `jpeg` (atomically, once) and return its reference."""
        ref = REF_PREFIX + hashlib.sha256(jpeg).hexdigest()
        path = self.path_of(ref)
        if not path.is_file():
            atomic_write_bytes(path, jpeg)
        return ref

    def read(self, ref: str) -> bytes:
        path = self.path_of(ref)
        if not path.is_file():
            raise FileNotFoundError(f"{ref} is not in the media store {self.images} (was the cache cleared "
                                    f"during the run?)")
        return path.read_bytes()

    def lookup(self, key: dict) -> list[str] | None:
        """The references stored for a source key, if every one of them is still on disk."""
        entry = self.index.get(hash_key({**key, "version": ENCODING_VERSION}))
        if entry is None or not all(self.path_of(ref).is_file() for ref in entry["refs"]):
            return None
        return list(entry["refs"])

    def remember(self, key: dict, refs: list[str]) -> None:
        self.index.put(hash_key({**key, "version": ENCODING_VERSION}), {"refs": refs})
