"""The `hotpotqa` loader: HotpotQA distractor-setting JSON Lines (or a JSON array of records).

- `context` (titled paragraphs as sentence lists) becomes the question's corpus, one passage per
  title, with ids `<question id>/<title>`.
- `supporting_facts` titles become the gold passage ids. A supporting title missing from the
  context (some copies re-retrieved the context) cannot be retrieved, so it is left out of the gold
  ids; the dataset's notes count such records.
- `type`/`level` become the category (`bridge/hard`). HotpotQA gives no per-hop sub-questions,
  so questions are single-hop in factprobe's sense.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, Field, StrictInt

from factprobe.eval.core.schema import Passage, Question
from factprobe.eval.datasets.raw import Text, json_records, jsonl_records, parse_records, record_error
from factprobe.eval.datasets.registry import Dataset, loader

NAME = "hotpotqa"


class RawRecord(BaseModel):
    id: str = Field(alias="_id")
    question: Text
    answer: Text
    type: str
    level: str
    supporting_facts: list[tuple[str, StrictInt]]
    context: list[tuple[str, list[str]]] = Field(min_length=1)


def paragraph_text(sentences: list[str]) -> str:
    return " ".join(sentence.strip() for sentence in sentences if sentence.strip())


def titled_corpus(path: Path, where: str, question_id: str,
                  context: list[tuple[str, list[str]]]) -> dict[str, Passage]:
    """One passage per context title (shared with the 2wiki loader).

    A title repeated with the same text (2Wiki has a few) is kept once; with different text it is
    an error, since supporting facts name paragraphs by title.
    """
    passages: dict[str, Passage] = {}
    for title, sentences in context:
        text = paragraph_text(sentences)
        if title in passages:
            if passages[title].text != text:
                raise record_error(path, where, "context",
                                   f"the title {title!r} appears twice with different text")
            continue
        passages[title] = Passage(id=f"{question_id}/{title}", title=title, text=text)
    return passages


def gold_passage_ids(passages: dict[str, Passage],
                     supporting: list[tuple[str, int]]) -> tuple[list[str], int]:
    """Ids of the supporting titles present in the corpus, in order, and how many are missing."""
    titles = list(dict.fromkeys(title for title, _ in supporting))
    present = [passages[title].id for title in titles if title in passages]
    return present, len(titles) - len(present)


def read_records(path: Path) -> list[tuple[str, dict]]:
    """JSON Lines, or the original HotpotQA release's single JSON array."""
    if path.suffix == ".json":
        return json_records(path)
    return jsonl_records(path)


@loader("hotpotqa", "HotpotQA distractor JSONL: 10 paragraphs, supporting facts", order=40)
def load(path: Path) -> Dataset:
    questions: list[Question] = []
    incomplete = 0
    for where, record in parse_records(path, read_records(path), RawRecord, "HotpotQA"):
        passages = titled_corpus(path, where, record.id, record.context)
        gold, missing = gold_passage_ids(passages, record.supporting_facts)
        incomplete += missing > 0
        questions.append(Question(id=record.id, question=record.question,
                                  answer=record.answer, category=f"{record.type}/{record.level}",
                                  passage_ids=gold, corpus=list(passages.values()), source=NAME))
    notes = []
    if incomplete:
        notes.append(f"{incomplete} of {len(questions)} records lack a supporting paragraph in their "
                     f"context; their gold passage ids list only the paragraphs present")
    return Dataset(path.stem, questions, notes=notes)
