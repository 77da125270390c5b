"""`factprobe datasets describe`: the counts a researcher checks before running on a dataset."""

from __future__ import annotations

from collections import Counter
from typing import Any

from factprobe.eval.datasets.registry import Dataset


def describe_dataset(dataset: Dataset) -> dict[str, Any]:
    questions = dataset.questions
    per_question_corpus = sum(len(q.corpus) for q in questions)
    return {
        "name": dataset.name,
        "records": len(questions),
        "hops": dict(sorted(Counter(q.hop_count for q in questions).items())),
        "categories": dict(Counter(q.category for q in questions).most_common()),
        "answerable": sum(q.answerable for q in questions),
        "unanswerable": sum(not q.answerable for q in questions),
        "unanswerable_reasons": dict(Counter(q.unanswerable_reason for q in questions
                                             if not q.answerable and q.unanswerable_reason)),
        "with_gold_hops": sum(bool(q.hops) for q in questions),
        "with_gold_passages": sum(bool(q.passage_ids) for q in questions),
        "gold_passages_not_in_corpus": missing_gold_passages(dataset),
        "multiple_choice": sum(q.choices is not None for q in questions),
        "corpus_passages": len(dataset.corpus),
        "with_own_corpus": sum(bool(q.corpus) for q in questions),
        "per_question_corpus_passages": per_question_corpus,
        "sources": dict(Counter(q.source for q in questions).most_common()),
        "notes": list(dataset.notes),
    }


def missing_gold_passages(dataset: Dataset) -> int:
    """Gold passage ids (question's or hops') found neither in its own corpus nor the shared one."""
    shared = {passage.id for passage in dataset.corpus}
    missing = 0
    for question in dataset.questions:
        known = shared | {passage.id for passage in question.corpus}
        cited = set(question.passage_ids) | {i for hop in question.hops for i in hop.passage_ids}
        missing += len(cited - known)
    return missing
