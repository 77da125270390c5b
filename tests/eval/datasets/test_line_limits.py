"""A line longer than the limit (factprobe.eval.core.text_files.MAX_LINE_BYTES, lowered here so the
files stay a few MB) is refused with exit 2 naming the file and line, after reading no more than
the limit of it: JSON Lines, CSV and TSV datasets, id files and a run's results.jsonl."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest

from factprobe.eval.core import text_files
from factprobe.eval.core.errors import DatasetError
from factprobe.eval.datasets.registry import load_dataset
from tests.fakes import refused

LIMIT = 256 * 1024
HUGE = 6 * 2**20          # the long line: 24 times the limit
GOOD = {"id": "q1", "question": "What is the capital of France?", "answer": "Paris"}


@pytest.fixture(autouse=True)
def low_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(text_files, "MAX_LINE_BYTES", LIMIT)


def write_long(path: Path, head: bytes, filler: bytes, tail: bytes = b"\n") -> Path:
    """`head`, then `filler` repeated to HUGE bytes on the same line, then `tail`, written in pieces."""
    with path.open("wb") as handle:
        handle.write(head)
        piece = filler * (2**16 // len(filler))
        for _ in range(HUGE // len(piece)):
            handle.write(piece)
        handle.write(tail)
    return path


def long_jsonl(tmp_path: Path) -> Path:
    head = (json.dumps(GOOD) + "\n" + '{"id": "q2", "answer": "x", "question": "').encode()
    return write_long(tmp_path / "data.jsonl", head, b"word ", b'"}\n')


def run_args(dataset: str, tmp_path: Path, *extra: str) -> list[str]:
    return ["run", "--dataset", dataset, "--strategies", "vanilla", "--model", "openai:m@http://127.0.0.1:9/v1",
            "--out", str(tmp_path / "run"), *extra]


def test_a_long_jsonl_line_is_refused_naming_file_and_line(tmp_path: Path, capsys) -> None:
    data = long_jsonl(tmp_path)
    refused(capsys, run_args(f"jsonl:{data}", tmp_path), f"{data}, line 2", f"longer than {LIMIT:,} bytes")
    assert not (tmp_path / "run").exists()


def test_the_long_line_is_not_read_whole(tmp_path: Path) -> None:
    """Python's allocations while loading stay far below the line's size (the old whole-file read
    held all 6 MB, twice: bytes and text)."""
    data = long_jsonl(tmp_path)
    tracemalloc.start()
    try:
        with pytest.raises(DatasetError, match="line 2: longer than"):
            load_dataset(f"jsonl:{data}")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < HUGE / 4, f"peak {peak:,} bytes"


def test_a_long_csv_line_is_refused(tmp_path: Path, capsys) -> None:
    data = write_long(tmp_path / "s.csv", b"problem,answer\nWho?,", b"x")
    refused(capsys, run_args(f"simpleqa:{data}", tmp_path), f"{data}, line 2", "longer than")


def test_a_long_tsv_line_is_refused(tmp_path: Path, capsys) -> None:
    data = write_long(tmp_path / "w.tsv", b"index\timage\tquestion\tanswer\n0\t", b"QUJD")
    refused(capsys, run_args(f"worldvqa:{data}", tmp_path), f"{data}, line 2", "longer than")


def test_a_line_of_exactly_the_limit_is_read(tmp_path: Path) -> None:
    record = {**GOOD, "question": "What is the capital of France?" + " " * 10}
    text = json.dumps(record)
    record["question"] += " " * (LIMIT - len(text))               # the line's text is LIMIT bytes, then "\n"
    path = tmp_path / "edge.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    assert len(path.read_bytes()) == LIMIT + 1
    assert [q.id for q in load_dataset(f"jsonl:{path}").questions] == ["q1"]


def test_a_long_line_in_an_id_file_is_refused(tmp_path: Path, capsys) -> None:
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps(GOOD) + "\n", encoding="utf-8")
    ids = write_long(tmp_path / "ids.txt", b"q1\n", b"q")
    refused(capsys, run_args(f"jsonl:{data}", tmp_path, "--only-ids", str(ids)),
            "--only-ids", f"{ids}, line 2", "longer than")


def test_a_long_row_in_results_is_refused_by_report(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "old"
    folder.mkdir()
    (folder / "manifest.json").write_text("{}", encoding="utf-8")
    row = {"question_id": "q1", "strategy": "vanilla", "question": "Q?", "gold": "a", "category": "c",
           "grade": "CORRECT", "grader": "rules"}
    write_long(folder / "results.jsonl", (json.dumps(row) + "\n" + '{"question_id": "').encode(), b"q", b'"}\n')
    refused(capsys, ["report", str(folder)], f"{folder / 'results.jsonl'}, line 2", "longer than")
