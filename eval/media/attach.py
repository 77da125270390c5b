"""Each question's input setting attached to every model call a strategy makes for it.

The runner resolves a job's Attachment (its setting, image references and caption) and makes it
current for the job (`attached`); the AttachingModel around the run's model adds it to the last
user message of each call: the strategy graphs stay text-only and need no change. Post-step probes
(sub-QA hops, forced re-asks) of the job see the same input; the judge does not (it is another model).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from factprobe.agents.models.base import (
    ChatModel,
    Completion,
    GenerationParams,
    Message,
    ModelSpecError,
    accepts_images,
    warm_up,
)
from factprobe.agents.models.wire import with_images
from factprobe.agents.prompts import CAPTION_NOTE, MEDIA_NOTE
from factprobe.eval.core.modality import CAPTION, FRAMES, TEXT, split_variant
from factprobe.eval.core.schema import Question
from factprobe.eval.media.frames import VIDEO_SAMPLING
from factprobe.eval.media.sources import MediaError, MediaResolver, MediaSettings


class MediaRefusedError(ModelSpecError):
    """The run attaches images but its model reads text only."""


@dataclass(frozen=True)
class Attachment:
    """What accompanies a question in one setting: image references, or a caption, or nothing."""

    setting: str = TEXT
    images: tuple[str, ...] = ()
    caption: str | None = None
    explicit: bool = False   # the variant named its setting (NAME@SETTING)

    def apply(self, messages: list[Message]) -> list[Message]:
        """`messages` with the caption or the images (and a line saying what they are) in the last user turn."""
        note = None
        if self.caption is not None:
            note = CAPTION_NOTE.format(caption=self.caption)
        elif self.images:
            note = MEDIA_NOTE.format(count=len(self.images))
        if note is None:
            return messages
        last = max((i for i, message in enumerate(messages) if message["role"] == "user"), default=None)
        if last is None:
            return messages
        updated = list(messages)
        updated[last] = {**messages[last], "content": f"{note}\n\n{messages[last]['content']}"}
        return with_images(updated, list(self.images))

    def row_fields(self) -> dict[str, Any]:
        """`modality` and `images` (count) for results.jsonl, when the run involves either."""
        if not (self.explicit or self.images):
            return {}
        return {"modality": self.setting, "images": len(self.images)}


# Attachment is a frozen dataclass, so one shared default cannot be changed by a job
_CURRENT: ContextVar[Attachment] = ContextVar("factprobe_attachment", default=Attachment())  # noqa: B039


def current_attachment() -> Attachment:
    """The Attachment of the job being answered (an empty one outside a job)."""
    return _CURRENT.get()


@contextmanager
def attached(attachment: Attachment) -> Iterator[None]:
    """Make `attachment` current for the calls made inside (tasks started inside inherit it)."""
    token = _CURRENT.set(attachment)
    try:
        yield
    finally:
        _CURRENT.reset(token)


class AttachingModel:
    """A ChatModel that adds the current Attachment to every request it passes on."""

    def __init__(self, inner: ChatModel) -> None:
        self.inner = inner
        self.name = inner.name
        self.supports_logprobs = inner.supports_logprobs

    async def generate(self, messages: list[Message], params: GenerationParams) -> Completion:
        return await self.inner.generate(_CURRENT.get().apply(messages), params)

    def describe(self) -> dict:
        return self.inner.describe()

    def warm_up(self, messages: list[Message]) -> None:
        warm_up(self.inner, messages)


def variant_settings(strategies: list[str]) -> set[str | None]:
    """The settings the run's variants name (None: the natural setting)."""
    return {split_variant(name)[1] for name in strategies}


def has_media(question: Question, root: Path | None) -> bool:
    return bool(question.media) or (root is not None and bool(question.media_id))


class RunMedia:
    """Each question's image references, and the Attachment of a (question, variant); `sampling`
    says how they were found and sampled (the manifest's `media`)."""

    def __init__(self, refs: dict[str, list[str]] | None = None, sampling: dict[str, Any] | None = None) -> None:
        self.refs = refs or {}
        self.sampling = sampling or {}

    def attachment(self, question: Question, strategy: str) -> Attachment:
        setting = split_variant(strategy)[1]
        images = tuple(self.refs.get(question.id, ()))
        if setting is None:
            return Attachment(FRAMES if images else TEXT, images)
        if setting == FRAMES:
            return Attachment(FRAMES, images, explicit=True)
        if setting == CAPTION:
            return Attachment(CAPTION, caption=question.caption, explicit=True)
        return Attachment(TEXT, explicit=True)


def dataset_folder(dataset_spec: str) -> Path:
    """The folder of a LOADER:PATH dataset (relative media paths of its rows are read there)."""
    _, separator, path = dataset_spec.partition(":")
    return Path(path).expanduser().parent if separator and path else Path.cwd()


def attaches_images(questions: list[Question], strategies: list[str], media_root: Path | None) -> bool:
    """Whether some variant asks a question with its media (frames, or the natural setting)."""
    settings = variant_settings(strategies)
    return bool(settings & {None, FRAMES}) and any(has_media(q, media_root) for q in questions)


def check_model_reads_images(model: ChatModel, attaches: bool, media_root: Path | None) -> None:
    """MediaRefusedError, before any question is asked, when images would reach a text-only model."""
    if attaches and not accepts_images(model):
        source = f"--media {media_root}" if media_root is not None else "the dataset rows' `media`"
        raise MediaRefusedError(
            f"{model.name} reads text only, but this run attaches images to its questions ({source}). "
            f"Ask the text-only setting with --modality text (or text,caption), or use a model that "
            f"reads images: openai:MODEL[@BASE_URL] or anthropic:MODEL.")


def prepare_media(questions: list[Question], strategies: list[str], media_root: Path | None,
                  frames: int, frame_size: int, dataset_spec: str) -> RunMedia:
    """Every question's media sampled, encoded and stored before any timed call; MediaError (a
    DatasetError) naming the questions when a setting lacks what it needs."""
    settings = variant_settings(strategies)
    if CAPTION in settings:
        missing = [q.id for q in questions if not q.caption]
        if missing:
            raise MediaError(f"the caption setting needs a `caption` on every question; {len(missing)} of "
                             f"{len(questions)} have none (e.g. {', '.join(missing[:3])})")
    if not settings & {None, FRAMES}:
        return RunMedia()
    if FRAMES in settings:
        missing = [q.id for q in questions if not has_media(q, media_root)]
        if missing:
            hint = "" if media_root is not None else "; give --media DIR for items with a media id"
            raise MediaError(f"the frames setting needs media for every question; {len(missing)} of "
                             f"{len(questions)} have none (e.g. {', '.join(missing[:3])}){hint}")
    resolver = MediaResolver(MediaSettings(media_root, dataset_folder(dataset_spec), frames, frame_size))
    refs = {q.id: resolver.refs(q) for q in questions if has_media(q, media_root)}
    return RunMedia(refs, {
        "root": None if media_root is None else str(media_root), "frames": frames, "frame_size": frame_size,
        "video_sampling": VIDEO_SAMPLING, "image_folders": "every image file, sorted by name",
        "layouts": dict(resolver.layouts.most_common()), "questions_with_media": len(refs),
        "images": sum(len(r) for r in refs.values())})
