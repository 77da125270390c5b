"""The `jsonl` loader: factprobe's native schema (eval.schema.Question), one object per line.

A record without a `source` gets the file's name (without suffix) as its source.
"""

from __future__ import annotations

from pathlib import Path

from factprobe.eval.core.schema import Question
from factprobe.eval.datasets.raw import check_hop_references, jsonl_records, parse_records, record_error
from factprobe.eval.datasets.registry import Dataset, loader


def check_filled(path: Path, where: str, question: Question) -> None:
    """Text the schema's types allow but a run cannot use: empty ids, questions and answers, and an
    answerable question without an answer."""
    blank = [name for name in ("id", "question") if not getattr(question, name).strip()]
    blank += [f"hops.{i}.{name}" for i, hop in enumerate(question.hops) for name in ("question", "answer")
              if not getattr(hop, name).strip()]
    if question.answer is not None and not question.answer.strip():
        blank.append("answer")
    if blank:
        raise record_error(path, where, blank[0], "must not be empty")
    if question.answerable and question.answer is None:
        raise record_error(path, where, "answer", "is null, but the question is answerable "
                           "(give the answer, or set `answerable` to false)")
    if question.choices is not None and question.answer is not None and question.answer not in question.choices:
        raise record_error(path, where, "answer", f"{question.answer!r} is not one of the `choices` "
                           f"(give the gold option's exact text)")


@loader("jsonl", "factprobe's native schema, one Question per line", order=10)
def load(path: Path) -> Dataset:
    questions, located = [], {}
    for where, question in parse_records(path, jsonl_records(path), Question, "factprobe's native schema"):
        check_filled(path, where, question)
        check_hop_references(path, where, question.hops)
        questions.append(question if question.source else question.model_copy(update={"source": path.stem}))
        located[question.id] = where
    return Dataset(path.stem, questions, where=located)
