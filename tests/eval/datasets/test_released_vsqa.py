"""Video SimpleQA's full release: a damaged record is repaired or skipped and named, never the file refused.

The file the first test writes has the released shape and size (1,504 records: 928 with two
sub-QAs, 469 with three, 107 with four; several records share a video date; indent 2, raw UTF-8,
no final newline) with invented content, and one record damaged the way the release's is: four-hop
keys whose fourth sub-QA and multi-hop question and answer are empty strings.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
from factprobe.eval.core.errors import DatasetError
from factprobe.eval.datasets.describe import describe_dataset
from factprobe.eval.datasets.registry import load_dataset

DAMAGED = 597            # 0-based array index of the damaged record in the written file
SHAPE = {2: 928, 3: 469, 4: 107}


def invented_record(index: int, hops: int) -> dict:
    record: dict = {"date": f"2031-{1 + index % 12:02d}-{1 + (index // 5) % 28:02d}"}
    for k in range(1, hops + 1):
        record[f"QA_Pair_{k}_Question"] = f"Which invented thing number {k} belongs to clip {index}?"
        record[f"QA_Pair_{k}_Answer"] = f"Thing {index}.{k}"
    record["Multi_hop_Question"] = f"Which final invented thing belongs to clip {index}？ "
    record["Multi_hop_Answer"] = f"Thing {index}.{hops}"
    return record


def released_shape() -> list[dict]:
    counts = [hops for hops, count in SHAPE.items() for _ in range(count)]
    random.Random(0).shuffle(counts)
    four = next(i for i, hops in enumerate(counts) if hops == 4)
    counts[four], counts[DAMAGED] = counts[DAMAGED], counts[four]
    records = [invented_record(index, hops) for index, hops in enumerate(counts)]
    records[DAMAGED].update(QA_Pair_4_Question="", QA_Pair_4_Answer="", Multi_hop_Question="",
                            Multi_hop_Answer="")
    return records


def write(tmp_path: Path, records: list[dict], name: str = "VideoSimpleQA.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(records, indent=2, ensure_ascii=False), encoding="utf-8")
    return path


def test_the_full_release_shape_loads_all_but_the_damaged_record_and_names_it(tmp_path, capsys) -> None:
    records = released_shape()
    path = write(tmp_path, records)
    dataset = load_dataset(f"videosimpleqa:{path}")
    assert len(dataset.questions) == 1503
    assert all(q.question and q.answer for q in dataset.questions)
    assert all(q.question.endswith("？") for q in dataset.questions)            # stripped
    [skip] = [note for note in dataset.notes if "skipped" in note and "array index" in note]
    assert f"record {DAMAGED + 1} (array index {DAMAGED}" in skip and "Multi_hop_Question" in skip
    assert "1504 records: 1 skipped, 0 loaded without empty parts" in dataset.notes
    # ids keep each record's position in the file, so the records after the gap keep theirs
    positions = {int(q.id.split("-")[4]) for q in dataset.questions}
    assert DAMAGED + 1 not in positions and {DAMAGED, DAMAGED + 2} <= positions
    hops = describe_dataset(dataset)["hops"]
    assert hops == {2: SHAPE[2], 3: SHAPE[3], 4: SHAPE[4] - 1}

    assert cli.main(["datasets", "describe", f"videosimpleqa:{path}"]) == 0
    printed = capsys.readouterr().out
    assert f"array index {DAMAGED}" in printed and "1503" in printed


def test_an_empty_last_sub_qa_is_dropped_and_the_question_kept(tmp_path) -> None:
    record = invented_record(3, 4)
    record.update(QA_Pair_4_Question="  ", QA_Pair_4_Answer="")
    dataset = load_dataset(f"videosimpleqa:{write(tmp_path, [invented_record(1, 2), record])}")
    kept = dataset.questions[1]
    assert [hop.answer for hop in kept.hops] == ["Thing 3.1", "Thing 3.2", "Thing 3.3"]
    assert kept.category == "3_hops" and kept.answer == "Thing 3.4"
    [note] = [note for note in dataset.notes if "without its empty" in note]
    assert note.startswith("record 2 (array index 1") and "QA_Pair_4_Question, QA_Pair_4_Answer" in note


def test_numbers_from_older_copies_load_as_text(tmp_path) -> None:
    record = invented_record(2, 2)
    record.update(QA_Pair_2_Answer=1.5, Multi_hop_Answer=1994)
    [question] = load_dataset(f"videosimpleqa:{write(tmp_path, [record])}").questions
    assert question.answer == "1994" and question.hops[1].answer == "1.5"


@pytest.mark.parametrize("change, field", [
    ({"Multi_hop_Question": None}, "Multi_hop_Question"),       # a missing key: not the released shape
    ({"QA_Pair_2_Answer": ["x"]}, "QA_Pair_2_Answer"),            # a value of the wrong type
])
def test_a_file_not_in_the_released_shape_is_still_refused(tmp_path, change, field) -> None:
    record = {key: value for key, value in {**invented_record(5, 2), **change}.items() if value is not None}
    if field == "QA_Pair_2_Answer":
        record[field] = change[field]
    with pytest.raises(DatasetError, match=field) as error:
        load_dataset(f"videosimpleqa:{write(tmp_path, [invented_record(4, 2), record])}")
    assert "record 2" in str(error.value)


def test_the_shared_slice_loads_whole(shared_datasets) -> None:
    path = shared_datasets / "videosimpleqa" / "VideoSimpleQA_sample.json"
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    records = json.loads(path.read_text(encoding="utf-8"))
    dataset = load_dataset(f"videosimpleqa:{path}")
    skipped = [note for note in dataset.notes if "skipped:" in note]
    assert len(dataset.questions) + len(skipped) == len(records)
    assert len(dataset.questions) >= len(records) - 1
