"""What a results row records of its question's own descriptive fields, for grouping afterwards
(`--group-by`, factprobe.eval.analysis.groups)."""

from __future__ import annotations

from typing import Any

from factprobe.eval.core.schema import Question

# in the row already, or bulky: never copied into the row's `fields`
RECORD_SKIPPED = frozenset(("id", "question", "answer", "aliases", "hops", "choices", "passage_ids", "corpus",
                            "media", "caption", "fields", "metadata", "category", "answerable"))


def record_fields(question: Question) -> dict[str, Any]:
    """What a row records of its question for grouping: `Question.fields` (when the schema has it,
    or a `metadata` dict) and the record's other set scalar attributes (source, media_id, …)."""
    found: dict[str, Any] = {}
    for name, value in question:
        if name in RECORD_SKIPPED or value in (None, "") or not isinstance(value, (str, int, float, bool)):
            continue
        found[name] = value
    for extra in (question.model_extra, getattr(question, "metadata", None), getattr(question, "fields", None)):
        if isinstance(extra, dict):
            found.update({key: value for key, value in extra.items()
                          if isinstance(value, (str, int, float, bool, list))})
    return found
