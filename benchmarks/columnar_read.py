"""The summary's read of results.jsonl by three readers, for the scaling benchmark's columnar check.

`python -m benchmarks.columnar_read READER RESULTS_JSONL OUT_JSON` reads the file with READER and
writes OUT_JSON: rows, a digest of the columns read, and the reader's own seconds (its imports
included).

- `factprobe`: RunDir.latest_slim(), what `factprobe report` reads (orjson, exact-type checks with
  the pydantic model as fallback, one SlimRow per row).
- `pyarrow`: pyarrow.json.read_json with an explicit schema of the columns below (other fields
  ignored), then the same latest-row-per-key rule, as Python values.
- `polars`: polars.scan_ndjson with the same schema, then the same rule.

The digest covers COLUMNS of every latest row, in order, so equal digests mean the readers hand the
summary the same values. The columnar readers read only these columns and check no types beyond
the schema: what they would save is an upper bound.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any

READERS = ("factprobe", "pyarrow", "polars")
KEY = ("question_id", "strategy", "repeat")
COLUMNS = {"question_id": "str", "strategy": "str", "repeat": "int", "category": "str", "answerable": "bool",
           "hop_count": "int", "answer": "str", "confidence": "float", "grade": "str", "latency_s": "float",
           "prompt_tokens": "int", "completion_tokens": "int", "llm_calls": "int", "error": "str",
           "retrieved_ids": "list"}


def digest(columns: dict[str, list[Any]]) -> str:
    return hashlib.sha256(json.dumps(columns, sort_keys=True).encode()).hexdigest()


def latest_columns(columns: dict[str, list[Any]]) -> dict[str, list[Any]]:
    """The columns of the latest row of every key, at its key's first position (as RunDir.latest)."""
    index: dict[tuple[Any, ...], int] = {}
    for number, key in enumerate(zip(*(columns[name] for name in KEY))):
        index[key] = number
    if len(index) == len(columns["question_id"]):
        return columns
    keep = list(index.values())
    return {name: [values[i] for i in keep] for name, values in columns.items()}


def read_factprobe(path: Path) -> dict[str, list[Any]]:
    from factprobe.eval.store.run_dir import RunDir

    rows = RunDir(path.parent).latest_slim()
    columns: dict[str, list[Any]] = {name: [] for name in COLUMNS}
    for row in rows:
        for name, values in columns.items():
            value = getattr(row, name)
            values.append(value.value if name == "grade" else list(value) if name == "retrieved_ids" and value
                          else value)
    return columns


def read_pyarrow(path: Path) -> dict[str, list[Any]]:
    import pyarrow as pa
    from pyarrow import json as pa_json

    types = {"str": pa.string(), "int": pa.int64(), "float": pa.float64(), "bool": pa.bool_(),
             "list": pa.list_(pa.string())}
    schema = pa.schema([(name, types[kind]) for name, kind in COLUMNS.items()])
    options = pa_json.ParseOptions(explicit_schema=schema, unexpected_field_behavior="ignore")
    table = pa_json.read_json(path, parse_options=options, read_options=pa_json.ReadOptions(block_size=1 << 24))
    return latest_columns(table.to_pydict())


def read_polars(path: Path) -> dict[str, list[Any]]:
    import polars as pl

    types = {"str": pl.String, "int": pl.Int64, "float": pl.Float64, "bool": pl.Boolean, "list": pl.List(pl.String)}
    schema = {name: types[kind] for name, kind in COLUMNS.items()}
    frame = pl.scan_ndjson(path, schema=schema).collect()
    return latest_columns(frame.to_dict(as_series=False))


def main(argv: list[str]) -> int:
    reader, path, out = argv[0], Path(argv[1]), Path(argv[2])
    started = time.perf_counter()
    columns = {"factprobe": read_factprobe, "pyarrow": read_pyarrow, "polars": read_polars}[reader](path)
    seconds = time.perf_counter() - started
    out.write_text(json.dumps({"reader": reader, "rows": len(columns["question_id"]), "digest": digest(columns),
                               "read_s": seconds}), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
