"""Summary `taxonomy`: the kinds of error of each strategy's INCORRECT answers (`factprobe taxonomy`).

Per strategy: `n_incorrect` (latest INCORRECT rows), one count per kind plus `unclassified` (the
judge's reply named no known kind), `pending` (not classified yet, e.g. a failed judge call) and
the `judges` whose entries are counted. Read from DIR/taxonomy.jsonl, the latest entry per row; a
run that was never classified has no `taxonomy` entries (an empty object).
"""

from __future__ import annotations

from typing import Any

from factprobe.eval.analysis.summary import SummaryInput, summary_section
from factprobe.eval.taxonomy.classify import KINDS, UNCLASSIFIED, TaxonomyFile, incorrect_rows


@summary_section("taxonomy", order=160)
def taxonomy(data: SummaryInput) -> dict[str, dict[str, Any]]:
    if data.directory is None:
        return {}
    entries = TaxonomyFile(data.directory).latest()
    if not entries:
        return {}
    out: dict[str, dict[str, Any]] = {}
    for row in incorrect_rows(data.rows):
        counts = out.setdefault(row.strategy, {"n_incorrect": 0, **{kind: 0 for kind in KINDS},
                                               UNCLASSIFIED: 0, "pending": 0, "judges": []})
        counts["n_incorrect"] += 1
        entry = entries.get(row.key)
        if entry is None:
            counts["pending"] += 1
            continue
        counts[entry["kind"] if entry["kind"] in KINDS else UNCLASSIFIED] += 1
        if entry.get("judge") not in counts["judges"]:
            counts["judges"].append(entry.get("judge"))
    return out
