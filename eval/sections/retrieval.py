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

from factprobe.eval.metrics import mean
from factprobe.eval.schema import Result
from factprobe.eval.slim_rows import trace_steps
from factprobe.eval.summary import strategy_metric
from factprobe.retrieval.metrics import recall_at_k, reciprocal_rank


def row_k(row: Result) -> int:
    """The k this row retrieved with: the retrieve step's top_k, else the list's length."""
    ks = [int(step["top_k"]) for step in trace_steps(row, "retrieve") if "top_k" in step]
    return max(ks) if ks else len(row.retrieved_ids or [])


@strategy_metric
def retrieval_scores(rows: list[Result]) -> dict[str, Any]:
    scored = [row for row in rows if row.retrieved_ids is not None and row.gold_passage_ids]
    recalls = [recall_at_k(row.retrieved_ids or [], row.gold_passage_ids or []) for row in scored]
    ranks = [reciprocal_rank(row.retrieved_ids or [], row.gold_passage_ids or []) for row in scored]
    return {
        "retrieval_recall_at_k": mean([r for r in recalls if r is not None]),
        "retrieval_mrr": mean([r for r in ranks if r is not None]),
        "retrieval_k": max((row_k(row) for row in scored), default=None),
        "retrieval_n": len(scored),
    }
