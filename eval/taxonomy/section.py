"""Summary `taxonomy`: the kinds of error of each strategy's answers (`factprobe taxonomy`).

Per strategy: `n_incorrect` (latest INCORRECT rows), `n_not_attempted` (latest NOT_ATTEMPTED rows
of answerable questions, counted as `refusal`), `n` (both), one count per kind of the kind set
(`kinds`, in order, named by `kind_set`), `unclassified` (the judge's replies named no offered kind,
after one stricter retry), `pending` (not classified yet, e.g. a failed judge call), `shares` (each
kind, `unclassified` and `pending` as a fraction of `n`, 0–1) and the `judges` whose entries are
counted. Read from DIR/taxonomy.jsonl, the latest entry per row of the kind set classified last; a
run never classified has no `taxonomy` entries (an empty object). After `--sample-per FIELD N` the
counts are those of the drawn rows only, and `sample` says so: `field`, `per_value`, `seed` and per
value of the field `{errors, sampled}`.
"""

from __future__ import annotations

from typing import Any

from factprobe.eval.analysis.summary import SummaryInput, summary_section
from factprobe.eval.core.schema import Grade
from factprobe.eval.taxonomy.kinds import PENDING, UNCLASSIFIED
from factprobe.eval.taxonomy.record import TaxonomyFile, covered_rows, grade_of


@summary_section("taxonomy", order=160)
def taxonomy(data: SummaryInput) -> dict[str, dict[str, Any]]:
    """The `taxonomy` section (keys in the module docstring); {} for a run never classified."""
    if data.directory is None:
        return {}
    record = TaxonomyFile(data.directory)
    current = record.current()
    if current is None:
        return {}
    kind_set, kinds, entries = current
    sample = record.sample()
    drawn = {tuple(key) for key in sample["rows"]} if sample else None
    out: dict[str, dict[str, Any]] = {}
    for row in covered_rows(data.rows):
        if drawn is not None and row.key not in drawn:
            continue
        counts = out.setdefault(row.strategy, {
            "kind_set": kind_set, "kinds": kinds, "n": 0, "n_incorrect": 0, "n_not_attempted": 0,
            **{kind: 0 for kind in kinds}, UNCLASSIFIED: 0, PENDING: 0, "judges": []})
        counts["n"] += 1
        counts["n_incorrect" if row.grade is Grade.INCORRECT else "n_not_attempted"] += 1
        entry = entries.get(row.key)
        if entry is None or grade_of(entry) != row.grade.value:
            counts[PENDING] += 1      # never classified, or classified before the row was graded again
            continue
        counts[entry["kind"] if entry["kind"] in kinds else UNCLASSIFIED] += 1
        if entry.get("judge") not in counts["judges"]:
            counts["judges"].append(entry.get("judge"))
    for strategy, counts in out.items():
        counts["shares"] = {name: counts[name] / counts["n"] for name in (*kinds, UNCLASSIFIED, PENDING)}
        if sample:
            counts["sample"] = {"field": sample["field"], "per_value": sample["per_value"], "seed": sample["seed"],
                                "values": sample["counts"].get(strategy, {})}
    return out
