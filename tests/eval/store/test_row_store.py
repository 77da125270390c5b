"""Packed rows (factprobe.eval.store.row_store) answer as rows held whole, and give the same summary."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.synthetic_run import write_run
from factprobe.eval.analysis.summary import build_summary
from factprobe.eval.store.row_store import PackedRow
from factprobe.eval.store.run_dir import RunDir, parse_row
from factprobe.eval.store.slim_rows import HELD, HeldRow, RowFile, SlimRow, fast_row_dict

DIGESTS = ("hop_grades", "steps", "extras", "key", "offset", "plain", "row_file")


def held_rows(run_dir: RunDir) -> dict[tuple[str, str, int], SlimRow]:
    """Every latest row of the run held whole, the way slim rows were read before packing."""
    file = RowFile(run_dir.results_path, parse_row)
    rows = {}
    with run_dir.results_path.open("rb") as handle:
        offset = 0
        for data in handle:
            row = fast_row_dict(data.decode())
            held = HeldRow.held(row, file, offset) if row else SlimRow.from_result(parse_row(data.decode()), file, offset)
            rows[held.key] = held
            offset += len(data)
    return rows


def edited_run(tmp_path: Path, huge: bool = True) -> RunDir:
    """A synthetic run plus rows the columns must still read back exactly: a -0.0 confidence, two
    confidence methods, post-step fields, a retrieve step with top_k, ids holding odd characters,
    a superseded row and (`huge`) an int too large for 64 bits, which stays held whole (the summary
    cannot take it in either path)."""
    run_dir = RunDir(write_run(tmp_path, 60, seed=5))
    lines = run_dir.results_path.read_text(encoding="utf-8").splitlines()
    extra = []
    for number, line in enumerate(lines[:12]):
        row = json.loads(line)
        row["repeat"] = 1
        if number == 0:
            row["confidence"], row["confidences"] = -0.0, {"verbal": 0.0}
        if number == 1:
            row["confidences"]["p_true"] = 12.5
        if number == 2:
            row["multiple_choice"] = {"chance": 0.25, "mapped_by": "rule"}
        if number == 3:
            row["trace"].insert(0, {"step": "retrieve", "top_k": 5, "passage_ids": ["p1"], "latency_s": 0.25})
            row["retrieved_ids"], row["gold_passage_ids"] = ["a\u0000b", "é"], []
        if number == 4 and huge:
            row["prompt_tokens"] = 2**63 + 5             # JSON's and orjson's, not int64's
        if number == 5:
            row["llm_calls"] = 2**40                    # past 4-byte ints: the column widens
        extra.append(json.dumps(row))
    superseded = json.loads(lines[7])
    superseded["grade"] = "INCORRECT" if superseded["grade"] == "CORRECT" else "CORRECT"
    extra.append(json.dumps(superseded))
    with run_dir.results_path.open("a", encoding="utf-8") as handle:
        handle.write("\n".join(extra) + "\n")
    return run_dir


def test_packed_rows_answer_every_field_as_held_rows_do(tmp_path) -> None:
    run_dir = edited_run(tmp_path)
    held = held_rows(run_dir)
    slim = run_dir.latest_slim()
    assert [row.key for row in slim] == list(held)
    packed = [row for row in slim if isinstance(row, PackedRow)]
    assert len(packed) == len(slim) - 1 and isinstance(next(r for r in slim if r.prompt_tokens == 2**63 + 5), HeldRow)
    for row in packed:
        whole = held[row.key]
        for name in (*HELD, *DIGESTS[:3]):
            value, expected = getattr(row, name), getattr(whole, name)
            assert value == expected and type(value) is type(expected), (row.key, name)
            assert json.dumps(value, default=str) == json.dumps(expected, default=str), (row.key, name)
        assert (row.offset, row.plain, row.extra_field("wall_s")) == (whole.offset, True, whole.extra_field("wall_s"))
    assert str(next(row for row in packed if row.repeat == 1).confidence) == "-0.0"


def test_the_summary_of_a_generated_run_is_the_same_through_packed_rows(tmp_path) -> None:
    run_dir = edited_run(tmp_path, huge=False)
    manifest = run_dir.read_manifest()
    slim = run_dir.latest_slim()
    assert build_summary(slim, manifest, run_dir.path) == build_summary(list(held_rows(run_dir).values()),
                                                                         manifest, run_dir.path)
    full = list(run_dir.latest().values())
    assert build_summary(slim, manifest, run_dir.path) == build_summary(full, manifest, run_dir.path)


def test_a_packed_row_moves_to_a_copied_line(tmp_path) -> None:
    run_dir = RunDir(write_run(tmp_path, 6))
    row = run_dir.latest_slim()[2]
    copy = tmp_path / "copy.jsonl"
    line = run_dir.results_path.read_bytes().splitlines(keepends=True)[2]
    copy.write_bytes(b"\n" + line)
    moved = row.moved_to(RowFile(copy, parse_row), 1)
    assert moved.row_file is not None and moved.row_file.path == copy and moved.offset == 1
    assert moved.full().question_id == row.question_id and moved.question == moved.full().question
