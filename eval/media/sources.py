"""Where a question's media come from, and turning them into stored JPEG references.

- `--media DIR` and an item with media id X: the image files of `DIR/X/` sorted by name, or the
  video `DIR/X.<suffix>` sampled to `frames` frames (factprobe.eval.media.frames).
- A native row's `media`: each entry an http(s) URL (sent as it is), an image file, a folder of
  images, or a video; relative paths are read under `--media DIR`, else beside the dataset file.
Every image is shrunk to `frame_size` on its long side and JPEG-encoded once (factprobe.eval.store.media_cache).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from factprobe.eval.core.errors import DatasetError
from factprobe.eval.core.schema import Question
from factprobe.eval.media.frames import VIDEO_SUFFIXES, VideoError, sample_frames
from factprobe.eval.store.json_store import file_sha256
from factprobe.eval.store.media_cache import MediaStore, encode_jpeg

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".bmp", ".gif", ".tif", ".tiff")
URL_PREFIXES = ("http://", "https://")


class MediaError(DatasetError):
    """Media a question names that cannot be found or read."""


@dataclass(frozen=True)
class MediaSettings:
    """What the media of a run are read from and how they are sampled."""

    root: Path | None          # --media DIR
    base: Path                 # where relative `media` paths of native rows are read when root is unset
    frames: int = 8
    frame_size: int = 512


def image_files(folder: Path) -> list[Path]:
    """The image files of `folder`, sorted by name."""
    return sorted(path for path in folder.iterdir() if path.is_file() and path.suffix.lower() in IMAGE_SUFFIXES)


def find_by_id(root: Path, media_id: str) -> Path | None:
    """`root/<id>/` when it holds images, else the first `root/<id>.<video suffix>` that exists."""
    folder = root / media_id
    if folder.is_dir() and image_files(folder):
        return folder
    for suffix in VIDEO_SUFFIXES:
        for candidate in (root / f"{media_id}{suffix}", root / f"{media_id}{suffix.upper()}"):
            if candidate.is_file():
                return candidate
    return None


class MediaResolver:
    """Turns each question's media into references to stored JPEGs (or URLs), caching on disk."""

    def __init__(self, settings: MediaSettings, store: MediaStore | None = None) -> None:
        self.settings = settings
        self.store = store or MediaStore()

    def sources(self, question: Question) -> list[str | Path]:
        """The question's media as URLs and existing paths, in order; MediaError when one is missing."""
        found: list[str | Path] = []
        if question.media_id and self.settings.root is not None:
            path = find_by_id(self.settings.root, question.media_id)
            if path is None:
                raise MediaError(f"question {question.id}: no media for id {question.media_id!r} under "
                                 f"{self.settings.root} (expected a folder of images {question.media_id}/ "
                                 f"or a video {question.media_id}.<{'|'.join(s[1:] for s in VIDEO_SUFFIXES)}>)")
            found.append(path)
        for entry in question.media:
            if entry.startswith(URL_PREFIXES):
                found.append(entry)
                continue
            path = Path(entry).expanduser()
            if not path.is_absolute():
                path = (self.settings.root or self.settings.base) / path
            if not path.exists():
                raise MediaError(f"question {question.id}: media {entry!r} not found (looked at {path})")
            found.append(path)
        return found

    def refs(self, question: Question) -> list[str]:
        """References of every image the question carries, in order (URLs kept as they are)."""
        refs: list[str] = []
        for source in self.sources(question):
            if isinstance(source, str):
                refs.append(source)
            elif source.is_dir():
                files = image_files(source)
                if not files:
                    raise MediaError(f"question {question.id}: {source} holds no image files")
                refs.extend(ref for path in files for ref in self.image(path))
            elif source.suffix.lower() in VIDEO_SUFFIXES:
                refs.extend(self.video(source))
            elif source.suffix.lower() in IMAGE_SUFFIXES:
                refs.extend(self.image(source))
            else:
                raise MediaError(f"question {question.id}: {source} is neither an image "
                                 f"({', '.join(IMAGE_SUFFIXES)}) nor a video ({', '.join(VIDEO_SUFFIXES)})")
        return refs

    def image(self, path: Path) -> list[str]:
        key = {"kind": "image", "content": file_sha256(path), "size": self.settings.frame_size}
        refs = self.store.lookup(key)
        if refs is None:
            from PIL import Image, UnidentifiedImageError

            try:
                with Image.open(path) as image:
                    refs = [self.store.put(encode_jpeg(image, self.settings.frame_size))]
            except (UnidentifiedImageError, OSError) as exc:
                raise MediaError(f"{path}: not a readable image ({exc})") from None
            self.store.remember(key, refs)
        return refs

    def video(self, path: Path) -> list[str]:
        key = {"kind": "video", "content": file_sha256(path), "frames": self.settings.frames,
               "size": self.settings.frame_size}
        refs = self.store.lookup(key)
        if refs is None:
            try:
                frames = sample_frames(path, self.settings.frames)
            except VideoError as exc:
                raise MediaError(str(exc)) from None
            refs = [self.store.put(encode_jpeg(frame, self.settings.frame_size)) for frame in frames]
            self.store.remember(key, refs)
        return refs
