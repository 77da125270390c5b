"""The `worldvqa` loader: WorldVQA's released `WorldVQA.tsv`, one image question per row.

Format as the WorldVQA repository's `eval/eval.py` reads it (MoonshotAI/WorldVQA) and third-party
readers of the Hugging Face file describe it: tab-separated with a header row; columns `index`,
`image` (the raw image bytes in base64: JPEG, PNG, GIF or WebP; a cell may also hold a list of
them), `question` (English or Chinese), `answer` (a specific entity), `category`, `difficulty`
(`easy`/`medium`/`hard`) and `language` (`zh`/`non-zh`). Columns are read by name, in any order.

- Ids are `worldvqa-<index>` (the row number when there is no `index` column); category is the
  `category` column.
- Each image is decoded and kept as released in the media store (factprobe.eval.store.media_cache);
  the question's `media` names it by content (`original:<sha256>.<ext>`), so a run attaches it
  without `--media`, shrunk to `--frame-size` like any image.
- Fields kept for grouping (Question.fields): `category`, `difficulty`, `language`.
Verified on files our tests write in that shape; the released file itself was not downloaded here.
"""

from __future__ import annotations

import ast
import base64
import binascii
import csv
import io
import sys
from collections.abc import Iterator
from pathlib import Path

from factprobe.eval.core.errors import DatasetError
from factprobe.eval.core.schema import FieldValue, Question
from factprobe.eval.core.text_files import text_lines
from factprobe.eval.datasets.registry import Dataset, loader
from factprobe.eval.store.media_cache import MediaStore

NAME = "worldvqa"
REQUIRED = ("image", "question", "answer")
GROUPING = ("category", "difficulty", "language")
SUFFIXES = {"JPEG": ".jpg", "PNG": ".png", "GIF": ".gif", "WEBP": ".webp", "BMP": ".bmp", "TIFF": ".tif"}


def tsv_rows(path: Path) -> Iterator[tuple[int, dict[str, str]]]:
    """Every data row as a dict by column name, with the line it starts on (read as a stream, a
    line at a time: the released file is large)."""
    csv.field_size_limit(sys.maxsize)   # one cell holds a whole base64 image (text_lines bounds a line)
    line = 1
    try:
        reader = csv.reader((text for _, text in text_lines(path)), delimiter="\t")
        header = next(reader, None)
        if not header:
            raise DatasetError(f"{path}: the file is empty")
        missing = [name for name in REQUIRED if name not in header]
        if missing:
            raise DatasetError(f"{path}, line 1: field `{missing[0]}`: no such column (the header is "
                               f"{' | '.join(header)[:160]!r}); is this WorldVQA's TSV?")
        line = reader.line_num + 1
        for row in reader:
            start, line = line, reader.line_num + 1
            if not row or row == [""]:
                continue
            if len(row) != len(header):
                raise DatasetError(f"{path}, line {start}: expected {len(header)} tab-separated "
                                   f"columns, got {len(row)}")
            yield start, dict(zip(header, row))
    except csv.Error as exc:
        raise DatasetError(f"{path}, line {line}: not valid TSV ({exc})") from None


def encoded_images(cell: str) -> list[str]:
    """The base64 strings of an `image` cell: one, or a list written as a Python/JSON literal."""
    cell = cell.strip()
    if cell.startswith("["):
        try:
            value = ast.literal_eval(cell)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            raise ValueError("starts with `[` but is not a list of base64 strings") from None
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise ValueError("a list, but not of base64 strings")
        return value
    return [cell]


def stored_image(store: MediaStore, encoded: str) -> str:
    """Decode one base64 image, identify its format and keep it; its `original:` name."""
    from PIL import Image, UnidentifiedImageError

    try:
        data = base64.b64decode("".join(encoded.split()), validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("not valid base64") from None
    try:
        with Image.open(io.BytesIO(data)) as image:
            image_format = image.format or ""
    except (UnidentifiedImageError, OSError):
        raise ValueError(f"decodes to {len(data)} bytes that are not an image") from None
    return store.put_original(data, SUFFIXES.get(image_format, f".{image_format.lower() or 'img'}"))


@loader("worldvqa", "WorldVQA TSV: base64 images, category, difficulty, language", order=135)
def load(path: Path) -> Dataset:
    store = MediaStore()
    questions: list[Question] = []
    for number, (line, row) in enumerate(tsv_rows(path), start=1):
        for name in ("question", "answer"):
            if not row[name].strip():
                raise DatasetError(f"{path}, line {line}: field `{name}`: empty")
        try:
            images = encoded_images(row["image"])
            if not images:
                raise ValueError("holds no image")
            media = [stored_image(store, encoded) for encoded in images]
        except ValueError as exc:
            raise DatasetError(f"{path}, line {line}: field `image`: {exc}") from None
        fields: dict[str, FieldValue] = {name: row[name].strip() for name in GROUPING if row.get(name, "").strip()}
        index = row.get("index", "").strip() or str(number)
        questions.append(Question(id=f"worldvqa-{index}", question=row["question"].strip(),
                                  answer=row["answer"].strip(), category=str(fields.get("category", "general")),
                                  media=media, fields=fields, source=NAME))
    if not questions:
        raise DatasetError(f"{path}: the file holds no records")
    return Dataset(path.stem, questions,
                   notes=[f"{len(questions)} questions, images embedded in the file and kept in the media store"])
