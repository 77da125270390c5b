"""The `videosimpleqa` loader: Video SimpleQA's own JSON (a list of records, one per question).

A record holds `date` (the video's id: the benchmark names its videos `<date>.mp4`), the per-hop
sub-QAs `QA_Pair_k_Question`/`QA_Pair_k_Answer` for k = 1, 2, … (2 to 4 of them, in order), and
`Multi_hop_Question`/`Multi_hop_Answer`. Hop 1 asks about the video itself; hop k's question names
hop k−1's answer in words, so the hops keep the benchmark's text as written (no `#k` references):
a sub-QA probe asks exactly the gold sub-question.

- id: `vsqa-<date>-<position>-<hash>`, the record's 1-based position in the file and the first 8
  hex digits of the SHA-1 of its multi-hop question. Several records share a video, so the date
  alone is not an id; the position makes ids unique within a file, the hash keeps an id from
  silently naming a different question when a file is edited.
- `media_id` is the date; the videos are not part of the JSON.
- category: the record's `category` when it has one; the released JSON has none (the benchmark
  keeps its categories in a separate file), so it is `<k>_hops`, the number of sub-QAs.
- A record whose last sub-answer differs from `Multi_hop_Answer` keeps its hops (the sample has
  one: an encoding artefact, "km?" for "km²"); the dataset's notes count such records.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from factprobe.eval.core.schema import Hop, Question
from factprobe.eval.datasets.raw import AnswerText, Text, json_records, parse_records, record_error
from factprobe.eval.datasets.registry import Dataset, loader

NAME = "videosimpleqa"
MIN_HOPS, MAX_HOPS = 2, 4
PAIR_FIELD = re.compile(r"QA_Pair_(\d+)_(Question|Answer)")


class RawRecord(BaseModel):
    model_config = ConfigDict(extra="allow")

    date: Text
    Multi_hop_Question: Text
    Multi_hop_Answer: AnswerText
    category: Text | None = None


def question_id(date: str, position: int, question: str) -> str:
    """`vsqa-<date>-<position>-<hash>`: unique within a file by position, tied to the text by hash."""
    digest = hashlib.sha1(question.encode("utf-8")).hexdigest()[:8]
    return f"vsqa-{date}-{position}-{digest}"


def sub_qas(path: Path, where: str, fields: dict[str, object]) -> list[Hop]:
    """The record's QA_Pair_k sub-QAs as hops, k = 1, 2, … without gaps, each with both parts."""
    numbers = sorted({int(match.group(1)) for name in fields if (match := PAIR_FIELD.fullmatch(name))})
    if numbers != list(range(1, len(numbers) + 1)):
        raise record_error(path, where, "QA_Pair_k", f"sub-QAs must be numbered 1, 2, … without gaps, got {numbers}")
    if not MIN_HOPS <= len(numbers) <= MAX_HOPS:
        raise record_error(path, where, "QA_Pair_k", f"expected {MIN_HOPS} to {MAX_HOPS} sub-QAs, got {len(numbers)}")
    hops: list[Hop] = []
    for number in numbers:
        question, answer = fields.get(f"QA_Pair_{number}_Question"), fields.get(f"QA_Pair_{number}_Answer")
        for name, value in ((f"QA_Pair_{number}_Question", question), (f"QA_Pair_{number}_Answer", answer)):
            if not isinstance(value, (str, int, float)) or not str(value).strip():
                raise record_error(path, where, name, "missing or empty")
        hops.append(Hop(question=str(question).strip(), answer=str(answer).strip()))
    return hops


@loader("videosimpleqa", "Video SimpleQA JSON: 2-4 per-hop sub-QAs, video id as media_id", order=100)
def load(path: Path) -> Dataset:
    questions: list[Question] = []
    differing = 0
    records = parse_records(path, json_records(path), RawRecord, "Video SimpleQA")
    for position, (where, record) in enumerate(records, start=1):
        hops = sub_qas(path, where, record.model_extra or {})
        differing += hops[-1].answer != record.Multi_hop_Answer
        questions.append(Question(
            id=question_id(record.date, position, record.Multi_hop_Question),
            question=record.Multi_hop_Question, answer=record.Multi_hop_Answer,
            category=record.category or f"{len(hops)}_hops", hops=hops, media_id=record.date,
            source=NAME))
    notes = [f"{len(questions)} questions ask about a video (media_id = date) whose frames this file does not "
             f"hold: a run without media answers them text-only (see summary `video_evidence`)"]
    if differing:
        notes.append(f"{differing} records keep hops whose last answer differs from Multi_hop_Answer")
    return Dataset(path.stem, questions, notes=notes)
