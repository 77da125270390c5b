"""The `videosimpleqa` loader: Video SimpleQA's own JSON (a list of records, one per question).

A record holds `date` (the video's id: the benchmark names its videos `<date>.mp4`), the per-hop
sub-QAs `QA_Pair_k_Question`/`QA_Pair_k_Answer` for k = 1, 2, … (2 to 4 of them, in order), and
`Multi_hop_Question`/`Multi_hop_Answer`. Hop 1 asks about the video itself; hop k's question names
hop k−1's answer in words, so the hops keep the benchmark's text as written (no `#k` references):
a sub-QA probe asks exactly the gold sub-question. Values are stripped; numbers (older copies of
the release write some answers as JSON numbers) are kept as their text.

- id: `vsqa-<date>-<position>-<hash>`, the record's 1-based position in the file and the first 8
  hex digits of the SHA-1 of its multi-hop question. Several records share a video, so the date
  alone is not an id; the position makes ids unique within a file, the hash keeps an id from
  silently naming a different question when a file is edited.
- `media_id` is the date; the videos are not part of the JSON.
- category: the record's `category` when it has one; the released JSON has none (the benchmark
  keeps its categories in a separate file), so it is `<k>_hops`, the number of sub-QAs loaded.
- Damaged records are loaded without their empty parts, never refusing the file: a sub-QA whose
  question or answer is empty is dropped; a record whose `date`, `Multi_hop_Question` or
  `Multi_hop_Answer` is empty has nothing to ask and is skipped. The release has one such record
  (4-hop keys, the fourth sub-QA and the multi-hop question and answer empty), so its 1,504 records
  load as 1,503 questions. Each repair and skip is named in the dataset's notes by record number
  and array index. A missing key, a value of the wrong type or sub-QAs numbered with gaps are
  still errors: the file is not in the released shape.
- A record whose last sub-answer differs from `Multi_hop_Answer` keeps its hops (the release has
  such records: e.g. an encoding artefact, "km?" for "km²"); the dataset's notes count them.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from pydantic import BaseModel, ConfigDict, StrictFloat, StrictInt

from factprobe.eval.core.schema import Hop, Question
from factprobe.eval.datasets.raw import json_records, parse_records, record_error
from factprobe.eval.datasets.registry import Dataset, loader

NAME = "videosimpleqa"
MIN_HOPS, MAX_HOPS = 2, 4
PAIR_FIELD = re.compile(r"QA_Pair_(\d+)_(Question|Answer)")
LISTED_REPAIRS = 20   # repairs named one by one in the notes; the rest are counted
Value = str | StrictInt | StrictFloat


class RawRecord(BaseModel):
    model_config = ConfigDict(extra="allow")

    date: str
    Multi_hop_Question: Value
    Multi_hop_Answer: Value
    category: str | None = None


def text(value: object) -> str:
    return str(value).strip()


def question_id(date: str, position: int, question: str) -> str:
    """`vsqa-<date>-<position>-<hash>`: unique within a file by position, tied to the text by hash."""
    digest = hashlib.sha1(question.encode("utf-8")).hexdigest()[:8]
    return f"vsqa-{date}-{position}-{digest}"


def sub_qas(path: Path, where: str, fields: dict[str, object]) -> tuple[list[Hop], list[str]]:
    """The record's QA_Pair_k sub-QAs as hops, k = 1, 2, … without gaps, and the fields of the
    sub-QAs dropped because a part is empty."""
    numbers = sorted({int(match.group(1)) for name in fields if (match := PAIR_FIELD.fullmatch(name))})
    if numbers != list(range(1, len(numbers) + 1)):
        raise record_error(path, where, "QA_Pair_k", f"sub-QAs must be numbered 1, 2, … without gaps, got {numbers}")
    if not MIN_HOPS <= len(numbers) <= MAX_HOPS:
        raise record_error(path, where, "QA_Pair_k", f"expected {MIN_HOPS} to {MAX_HOPS} sub-QAs, got {len(numbers)}")
    hops: list[Hop] = []
    dropped: list[str] = []
    for number in numbers:
        names = (f"QA_Pair_{number}_Question", f"QA_Pair_{number}_Answer")
        values = [fields.get(name) for name in names]
        for name, value in zip(names, values):
            if value is None:
                raise record_error(path, where, name, "missing")
            if not isinstance(value, (str, int, float)) or isinstance(value, bool):
                raise record_error(path, where, name, f"expected text, got {type(value).__name__}")
        empty = [name for name, value in zip(names, values) if not text(value)]
        if empty:
            dropped.extend(empty)
            continue
        hops.append(Hop(question=text(values[0]), answer=text(values[1])))
    return hops, dropped


def repair_note(where: str, position: int, date: str, action: str) -> str:
    return f"{where} (array index {position - 1}, date {date or '(empty)'}): {action}"


@loader("videosimpleqa", "Video SimpleQA JSON: 2-4 per-hop sub-QAs, video id as media_id", order=100)
def load(path: Path) -> Dataset:
    questions: list[Question] = []
    repairs: list[str] = []
    differing = skipped = 0
    records = parse_records(path, json_records(path), RawRecord, "Video SimpleQA")
    for position, (where, record) in enumerate(records, start=1):
        hops, dropped = sub_qas(path, where, record.model_extra or {})
        date, final_question, final_answer = (text(record.date), text(record.Multi_hop_Question),
                                              text(record.Multi_hop_Answer))
        empty = [name for name, value in (("date", date), ("Multi_hop_Question", final_question),
                                          ("Multi_hop_Answer", final_answer)) if not value]
        if empty:
            skipped += 1
            repairs.append(repair_note(where, position, date, f"skipped: {', '.join(empty + dropped)} empty"))
            continue
        if dropped:
            repairs.append(repair_note(where, position, date, f"loaded without its empty {', '.join(dropped)} "
                                                              f"({len(hops)} sub-QAs kept)"))
        differing += bool(hops) and hops[-1].answer != final_answer
        questions.append(Question(
            id=question_id(date, position, final_question), question=final_question, answer=final_answer,
            category=(record.category or "").strip() or f"{len(hops)}_hops", hops=hops, media_id=date,
            source=NAME))
    notes = [f"{len(questions)} questions ask about a video (media_id = date) whose frames this file does not "
             f"hold: a run without media answers them text-only (see summary `video_evidence`)"]
    if repairs:
        notes.append(f"{len(records)} records: {skipped} skipped, {len(repairs) - skipped} loaded without "
                     f"empty parts")
        notes.extend(repairs[:LISTED_REPAIRS])
        if len(repairs) > LISTED_REPAIRS:
            notes.append(f"… and {len(repairs) - LISTED_REPAIRS} more records repaired or skipped")
    if differing:
        notes.append(f"{differing} records keep hops whose last answer differs from Multi_hop_Answer")
    return Dataset(path.stem, questions, notes=notes)
