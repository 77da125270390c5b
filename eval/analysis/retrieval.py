"""Per-strategy retrieval quality: recall@k and MRR where gold passages are known.

Definitions are in retrieval.metrics: recall@k is the fraction of a question's gold passages (for
multi-hop questions the union of its hops' passages) found among the k passages retrieved for it,
averaged over questions; MRR averages 1 / rank of the first gold passage (0 when none was
retrieved). Only rows that retrieved (`retrieved_ids` set) and have gold passage ids count
(`retrieval_n`); a strategy without such rows gets None, not 0. `retrieval_k` is the largest k
the rows were retrieved with.
"""

from __future__ import annotations

from typing import Any

from factprobe.eval.analysis.metrics import mean
from factprobe.eval.analysis.summary import strategy_metric
from factprobe.eval.core.schema import Result
from factprobe.eval.store.slim_rows import trace_steps
from factprobe.retrieval.metrics import recall_at_k, reciprocal_rank


def row_k(row: Result) -> int:
    """The k this row retrieved with: the retrieve step's top_k, else the list's length."""
    ks = [int(step["top_k"]) for step in trace_steps(row, "retrieve") if "top_k" in step]
    return max(ks) if ks else len(row.retrieved_ids or [])


@strategy_metric(order=30)
def retrieval_scores(rows: list[Result]) -> dict[str, Any]:
    recalls: list[float] = []
    ranks: list[float] = []
    k: int | None = None
    scored = 0
    for row in rows:                                # one pass: 50,000 rows per strategy at scale
        retrieved, gold = row.retrieved_ids, row.gold_passage_ids
        if retrieved is None or not gold:
            continue
        scored += 1
        if (recall := recall_at_k(retrieved, gold)) is not None:
            recalls.append(recall)
        if (rank := reciprocal_rank(retrieved, gold)) is not None:
            ranks.append(rank)
        k = row_k(row) if k is None else max(k, row_k(row))
    return {"retrieval_recall_at_k": mean(recalls), "retrieval_mrr": mean(ranks), "retrieval_k": k,
            "retrieval_n": scored}
