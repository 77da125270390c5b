"""Retrieval quality where gold passages are known.

For one question with gold passage set G (for a multi-hop question, the union of its hops'
passages) and retrieved list R (best first, the k passages given to the model):

- recall@k = |G ∩ R| / |G|: the fraction of the question's gold passages that were retrieved;
- reciprocal rank = 1 / (position of the first gold passage in R), 0 when none was retrieved.

Both are averaged over the questions that have gold passages and were retrieved for; a question
without gold passages, or a row without retrieval, has no value (None), never 0.
"""

from __future__ import annotations

from typing import Sequence

from factprobe.eval.core.schema import Question


def gold_passage_ids(question: Question) -> list[str]:
    """The question's gold passage ids united with its hops', in first-seen order."""
    ids: list[str] = []
    for pid in [*question.passage_ids, *(pid for hop in question.hops for pid in hop.passage_ids)]:
        if pid not in ids:
            ids.append(pid)
    return ids


def recall_at_k(retrieved: Sequence[str], gold: Sequence[str], k: int | None = None) -> float | None:
    """Fraction of gold passages among the first k retrieved (all of them when k is None)."""
    if not gold:
        return None
    top = set(retrieved if k is None else retrieved[:k])
    return sum(1 for pid in set(gold) if pid in top) / len(set(gold))


def reciprocal_rank(retrieved: Sequence[str], gold: Sequence[str]) -> float | None:
    """1 / rank of the first gold passage retrieved; 0.0 when none is; None without gold."""
    if not gold:
        return None
    wanted = set(gold)
    for rank, pid in enumerate(retrieved, start=1):
        if pid in wanted:
            return 1.0 / rank
    return 0.0
