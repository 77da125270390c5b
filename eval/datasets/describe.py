"""`factprobe datasets describe`: the counts a researcher checks before running on a dataset."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from factprobe.eval.core.schema import Question
from factprobe.eval.datasets.media_statistics import Probe, duration_statistics, media_statistics
from factprobe.eval.datasets.question_types import TYPING, question_types
from factprobe.eval.datasets.registry import Dataset
from factprobe.eval.datasets.text_statistics import WORD_COUNTING, option_statistics, per_category, word_statistics


def describe_dataset(dataset: Dataset, probe: Probe | None = None) -> dict[str, Any]:
    """The counts, and under `statistics` the lengths, option positions, media and durations
    (`probe` reads a video's duration when the record has none: `--media DIR`)."""
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
        "statistics": dataset_statistics(questions, probe),
    }


def dataset_statistics(questions: list[Question], probe: Probe | None = None) -> dict[str, Any]:
    """Words per question, answer and option, option letters, question types, distinct media and
    durations, overall and (words, letters) per category (factprobe.eval.datasets.text_statistics,
    .question_types, .media_statistics)."""
    return {"word_counting": WORD_COUNTING,
            "words": word_statistics(questions),
            "question_types": question_types(questions),
            "question_typing": TYPING,
            "options": option_statistics(questions),
            "media": media_statistics(questions),
            "durations": duration_statistics(questions, probe),
            "per_category": per_category(questions)}


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
        elif key == "statistics":
            rows.extend(statistics_rows(value))
        else:
            rows.append((key, json.dumps(value, ensure_ascii=False) if isinstance(value, (dict, list)) else str(value)))
    return rows


def words_text(summary: dict[str, Any]) -> str:
    return "-" if not summary["n"] else (f"mean {summary['mean']}, median {summary['median']}, max {summary['max']} "
                                         f"(n {summary['n']})")


def letters_text(counts: dict[str, int]) -> str:
    total = sum(counts.values())
    return ", ".join(f"{letter} {n} ({100 * n / total:.1f} %)" for letter, n in counts.items()) or "-"


def durations_text(durations: dict[str, Any]) -> str:
    if not durations["n"]:
        return "none read"
    return (f"n {durations['n']}: mean {durations['mean_s']} s, median {durations['median_s']} s, "
            f"{durations['min_s']}–{durations['max_s']} s")


def statistics_rows(stats: dict[str, Any]) -> list[tuple[str, str]]:
    """The `statistics` block as table rows: words, option letters, media and durations, then the
    words and letters per category."""
    rows = [(f"words per {name}", words_text(summary)) for name, summary in stats["words"].items()]
    rows.append(("word counting", stats["word_counting"]))
    rows.append(("question types", ", ".join(f"{name} {n}" for name, n in stats["question_types"].items()) or "-"))
    options = stats["options"]
    if options:
        rows += [("options per question", json.dumps(options["options_per_question"])),
                 ("right option letter", letters_text(options["right_letter"]))]
        if options["refusal_letter"]:
            rows.append(("refusal option letter", letters_text(options["refusal_letter"])))
    media = stats["media"]
    if media["distinct"]:
        rows.append(("distinct media", f"{media['distinct']} ({media['questions_with_media']} questions)"))
        rows.append(("media per category", json.dumps(media["per_category"], ensure_ascii=False)))
        rows += [(f"media per {name}", json.dumps(counts, ensure_ascii=False))
                 for name, counts in media["per_field"].items()]
    durations = stats["durations"]
    if durations:
        rows.append(("durations", durations_text(durations)))
        if durations["without_duration"]:
            rows.append(("without duration", json.dumps(durations["without_duration"], ensure_ascii=False)))
    for category, entry in stats["per_category"].items():
        rows.append((f"{category}: words", "; ".join(f"{name} {summary['mean']}"
                                                     for name, summary in entry["words"].items() if summary["n"])))
        if "options" in entry:
            rows.append((f"{category}: right letter", letters_text(entry["options"]["right_letter"])))
            if entry["options"]["refusal_letter"]:
                rows.append((f"{category}: refusal letter", letters_text(entry["options"]["refusal_letter"])))
    return rows
