"""Deterministic stratified subsets, so a small run still covers every hop count and unanswerables."""

from __future__ import annotations

import random
from collections import defaultdict

from factprobe.eval.core.schema import Question


def stratum(question: Question) -> tuple[bool, int]:
    return (question.answerable, question.hop_count)


def stratified_subset(questions: list[Question], limit: int, seed: int = 0) -> list[Question]:
    """`limit` questions taken round-robin across (answerable, hop count) strata, seeded.

    The result keeps the dataset's order, so runs with the same seed ask the same questions.
    """
    if limit >= len(questions):
        return list(questions)
    groups: dict[tuple[bool, int], list[Question]] = defaultdict(list)
    for question in questions:
        groups[stratum(question)].append(question)
    rng = random.Random(seed)
    queues = []
    for key in sorted(groups):
        members = list(groups[key])
        rng.shuffle(members)
        queues.append(members)
    chosen: set[str] = set()
    while len(chosen) < limit:
        for queue in queues:
            if queue and len(chosen) < limit:
                chosen.add(queue.pop().id)
    return [q for q in questions if q.id in chosen]
