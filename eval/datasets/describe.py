"""`factprobe datasets describe`: the counts a researcher checks before running on a dataset."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from factprobe.eval.core.schema import Question
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
        "with_media": sum(bool(q.media or q.media_id) for q in questions),
        "with_caption": sum(bool(q.caption) for q in questions),
        "fields": field_groups(questions),
        "notes": list(dataset.notes),
    }


def field_groups(questions: list[Question]) -> dict[str, dict[str, int]]:
    """Per descriptive field (Question.fields), the questions per value, most common first; a
    multi-label field counts a question once under each of its labels, and `(none)` counts the
    questions without the field."""
    groups: dict[str, Counter[str]] = {}
    for question in questions:
        for name, value in question.fields.items():
            labels = value if isinstance(value, list) else [value]
            groups.setdefault(name, Counter()).update(json_label(label) for label in labels)
    for name, counts in groups.items():
        absent = sum(name not in q.fields for q in questions)
        if absent:
            counts["(none)"] = absent
    return {name: dict(counts.most_common()) for name, counts in sorted(groups.items())}


def json_label(value: object) -> str:
    """A field value as a group label: text as it is, flags as `true`/`false`, numbers as written."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def missing_gold_passages(dataset: Dataset) -> int:
    """Gold passage ids (question's or hops') found neither in its own corpus nor the shared one."""
    shared = {passage.id for passage in dataset.corpus}
    missing = 0
    for question in dataset.questions:
        known = shared | {passage.id for passage in question.corpus}
        cited = set(question.passage_ids) | {i for hop in question.hops for i in hop.passage_ids}
        missing += len(cited - known)
    return missing


def describe_rows(description: dict[str, Any]) -> list[tuple[str, str]]:
    """The description as (key, value) rows for a terminal table: one row per descriptive field
    (`field NAME`) and per note, other values as compact JSON."""
    rows: list[tuple[str, str]] = []
    for key, value in description.items():
        if key == "fields":
            rows.extend((f"field {name}", json.dumps(counts, ensure_ascii=False)) for name, counts in value.items())
        elif key == "notes":
            rows.extend(("note", note) for note in value)
        else:
            rows.append((key, json.dumps(value, ensure_ascii=False) if isinstance(value, (dict, list)) else str(value)))
    return rows
