"""The `2wiki` loader: 2WikiMultihopQA JSON Lines (or a JSON array of records).

- `context` becomes the question's corpus (one passage per title, ids `<question id>/<title>`) and
  `supporting_facts` the gold passage ids, as for HotpotQA.
- `evidences` triples become hops when they chain: each triple's subject is the previous triple's
  object (the same name, or one a word-prefix of the other, as "Thomas Stanley" and "Thomas
  Stanley, 1st Earl of Derby") and the last object is the answer. Hop k asks for the relation of
  its subject, written `#k-1` when the subject is the previous hop's object, and cites the k-th
  supporting paragraph when there is one per hop. This covers `compositional` and `inference`.
- Triples that do not chain to the answer (`comparison`, `bridge_comparison`: the answer is one of
  two compared items, or yes/no) keep no hops; the dataset's notes count them.
- `type` becomes the category.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, Field, StrictInt

from factprobe.eval.core.normalize import normalize_answer
from factprobe.eval.core.schema import Hop, Passage, Question
from factprobe.eval.datasets.hotpotqa import gold_passage_ids, read_records, titled_corpus
from factprobe.eval.datasets.raw import Text, parse_records
from factprobe.eval.datasets.registry import Dataset, loader
from factprobe.eval.datasets.relations import relation_question

NAME = "2wiki"


class RawRecord(BaseModel):
    id: str = Field(alias="_id")
    question: Text
    answer: Text
    type: str
    supporting_facts: list[tuple[str, StrictInt]]
    context: list[tuple[str, list[str]]] = Field(min_length=1)
    evidences: list[tuple[str, str, str]]


def same_entity(left: str, right: str) -> bool:
    """Equal after normalisation, or one is the other followed by more words."""
    a, b = normalize_answer(left), normalize_answer(right)
    if not a or not b:
        return False
    short, long = sorted((a, b), key=len)
    return long == short or long.startswith(short + " ")


def chain_hops(record: RawRecord, passages: dict[str, Passage]) -> list[Hop]:
    """Hops when the evidence triples chain to the answer, else []."""
    triples = record.evidences
    if not triples or not same_entity(triples[-1][2], record.answer):
        return []
    if any(not same_entity(subject, previous[2])
           for (subject, _, _), previous in zip(triples[1:], triples[:-1])):
        return []
    titles = list(dict.fromkeys(title for title, _ in record.supporting_facts))
    cited = ([[passages[title].id] if title in passages else [] for title in titles]
             if len(titles) == len(triples) else [[] for _ in triples])
    hops = [Hop(question=relation_question(subject if k == 0 else f"#{k}", relation),
                answer=obj.strip(), passage_ids=cited[k])
            for k, (subject, relation, obj) in enumerate(triples)]
    if hops[-1].answer != record.answer:
        hops[-1].aliases = [hops[-1].answer]
        hops[-1].answer = record.answer
    return hops


@loader("2wiki", "2WikiMultihopQA JSONL: paragraphs, evidence triples as hops", order=50)
def load(path: Path) -> Dataset:
    questions: list[Question] = []
    unchained = incomplete = 0
    for where, record in parse_records(path, read_records(path), RawRecord, "2WikiMultihopQA"):
        passages = titled_corpus(path, where, record.id, record.context)
        gold, missing = gold_passage_ids(passages, record.supporting_facts)
        incomplete += missing > 0
        hops = chain_hops(record, passages)
        unchained += not hops
        questions.append(Question(id=record.id, question=record.question, answer=record.answer,
                                  aliases=hops[-1].aliases if hops else [], category=record.type,
                                  hops=hops, passage_ids=gold, corpus=list(passages.values()),
                                  source=NAME))
    notes = []
    if unchained:
        notes.append(f"{unchained} of {len(questions)} records keep no hops: their evidence triples "
                     f"do not chain to the answer (comparison questions)")
    if incomplete:
        notes.append(f"{incomplete} of {len(questions)} records lack a supporting paragraph in their "
                     f"context; their gold passage ids list only the paragraphs present")
    return Dataset(path.stem, questions, notes=notes)
