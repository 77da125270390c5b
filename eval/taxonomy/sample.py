"""`factprobe taxonomy --sample-per FIELD N`: classify a random sample of N errors for each value of
a field, per strategy (WorldSense's error analysis took five errors of each task).

The field is read as `--group-by` reads it (the row's own field, else its question record's; a list
of labels puts the row under each). Each (strategy, value) group is drawn with its own generator,
seeded by the seed, the strategy and the value, from the group's covered rows in (question, repeat)
order: the same run and seed draw the same rows, and a group's draw does not depend on the others.
A group with N errors or fewer is taken whole. The draw is recorded in DIR/taxonomy_kinds.json, and
the summary counts the sampled rows only.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

from factprobe.eval.analysis.groups import MISSING, field_value, labels
from factprobe.eval.config.options import OptionError
from factprobe.eval.core.schema import Result


def sample_per_value(rows: list[Result], field: str, count: int, seed: int) -> tuple[list[Result], dict[str, Any]]:
    """The rows drawn (in file order) and the record of the draw: field, per_value, seed, the counts
    per strategy and value, and the drawn rows' keys. OptionError when no row has the field."""
    if count < 1:
        raise OptionError(f"--sample-per {field} {count}: N must be a whole number of at least 1")
    if rows and all(field_value(row, field) is MISSING for row in rows):
        raise OptionError(f"--sample-per {field}: none of the {len(rows)} rows to classify has a field "
                          f"{field!r} (`factprobe datasets describe LOADER:PATH --json` lists a dataset's fields)")
    groups: dict[tuple[str, str], list[Result]] = defaultdict(list)
    for row in rows:
        for label in labels(field_value(row, field)):
            groups[(row.strategy, label)].append(row)
    drawn: set[tuple[str, str, int]] = set()
    counts: dict[str, dict[str, dict[str, int]]] = defaultdict(dict)
    for (strategy, label), members in sorted(groups.items()):
        members = sorted(members, key=lambda row: (row.question_id, row.repeat))
        chosen = random.Random(f"{seed}|{strategy}|{label}").sample(members, min(count, len(members)))
        drawn.update(row.key for row in chosen)
        counts[strategy][label] = {"errors": len(members), "sampled": len(chosen)}
    picked = [row for row in rows if row.key in drawn]
    record = {"field": field, "per_value": count, "seed": seed, "counts": dict(counts),
              "rows": [list(row.key) for row in picked]}
    return picked, record
