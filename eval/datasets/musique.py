"""The `musique` loader: MuSiQue (Ans or Full) JSON Lines.

- Hops come from `question_decomposition`. A hop written as `entity >> relation` becomes a natural
  question through eval.datasets.relations ("#1 >> capital" -> "What is the capital of #1?"); `#k`
  references stay in Hop.question, and Hop.render substitutes earlier answers.
- The 20 `paragraphs` become the question's corpus with ids `<question id>/p<idx>`; each hop cites
  its `paragraph_support_idx`, and the question's gold passages are those with `is_supporting`.
- The category is the id's reasoning type (`2hop`, `3hop1`, `4hop3`, ...).
- An `answerable: false` record (MuSiQue-Full) keeps its corpus but no answer and no hops: its
  paragraphs do not support the answer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, StrictBool, StrictInt

from factprobe.eval.core.normalize import normalize_answer
from factprobe.eval.core.schema import Hop, Passage, Question
from factprobe.eval.datasets.raw import (
    Text,
    answer_and_aliases,
    check_hop_references,
    jsonl_records,
    parse_records,
    record_error,
)
from factprobe.eval.datasets.registry import Dataset, loader
from factprobe.eval.datasets.relations import relation_question, tidy_question

NAME = "musique"


class RawParagraph(BaseModel):
    idx: StrictInt
    title: str = ""
    paragraph_text: str
    is_supporting: StrictBool = False


class RawStep(BaseModel):
    question: Text
    answer: Text
    paragraph_support_idx: StrictInt | None = None


class RawRecord(BaseModel):
    id: Text
    question: Text
    answer: str
    answer_aliases: list[str] = Field(default_factory=list)
    answerable: StrictBool = True
    paragraphs: list[RawParagraph] = Field(min_length=1)
    question_decomposition: list[RawStep] = Field(min_length=1)


def passage_id(question_id: str, idx: int) -> str:
    return f"{question_id}/p{idx}"


def natural_question(text: str) -> str | None:
    """`entity >> relation` as a question, a written sub-question tidied; None when malformed."""
    if ">>" not in text:
        return tidy_question(text)
    entity, _, relation = text.partition(">>")
    if not entity.strip() or not relation.strip() or ">>" in relation:
        return None
    return relation_question(entity, relation)


def build_hops(path: Path, where: str, record: RawRecord, paragraph_ids: dict[int, str]) -> list[Hop]:
    hops: list[Hop] = []
    for number, step in enumerate(record.question_decomposition, start=1):
        field = f"question_decomposition.{number - 1}"
        question = natural_question(step.question)
        if question is None:
            raise record_error(path, where, f"{field}.question",
                               f"cannot read {step.question!r} as `entity >> relation`")
        hop = Hop(question=question, answer=step.answer)
        if step.paragraph_support_idx is not None:
            if step.paragraph_support_idx not in paragraph_ids:
                raise record_error(path, where, f"{field}.paragraph_support_idx",
                                   f"no paragraph has idx {step.paragraph_support_idx}")
            hop.passage_ids = [paragraph_ids[step.paragraph_support_idx]]
        hops.append(hop)
    check_hop_references(path, where, hops, "question_decomposition.{index}.question")
    return hops


def to_question(path: Path, where: str, record: RawRecord) -> Question:
    paragraph_ids: dict[int, str] = {}
    corpus: list[Passage] = []
    for paragraph in record.paragraphs:
        if paragraph.idx in paragraph_ids:
            raise record_error(path, where, "paragraphs", f"idx {paragraph.idx} appears twice")
        paragraph_ids[paragraph.idx] = passage_id(record.id, paragraph.idx)
        corpus.append(Passage(id=paragraph_ids[paragraph.idx], title=paragraph.title,
                              text=paragraph.paragraph_text))
    gold = [paragraph_ids[p.idx] for p in record.paragraphs if p.is_supporting]
    common: dict[str, Any] = dict(id=record.id, question=record.question, category=record.id.split("__")[0],
                                  passage_ids=gold, corpus=corpus, source=NAME)
    hops = build_hops(path, where, record, paragraph_ids)
    if not record.answerable:
        return Question(**common, answer=None, answerable=False,
                        unanswerable_reason="the paragraphs do not support an answer")
    answer = record.answer.strip()
    if not answer:
        raise record_error(path, where, "answer", "an answerable record needs an answer")
    if normalize_answer(hops[-1].answer) != normalize_answer(answer):
        raise record_error(path, where, "question_decomposition",
                           f"the last hop's answer {hops[-1].answer!r} differs from the answer {answer!r}")
    _, aliases = answer_and_aliases([answer, *record.answer_aliases])
    hops[-1].answer, hops[-1].aliases = answer, aliases
    return Question(**common, answer=answer, aliases=aliases, hops=hops)


@loader("musique", "MuSiQue JSONL: 2-4 hop chains, 20 paragraphs per question", order=30)
def load(path: Path) -> Dataset:
    records = parse_records(path, jsonl_records(path), RawRecord, "MuSiQue")
    return Dataset(path.stem, [to_question(path, where, record) for where, record in records])
