"""The images a run showed with each question, found again for the classifying judge (`--with-media`).

Only rows answered with images (their `images` count is above zero) get them: a row of the text or
caption setting was answered without media, so its judge sees none either. The images are resolved
with the run's own settings (its manifest's dataset, `--media` folder, frames and frame size), so the
judge gets the same stored JPEGs the model got.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from factprobe.agents.models.base import ChatModel, ModelSpecError, accepts_images
from factprobe.eval.core.schema import Result
from factprobe.eval.datasets.registry import load_dataset
from factprobe.eval.media.attach import dataset_folder, has_media
from factprobe.eval.media.sources import MediaResolver, MediaSettings
from factprobe.eval.store.run_dir import RunDir


class TaxonomyMediaError(ModelSpecError):
    """`--with-media` on a run that attached no images, or with a judge that reads text only."""


def shown_images(row: Result) -> bool:
    count = row.extra_field("images")
    return isinstance(count, int) and count > 0


def run_images(run_dir: RunDir, manifest: dict[str, Any], rows: list[Result], judge: ChatModel,
               judge_spec: str) -> dict[str, list[str]]:
    """Image references per question id, for the questions of `rows` answered with images."""
    config = manifest.get("config") or {}
    wanted = {row.question_id for row in rows if shown_images(row)}
    if not manifest.get("media") or not wanted:
        raise TaxonomyMediaError(f"--with-media: the run in {run_dir.path} answered none of the rows to "
                                 f"classify with images; drop --with-media")
    if not accepts_images(judge):
        raise TaxonomyMediaError(f"--with-media: the judge {judge_spec} reads text only; use a judge that "
                                 f"reads images (openai:MODEL[@BASE_URL] or anthropic:MODEL), or drop --with-media")
    root = Path(config["media"]) if config.get("media") else None
    settings = MediaSettings(root, dataset_folder(str(config.get("dataset", ""))),
                             int(config.get("frames", 8)), int(config.get("frame_size", 512)))
    resolver = MediaResolver(settings)
    questions = [q for q in load_dataset(str(config["dataset"])).questions if q.id in wanted]
    return {q.id: resolver.refs(q) for q in questions if has_media(q, root)}
