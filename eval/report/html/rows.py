"""The question browser's data: one record per (question, strategy, repeat), embedded as JSON.

A record holds what the question is (id, text, gold, category, hop count) once, and one entry per
run with everything that run recorded for it (answer, grade, trace, probes, …). A single run's
report has one entry per record; the cross-run report has one per run (null where a run lacks it).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from typing import Any

from factprobe.eval.core.schema import Grade, Result
from factprobe.eval.store.slim_rows import SlimRow, row_dumps

Key = tuple[str, str, int]
SHARED_FIELDS = ("question_id", "strategy", "repeat", "question", "gold", "category", "hop_count",
                 "answerable")
GAINED, LOST = "gained", "lost"
VERSUS_JSON = {versus: json.dumps(versus) for versus in (None, GAINED, LOST)}
RECORDS_PER_CHUNK = 1000


def entry(row: Result) -> dict[str, Any]:
    """Everything the row recorded except the fields its record already holds."""
    data = row.model_dump(mode="json")
    for name in SHARED_FIELDS:
        data.pop(name, None)
    return data


def record(row: Result | SlimRow, entries: list[dict[str, Any] | None], versus: str | None = None) -> dict[str, Any]:
    return {"id": row.question_id, "strategy": row.strategy, "repeat": row.repeat,
            "question": row.question, "gold": row.gold, "category": row.category,
            "hops": row.hop_count, "answerable": row.answerable, "vs": versus, "e": entries}


def versus_baseline(row: Result | SlimRow, baseline_correct: dict[tuple[str, int], bool],
                    baseline: str | None) -> str | None:
    """GAINED when the row is CORRECT and the baseline's answer to the same question and repeat is
    not, LOST for the reverse; None for the baseline itself or a pair without a baseline row."""
    if baseline is None or row.strategy == baseline:
        return None
    base = baseline_correct.get((row.question_id, row.repeat))
    if base is None:
        return None
    correct = row.grade is Grade.CORRECT
    if correct and not base:
        return GAINED
    if base and not correct:
        return LOST
    return None


def run_records(rows: list[Result], baseline: str | None) -> list[dict[str, Any]]:
    """Records of one run's latest rows, each marked gained/lost against the baseline."""
    return list(iter_run_records(rows, baseline))


def iter_run_records(rows: Sequence[Result | SlimRow], baseline: str | None) -> Iterator[dict[str, Any]]:
    """`run_records`, one record at a time (a report streams them into the page). Slim rows read
    from a run directory are dumped from their lines, read again in one pass."""
    baseline_correct = {(row.question_id, row.repeat): row.grade is Grade.CORRECT
                        for row in rows if row.strategy == baseline}
    for row, data in zip(rows, row_dumps(rows)):
        versus = versus_baseline(row, baseline_correct, baseline)
        item = {"id": data["question_id"], "strategy": data["strategy"], "repeat": data["repeat"],
                "question": data["question"], "gold": data["gold"], "category": data["category"],
                "hops": data["hop_count"], "answerable": data["answerable"], "vs": versus}
        for name in SHARED_FIELDS:
            data.pop(name, None)
        item["e"] = [data]
        yield item


def iter_record_texts(rows: Sequence[Result | SlimRow], baseline: str | None) -> Iterator[str]:
    """`script_json` of each of `iter_run_records`, where a slim row whose line is a model dump as
    it stands is embedded as that line, unparsed: `{"vs": …, "e": [line]}`, the page reading the
    shared fields (id, question, …) from the entry (report.js). Other rows are whole records."""
    return (_escape(text) for text in _record_texts(rows, baseline))


def record_list_chunks(rows: Sequence[Result | SlimRow], baseline: str | None,
                       batch: int = RECORDS_PER_CHUNK) -> Iterator[str]:
    """`record_text_chunks(iter_record_texts(rows, baseline))`, escaped `batch` records at a time
    (one `_escape` per batch instead of per record)."""
    texts = _record_texts(rows, baseline)
    yield "["
    separator = ""
    while chunk := list(islice(texts, batch)):
        yield separator + _escape(",".join(chunk))
        separator = ","
    yield "]"


def _record_texts(rows: Sequence[Result | SlimRow], baseline: str | None) -> Iterator[str]:
    """The record texts of `iter_record_texts`, some not yet escaped (`_escape` leaves an escaped
    text as it is, so escaping them all once is right)."""
    file = rows[0].row_file if rows and isinstance(rows[0], SlimRow) else None
    slim = [row for row in rows if isinstance(row, SlimRow) and row.row_file is file]
    if file is None or len(slim) != len(rows):
        yield from (script_json(item) for item in iter_run_records(rows, baseline))
        return
    baseline_correct = {(row.question_id, row.repeat): row.grade is Grade.CORRECT
                        for row in slim if row.strategy == baseline}
    for row, line in zip(slim, file.lines(row.offset for row in slim)):
        versus = versus_baseline(row, baseline_correct, baseline)
        if row.plain:
            yield f'{{"vs":{VERSUS_JSON[versus]},"e":[{line.rstrip()}]}}'
        else:
            yield script_json(record(row, [entry(row.full())], versus))


def filter_choices(rows: list[Result] | list[SlimRow]) -> Iterator[dict[str, Any]]:
    """What `browser_meta` reads of each row's record, without the question texts."""
    for row in rows:
        yield {"strategy": row.strategy, "category": row.category, "hops": row.hop_count, "repeat": row.repeat}


def differing_records(runs: Sequence[Sequence[Result]],
                      names: Sequence[dict[str, str]] | None = None) -> list[dict[str, Any]]:
    """Records of the keys at least two runs answered with different grades, one entry per run.
    `names` gives, per run, the strategy name its strategies are matched under (a run's `refusal`
    under `vanilla vs refusal` when it is paired with the other's `vanilla`); by their own names
    without it."""
    by_run: list[dict[Key, Result]] = []
    for index, rows in enumerate(runs):
        shared = names[index] if names else {}
        by_run.append({(row.question_id, shared.get(row.strategy, row.strategy), row.repeat): row for row in rows})
    keys: dict[Key, None] = {}
    for found_rows in by_run:
        keys.update(dict.fromkeys(found_rows))
    records = []
    for key in keys:
        present = [found_rows.get(key) for found_rows in by_run]
        found = [row for row in present if row is not None]
        if len(found) >= 2 and len({row.grade for row in found}) > 1:
            item = record(found[0], [entry(row) if row else None for row in present])
            records.append({**item, "strategy": key[1]})
    return records


def script_json(value: Any) -> str:
    """JSON safe inside <script type="application/json">: no '<', '>' or '&' appears literally, so
    an answer holding "</script>" or "<!--" cannot end the block (JSON.parse restores them)."""
    return _escape(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def records_json(records: Iterable[dict[str, Any]]) -> str:
    """script_json of a list of records, serialised one record at a time."""
    return "".join(records_json_chunks(records))


def records_json_chunks(records: Iterable[dict[str, Any]]) -> Iterator[str]:
    """The text of `records_json(records)` in pieces, one record each, to be written as they come."""
    return record_text_chunks(script_json(item) for item in records)


def record_text_chunks(texts: Iterable[str]) -> Iterator[str]:
    """A JSON list of records already serialised (`script_json`), in pieces."""
    yield "["
    for number, text in enumerate(texts):
        yield ("," if number else "") + text
    yield "]"


def _escape(text: str) -> str:
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def browser_meta(records: Iterable[dict[str, Any]], runs: list[str], baseline: str | None) -> dict[str, Any]:
    """The choices of the browser's filters, in first-seen order (hop counts ascending); one pass."""
    strategies: dict[str, None] = {}
    categories, hops, repeat = set(), set(), -1
    for item in records:
        strategies.setdefault(item["strategy"])
        categories.add(item["category"])
        hops.add(item["hops"])
        repeat = max(repeat, item["repeat"])
    return {
        "runs": runs,
        "baseline": baseline,
        "strategies": list(strategies),
        "categories": sorted(categories),
        "hops": sorted(hops),
        "grades": [grade.value for grade in Grade],
        "repeats": max(repeat, 0) + 1,
    }
