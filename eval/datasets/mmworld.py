"""The `mmworld` loader: MMWorld's released annotation JSON (a list of videos with their questions).

Format as the MMWorld repository's README documents it and its `evaluation/eval.py` reads it
(eric-ai-lab/MMWorld): each video entry has `video_id`, `discipline`, `subdiscipline` and
`questions`; each question has `question`, `options` (a mapping letter → text: "a", "b", …),
`answer` (the gold option's text), `correct_answer_label` (its letter) and `type`, plus flags
(`requires_visual`, `requires_audio`, `requires_domain_knowledge`, `question_only`).

Verified: on files our tests write in that documented shape (the README's example entry). Not
verified: the full released file (not downloaded here); extra fields are ignored. The gold is
taken from `correct_answer_label`; a record whose `answer` text disagrees with it is an error.
Ids are `mmworld-<video_id>-<k>` (k: the question's 1-based position in its video); `media_id` is
the video id; category is the discipline.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, Field

from factprobe.eval.core.schema import Question
from factprobe.eval.datasets.mcq import gold_option
from factprobe.eval.datasets.raw import AnswerText, Text, json_records, parse_records, record_error
from factprobe.eval.datasets.registry import Dataset, loader

NAME = "mmworld"


class RawQuestion(BaseModel):
    question: Text
    options: dict[str, AnswerText] = Field(min_length=2)
    correct_answer_label: Text
    answer: AnswerText | None = None
    type: str = ""


class RawVideo(BaseModel):
    video_id: Text
    discipline: Text = "general"
    subdiscipline: str = ""
    questions: list[RawQuestion] = Field(min_length=1)


@loader("mmworld", "MMWorld annotation JSON: videos with lettered options", order=120)
def load(path: Path) -> Dataset:
    questions = []
    for where, video in parse_records(path, json_records(path), RawVideo, "MMWorld"):
        for number, raw in enumerate(video.questions, start=1):
            at = f"{where}, question {number}"
            letters = sorted(raw.options, key=str.lower)
            choices = [str(raw.options[letter]).strip() for letter in letters]
            if [letter.lower() for letter in letters] != [chr(ord("a") + i) for i in range(len(letters))]:
                raise record_error(path, at, "options", f"expected letters a, b, … without gaps, got {letters}")
            gold = gold_option(path, at, choices, raw.correct_answer_label, "correct_answer_label")
            if raw.answer is not None and raw.answer.strip() != gold:
                raise record_error(path, at, "answer", f"{raw.answer!r} is not option "
                                                       f"{raw.correct_answer_label!r} ({gold!r})")
            questions.append(Question(id=f"mmworld-{video.video_id}-{number}", question=raw.question,
                                      choices=choices, answer=gold, category=video.discipline,
                                      media_id=video.video_id, source=NAME))
    return Dataset(path.stem, questions)
