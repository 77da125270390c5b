"""Difficulty against how often each item's entity occurs in a model's training data (WorldVQA
Fig. 4: `factprobe difficulty … --entity-counts FILE`).

The counts file has MetaCLIP's published `entry_counts_400m.json` shape: one JSON object, entry →
number of occurrences (a whole number ≥ 0). An item's entity is its gold answer (WorldVQA's answer is
the entity), or the question field `--entity-field` names. It is looked up as written, else by its
case-folded, space-collapsed form (several entries with that form: the largest count).

An entity's frequency percentile is the mid-rank of its count among all the file's counts, as a
percentage (0: rarest, 100: most frequent; entries with equal counts share one percentile): the
rank percentile WorldVQA plots. Per difficulty tier (the runs' tiers, and the released `difficulty`
field when the items have one) the percentiles' n, mean and sample standard deviation are the
normal curve fitted to them; the table splits the percentiles into equal-width bins and gives each
bin's items and accuracy (the share of runs answering correctly, over its items). Items whose
entity the file lacks are counted as unmatched and left out of both.
"""

from __future__ import annotations

import bisect
import json
import re
import statistics
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from factprobe.eval.core.errors import DatasetError

ANSWER = "answer"
BINS = 5


class EntityCountsError(DatasetError):
    """A counts file that cannot be read as an entry → count object."""


def fold(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip()).casefold()


def read_entity_counts(path: Path) -> dict[str, int]:
    """The file's entry → count object; EntityCountsError naming the file (and entry) otherwise."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise EntityCountsError(f"--entity-counts {path}: cannot be read ({exc})") from None
    except json.JSONDecodeError as exc:
        raise EntityCountsError(f"--entity-counts {path}, line {exc.lineno}: not JSON ({exc.msg})") from None
    if not isinstance(data, dict) or not data:
        raise EntityCountsError(f"--entity-counts {path}: expected one non-empty JSON object of entry → count "
                                f"(MetaCLIP's entry_counts format)")
    for entry, count in data.items():
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise EntityCountsError(f"--entity-counts {path}, entry {entry!r}: the count must be a whole number "
                                    f"≥ 0, got {count!r}")
    return data


class FrequencyIndex:
    """Counts and their rank percentiles, looked up by entity."""

    def __init__(self, counts: Mapping[str, int]) -> None:
        self.counts = dict(counts)
        self.folded: dict[str, int] = {}
        for entry, count in counts.items():
            key = fold(entry)
            self.folded[key] = max(count, self.folded.get(key, count))
        self.sorted = sorted(counts.values())

    def count(self, entity: str) -> int | None:
        found = self.counts.get(entity)
        return found if found is not None else self.folded.get(fold(entity))

    def percentile(self, count: int) -> float:
        """The mid-rank percentile of `count` among the file's counts."""
        below = bisect.bisect_left(self.sorted, count)
        equal = bisect.bisect_right(self.sorted, count) - below
        return 100 * (below + equal / 2) / len(self.sorted)


def item_entity(row_gold: str | None, fields: Mapping[str, Any], field: str) -> str | None:
    value = row_gold if field == ANSWER else fields.get(field)
    return value.strip() if isinstance(value, str) and value.strip() else None


def fitted(values: list[float]) -> dict[str, Any]:
    """n, mean and sample sd (None for fewer than two values) of percentiles."""
    if not values:
        return {"n": 0, "mean": None, "sd": None}
    sd = statistics.stdev(values) if len(values) > 1 else None
    return {"n": len(values), "mean": round(statistics.fmean(values), 2), "sd": None if sd is None else round(sd, 2)}


def bin_table(items: list[dict[str, Any]], bins: int) -> list[dict[str, Any]]:
    """Equal-width percentile bins: each one's range, items and accuracy (None when empty)."""
    width = 100 / bins
    table = []
    for index in range(bins):
        low, high = index * width, (index + 1) * width
        last = index == bins - 1
        members = [item for item in items
                   if low <= item["frequency_percentile"] < high or (last and item["frequency_percentile"] == 100)]
        accuracy = (sum(item["correct"] / item["runs"] for item in members) / len(members)) if members else None
        table.append({"percentile_low": round(low, 2), "percentile_high": round(high, 2), "items": len(members),
                      "accuracy": None if accuracy is None else round(accuracy, 4)})
    return table


def by_group(items: list[dict[str, Any]], key: str) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[float]] = {}
    for item in items:
        if item.get(key) is not None:
            groups.setdefault(str(item[key]), []).append(item["frequency_percentile"])
    return {name: fitted(values) for name, values in sorted(groups.items())}


def item_entities(rows: list[Any], field: str) -> dict[str, tuple[str | None, str | None]]:
    """Question id → (its entity, its released `difficulty` field) from a run's rows."""
    found: dict[str, tuple[str | None, str | None]] = {}
    for row in rows:
        fields = row.extra_field("fields")
        fields = fields if isinstance(fields, dict) else {}
        released = fields.get("difficulty")
        found.setdefault(row.question_id, (item_entity(row.gold, fields, field),
                                           str(released) if released is not None else None))
    return found


def entity_frequency(items: list[dict[str, Any]], entities: Mapping[str, tuple[str | None, str | None]],
                     counts: Mapping[str, int], field: str = ANSWER, bins: int = BINS) -> dict[str, Any]:
    """Join the difficulty items to their entity's count and percentile (in place) and summarise:
    {entity_field, entries, matched, unmatched, unmatched_examples, per_tier, per_difficulty, bins}.
    `entities`: question id → (entity, released difficulty)."""
    index = FrequencyIndex(counts)
    matched: list[dict[str, Any]] = []
    unmatched: list[str] = []
    for item in items:
        if item["tier"] in ("undecided", "unanswerable"):
            continue
        entity, released = entities.get(item["id"], (None, None))
        count = index.count(entity) if entity else None
        item.update(entity=entity, entity_count=count, released_difficulty=released,
                    frequency_percentile=None if count is None else round(index.percentile(count), 3))
        if count is None:
            unmatched.append(entity or f"({item['id']}: no {field})")
        else:
            matched.append(item)
    return {"entity_field": field, "entries": len(counts), "matched": len(matched), "unmatched": len(unmatched),
            "unmatched_examples": unmatched[:5], "per_tier": by_group(matched, "tier"),
            "per_difficulty": by_group(matched, "released_difficulty"), "bins": bin_table(matched, bins)}
