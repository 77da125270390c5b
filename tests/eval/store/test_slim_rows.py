"""Slim rows (factprobe.eval.store.slim_rows) give the same summary and question browser as full Results."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.synthetic_run import write_run
from factprobe.eval.analysis.summary import build_summary
from factprobe.eval.core.schema import Grade
from factprobe.eval.report.html.rows import (
    SHARED_FIELDS,
    iter_record_texts,
    record_list_chunks,
    record_text_chunks,
    run_records,
)
from factprobe.eval.store.run_dir import RunDir, RunDirError
from factprobe.eval.store.slim_rows import SlimRow, fast_row_dict

RECORD_NAMES = {"question_id": "id", "hop_count": "hops"}


def varied_run(tmp_path: Path) -> RunDir:
    """A synthetic run plus rows exercising every slim path: repeats, a superseded row, coerced
    values, post-step fields, hop probes, a decomposing strategy, several confidence methods."""
    run_dir = RunDir(write_run(tmp_path, 240, seed=3))
    lines = run_dir.results_path.read_text(encoding="utf-8").splitlines()
    extra = []
    for number, line in enumerate(lines[:80]):
        row = json.loads(line)
        row["repeat"] = 1
        row["confidences"]["p_true"] = float(number % 101)
        if number % 4 == 0:
            row["confidence"] = int(row["confidence"] or 0)      # an int: left to pydantic, coerced
        if row["hop_count"] > 1 and row["grade"] != "ERROR":
            row["hop_probes"] = [{"question": "q", "gold": "g", "answer": "a", "grade": hop["grade"]}
                                 for hop in row["hops"]]
        if number % 5 == 0:
            row["strategy"] = "decompose"
            row["decomposition"] = {"decomposer": "model", "predicted_hops": row["hop_count"],
                                    "gold_hops": row["hop_count"], "hop_count_match": True,
                                    "hop_answer_matches": [True] * row["hop_count"], "gold_answers_recovered": 1}
        if number % 7 == 0:
            row["trace"].insert(0, {"step": "retrieve", "top_k": 5, "passage_ids": ["p1"]})
            row["retrieved_ids"], row["gold_passage_ids"] = ["p1", "p2"], ["p2"]
        if number % 9 == 0:
            row["multiple_choice"] = {"chance": 0.25, "mapped_by": "rule"}
            row["forced_grade"] = "CORRECT"
        extra.append(json.dumps(row))
    superseded = json.loads(lines[3])
    superseded["grade"] = "INCORRECT" if superseded["grade"] == "CORRECT" else "CORRECT"
    missing_default = json.loads(lines[10])
    missing_default["repeat"] = 2
    del missing_default["samples"]                               # a default filled by pydantic
    extra += [json.dumps(superseded), json.dumps(missing_default)]
    with run_dir.results_path.open("a", encoding="utf-8") as handle:
        handle.write("\n".join(extra) + "\n")
    return run_dir


def test_slim_rows_give_the_same_summary_as_full_results(tmp_path) -> None:
    run_dir = varied_run(tmp_path)
    manifest = run_dir.read_manifest()
    full = list(run_dir.latest().values())
    slim = run_dir.latest_slim()
    assert [row.key for row in slim] == [row.key for row in full]
    assert any(not row.plain for row in slim) and any(row.plain for row in slim)
    expected = build_summary(full, manifest, run_dir.path)
    assert expected["gains"] and expected["calibration"] and expected["per_hop"] and expected["decomposition"]
    assert build_summary(slim, manifest, run_dir.path) == expected


def test_a_slim_row_reads_its_bulky_fields_from_its_line(tmp_path) -> None:
    run_dir = varied_run(tmp_path)
    full = run_dir.latest()
    for row in run_dir.latest_slim()[::37]:
        whole = full[row.key]
        assert row.trace == whole.trace and row.question == whole.question and row.hops == whole.hops
        assert row.model_dump() == whole.model_dump()
        assert row.extra_field("wall_s") == whole.extra_field("wall_s") == row.wall_s
        assert getattr(row, "no_such_field", None) is None


def test_the_streamed_question_browser_holds_the_full_records(tmp_path) -> None:
    run_dir = varied_run(tmp_path)
    full = list(run_dir.latest().values())
    baseline = "vanilla"
    streamed = [json.loads(text) for text in iter_record_texts(run_dir.latest_slim(), baseline)]
    for record in streamed:                      # what report.js does with a record holding its row
        if "id" not in record:
            entry = record["e"][0]
            for name in SHARED_FIELDS:
                record[RECORD_NAMES.get(name, name)] = entry.pop(name)
    expected = run_records(full, baseline)
    assert [json.dumps(r, sort_keys=True) for r in streamed] == [json.dumps(r, sort_keys=True) for r in expected]
    assert any(r["vs"] for r in expected)


def test_fast_reading_leaves_every_doubtful_line_to_the_model(tmp_path) -> None:
    row = json.loads((write_run(tmp_path, 2) / "results.jsonl").read_text().splitlines()[0])
    assert fast_row_dict(json.dumps(row)) == row
    for field, value in (("confidence", 100.5), ("repeat", True), ("latency_s", 1), ("grade", "GOOD"),
                         ("hops", [{"question": "q"}]), ("trace", {}), ("confidence", float("nan"))):
        assert fast_row_dict(json.dumps({**row, field: value})) is None
    assert fast_row_dict(json.dumps({key: value for key, value in row.items() if key != "raw"})) is None


def test_a_bad_row_is_the_same_error_and_a_torn_tail_is_skipped(tmp_path) -> None:
    run_dir = RunDir(write_run(tmp_path, 4))
    with run_dir.results_path.open("a", encoding="utf-8") as handle:
        handle.write('{"question_id": "torn", "strat')
    assert len(run_dir.latest_slim()) == len(run_dir.latest()) == 4
    lines = run_dir.results_path.read_text(encoding="utf-8").splitlines()
    bad = json.loads(lines[1])
    bad["confidence"] = 140.0
    run_dir.results_path.write_text("\n".join([lines[0], json.dumps(bad), *lines[2:4]]) + "\n", encoding="utf-8")
    with pytest.raises(RunDirError) as full_error:
        run_dir.latest()
    with pytest.raises(RunDirError) as slim_error:
        run_dir.latest_slim()
    assert str(slim_error.value) == str(full_error.value) and "line 2" in str(slim_error.value)


def test_slim_rows_hold_grades_as_the_enum(tmp_path) -> None:
    slim = RunDir(write_run(tmp_path, 20)).latest_slim()
    assert all(isinstance(row, SlimRow) and isinstance(row.grade, Grade) for row in slim)


def test_the_page_escapes_records_by_batches_as_it_would_one_by_one(tmp_path) -> None:
    run_dir = varied_run(tmp_path)
    lines = run_dir.results_path.read_text(encoding="utf-8").splitlines()
    marked = json.loads(lines[0])
    marked["answer"] = "</script><!-- & \u2028"                   # characters the page must escape
    run_dir.results_path.write_text("\n".join([json.dumps(marked), *lines[1:]]) + "\n", encoding="utf-8")
    rows = run_dir.latest_slim()
    one_by_one = "".join(record_text_chunks(iter_record_texts(rows, "vanilla")))
    for batch in (1, 7, 1000):
        assert "".join(record_list_chunks(rows, "vanilla", batch)) == one_by_one
    assert "</script>" not in one_by_one and "\\u003c/script" in one_by_one
    assert len(json.loads(one_by_one)) == len(rows)
