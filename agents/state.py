"""The typed state every strategy graph reads and writes."""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict

from factprobe.eval.core.schema import CallRecord, HopResult, Question


class QAState(TypedDict, total=False):
    """State of one (question, strategy, repeat) run through a strategy graph.

    List fields with `operator.add` accumulate across nodes: every node appends its trace steps
    and model-call records instead of replacing them.
    """

    question: Question
    repeat: int
    messages: list[dict[str, str]]
    raw: str
    answer: str | None
    confidence: float | None
    context: list[dict[str, Any]]
    queries: list[str]
    retrieved_ids: list[str]
    samples: list[dict[str, Any]]
    hops: list[HopResult]
    round: int
    extra: dict[str, Any]
    trace: Annotated[list[dict[str, Any]], operator.add]
    calls: Annotated[list[CallRecord], operator.add]
    retrieval_latency_s: Annotated[float, operator.add]
    other_latency_s: Annotated[float, operator.add]  # a user graph's time outside model calls
