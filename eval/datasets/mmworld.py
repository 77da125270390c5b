"""The `mmworld` loader: MMWorld's released `mmworld.json` (a list of videos with their questions).

Format as the MMWorld repository's README documents it and its `evaluation/eval.py` reads it
(eric-ai-lab/MMWorld): each video entry has `video_id`, `video_url`, `discipline`,
`subdiscipline`, `captions` (human-written descriptions) and `questions`; each question has
`type` (one of the seven question types), `question`, `options` (a mapping letter → text: "a",
"b", …; some questions have fewer than four), `answer` (the gold option's text),
`correct_answer_label` (its letter) and the annotation flags `requires_domain_knowledge`,
`requires_audio`, `requires_visual`, `question_only`.

- Ids are `mmworld-<video_id>-<k>` (k: the question's 1-based position in its video); `media_id`
  is the video id (the release keeps each video as `all_data/<video_id>/<file>.mp4`, which
  `--media` finds); category is the discipline.
- Fields kept for grouping (Question.fields): `discipline`, `subdiscipline`, `type` and the four
  flags, under their released names; `caption` is the video's captions joined by a space.
- A video entry may name its file (`video_file`, or `video_path` / `file_name`; only the file name
  is kept, in the field `video_file`): `--media` then picks that file when the video's folder
  holds several (the released evaluation runs every .mp4 of the folder; we ask about one, and
  refuse a folder of several when the record names none).
- The gold is the option `correct_answer_label` names (the benchmark's judge is given that letter);
  a question whose `answer` text is not that option is loaded with the label's option and named in
  the dataset's notes.
Verified on files our tests write in that documented shape; the released file itself was not
downloaded here.
"""

from __future__ import annotations

from pathlib import Path, PurePath

from pydantic import AliasChoices, BaseModel, Field, StrictBool

from factprobe.eval.core.schema import FieldValue, Question
from factprobe.eval.datasets.mcq import gold_option
from factprobe.eval.datasets.raw import AnswerText, Text, json_records, parse_records, record_error
from factprobe.eval.datasets.registry import Dataset, loader

NAME = "mmworld"
FLAGS = ("requires_domain_knowledge", "requires_audio", "requires_visual", "question_only")


class RawQuestion(BaseModel):
    question: Text
    options: dict[str, AnswerText] = Field(min_length=2)
    correct_answer_label: Text
    answer: AnswerText | None = None
    type: str = ""
    requires_domain_knowledge: StrictBool | None = None
    requires_audio: StrictBool | None = None
    requires_visual: StrictBool | None = None
    question_only: StrictBool | None = None


class RawVideo(BaseModel):
    video_id: Text
    video_file: str | None = Field(None, validation_alias=AliasChoices("video_file", "video_path", "file_name"))
    discipline: Text = "general"
    subdiscipline: str = ""
    captions: list[str] | str = Field(default_factory=list)
    questions: list[RawQuestion] = Field(min_length=1)


def question_fields(video: RawVideo, raw: RawQuestion) -> dict[str, FieldValue]:
    """The released grouping fields of one question (absent flags and empty texts left out)."""
    fields: dict[str, FieldValue] = {"discipline": video.discipline}
    for name, value in (("subdiscipline", video.subdiscipline), ("type", raw.type)):
        if value.strip():
            fields[name] = value.strip()
    for flag in FLAGS:
        value = getattr(raw, flag)
        if value is not None:
            fields[flag] = value
    if video.video_file and video.video_file.strip():
        fields["video_file"] = PurePath(video.video_file.strip().replace("\\", "/")).name
    return fields


def caption_of(video: RawVideo) -> str | None:
    captions = [video.captions] if isinstance(video.captions, str) else video.captions
    text = " ".join(caption.strip() for caption in captions if caption.strip())
    return text or None


@loader("mmworld", "MMWorld mmworld.json: videos with lettered options, type, discipline, flags", order=120)
def load(path: Path) -> Dataset:
    questions = []
    notes: list[str] = []
    for where, video in parse_records(path, json_records(path), RawVideo, "MMWorld"):
        for number, raw in enumerate(video.questions, start=1):
            at = f"{where}, question {number}"
            letters = sorted(raw.options, key=str.lower)
            choices = [str(raw.options[letter]).strip() for letter in letters]
            if [letter.lower() for letter in letters] != [chr(ord("a") + i) for i in range(len(letters))]:
                raise record_error(path, at, "options", f"expected letters a, b, … without gaps, got {letters}")
            gold = gold_option(path, at, choices, raw.correct_answer_label, "correct_answer_label")
            if raw.answer is not None and str(raw.answer).strip() != gold:
                notes.append(f"{at} (video {video.video_id!r}): `answer` {raw.answer!r} is not option "
                             f"{raw.correct_answer_label!r}; the labelled option {gold!r} is the gold")
            questions.append(Question(id=f"mmworld-{video.video_id}-{number}", question=raw.question,
                                      choices=choices, answer=gold, category=video.discipline,
                                      media_id=video.video_id, caption=caption_of(video),
                                      fields=question_fields(video, raw), source=NAME))
    return Dataset(path.stem, questions, notes=notes)
