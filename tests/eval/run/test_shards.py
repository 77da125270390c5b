"""`factprobe run --shard I/N` and `factprobe merge`: the shards of a run, merged, equal the run
made by one process (same rows, grades and summary up to timings); shards that are not one whole
run are refused with exit 2 and a message saying what differs or is missing."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.eval.core.schema import Question
from factprobe.eval.run.shards import in_shard, shard_of
from factprobe.eval.store.run_dir import RunDir
from tests.fakes import ScriptedModel, last_user, write_questions

QUESTIONS = [Question(id=f"item-{i}", question=f"Which code name was given to item {i}?", answer=f"Tessera{i}",
                      category=("places", "people", "dates")[i % 3]) for i in range(36)]
TIMING = re.compile(r"latency|wall|_s$|_s_")


def varied_script(messages, params) -> str:
    """Right, wrong or declining by the question's number and the prompt's length, so strategies
    and questions differ; a confidence that varies too."""
    text = last_user(messages)
    number = int(re.search(r"item (\d+)", text).group(1))
    kind = (number * 7 + len(text) + params.seed if params.seed is not None else number * 7 + len(text)) % 3
    answer = (f"Tessera{number}", f"Mosaic{number + 1}", "I don't know")[kind]
    return f"Answer: {answer}\nConfidence: {(number * 13) % 90 + 5}"


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One dataset run whole, as shards 1/2 and 2/2, and as shard 2/2 with another seed (each run
    once for the module; tests that change one work on a copy)."""
    folder = tmp_path_factory.mktemp("shards")
    dataset = write_questions(folder / "q.jsonl", QUESTIONS)
    paths = {"dataset": dataset, **{name: folder / name for name in ("single", "one", "two", "other")}}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pipeline, "load_model", lambda spec, **kwargs: ScriptedModel(varied_script))
        assert run(dataset, paths["single"]) == 0
        assert run(dataset, paths["one"], "--shard", "1/2") == 0
        assert run(dataset, paths["two"], "--shard", "2/2") == 0
        assert run(dataset, paths["other"], "--shard", "2/2", "--seed", "5") == 0
    return paths


def run(dataset: Path, out: Path, *extra: str) -> int:
    return cli.main(["run", "--dataset", f"jsonl:{dataset}", "--strategies", "vanilla,refusal",
                     "--repeats", "2", "--limit", "24", "--out", str(out), *extra])


def rows_by_key(path: Path) -> dict[tuple[str, str, int], dict[str, Any]]:
    rows = [json.loads(line) for line in (path / "results.jsonl").read_text().splitlines()]
    keyed = {(row["question_id"], row["strategy"], row["repeat"]): row for row in rows}
    assert len(keyed) == len(rows), "a key written twice"
    return keyed


def without_timings(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: without_timings(item) for key, item in value.items() if not TIMING.search(str(key))}
    if isinstance(value, list):
        return [without_timings(item) for item in value]
    return value


def test_the_split_is_by_question_id_stable_disjoint_and_complete() -> None:
    ids = [q.id for q in QUESTIONS]
    parts = [in_shard(QUESTIONS, index, 3) for index in (1, 2, 3)]
    assert sorted(q.id for part in parts for q in part) == sorted(ids)
    assert all(parts)
    assert [shard_of("item-5", 3)] * 2 == [shard_of("item-5", 3), shard_of("item-5", 3)]
    assert {shard_of(i, 1) for i in ids} == {1}


def test_two_shards_merged_equal_one_process(runs: dict[str, Path], tmp_path: Path) -> None:
    single, one, two, merged = runs["single"], runs["one"], runs["two"], tmp_path / "merged"
    first, second = rows_by_key(one), rows_by_key(two)
    assert first and second and not {k[0] for k in first} & {k[0] for k in second}
    assert cli.main(["merge", str(one), str(two), "--out", str(merged)]) == 0

    expected, got = rows_by_key(single), rows_by_key(merged)
    assert set(got) == set(expected) and len(got) == 24 * 2 * 2
    for key, row in expected.items():
        assert (got[key]["answer"], got[key]["grade"], got[key]["confidence"]) == \
            (row["answer"], row["grade"], row["confidence"]), key
    assert len({row["grade"] for row in got.values()}) == 3        # the run is not all one grade
    # the merged file is in the job order of one process
    assert list(got) == list(expected)

    summary = json.loads((merged / "summary.json").read_text())
    assert without_timings(summary) == without_timings(json.loads((single / "summary.json").read_text()))
    assert summary["gains"]["refusal"]["ci_low"] is not None
    manifest = RunDir(merged).read_manifest()
    assert manifest["question_ids"] == RunDir(single).read_manifest()["question_ids"]
    assert "shard" not in manifest and manifest["config"]["shard"] is None
    assert [entry["shard"] for entry in manifest["merged_from"]] == ["1/2", "2/2"]
    # a report of the merged run recomputes the same summary
    assert cli.main(["report", str(merged)]) == 0
    assert json.loads((merged / "summary.json").read_text()) == summary


def test_the_merge_hands_on_the_rows_it_wrote_as_a_new_read_gives_them(runs: dict[str, Path], tmp_path: Path) -> None:
    from factprobe.eval.run.merge import merge_shards

    one, two = tmp_path / "one", tmp_path / "two"
    shutil.copytree(runs["one"], one)
    shutil.copytree(runs["two"], two)
    with (two / "results.jsonl").open("rb+") as handle:   # a last line without its newline is copied with one
        handle.seek(-1, 2)
        handle.truncate()
    out = RunDir(tmp_path / "merged")
    out.lock()
    try:
        handed = merge_shards(out, [two, one])
    finally:
        out.unlock()
    read = out.latest_slim()
    assert [(row.key, row.offset, row.plain) for row in handed] == [(row.key, row.offset, row.plain) for row in read]
    assert all(row.row_file is not None and row.row_file.path == out.results_path for row in handed)
    assert [row.full() for row in handed] == [row.full() for row in read]


def test_merge_refuses_what_is_not_one_whole_run(runs: dict[str, Path], tmp_path: Path, capsys,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    one, other, single = runs["one"], runs["other"], runs["single"]
    two = tmp_path / "two"
    shutil.copytree(runs["two"], two)
    capsys.readouterr()

    def refused(*dirs: Path, out: Path = tmp_path / "merged") -> str:
        assert cli.main(["merge", *map(str, dirs), "--out", str(out)]) == 2
        assert not (out / "results.jsonl").exists()
        return capsys.readouterr().err

    assert "2/2 of the run are missing" in refused(one)
    assert "given twice" in refused(one, one)
    assert "seed" in refused(one, other)
    assert "not a shard" in refused(one, single)
    assert "not a factprobe run directory" in refused(one, tmp_path)

    lines = (two / "results.jsonl").read_text().splitlines(keepends=True)
    (two / "results.jsonl").write_text("".join(lines[:-1]))
    message = refused(one, two)
    assert f"lacks 1 of its {len(lines)} rows" in message and f"--resume --out {two}" in message
    # resuming the shard answers the missing row; then the merge goes through, once
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: ScriptedModel(varied_script))
    assert run(runs["dataset"], two, "--resume") == 0
    assert cli.main(["merge", str(one), str(two), "--out", str(tmp_path / "merged")]) == 0
    assert cli.main(["merge", str(one), str(two), "--out", str(tmp_path / "merged")]) == 2
    assert "already holds a run" in capsys.readouterr().err


def test_a_bad_shard_option_exits_2_naming_it(runs: dict[str, Path], tmp_path: Path, capsys) -> None:
    assert run(runs["dataset"], tmp_path / "x", "--shard", "3/2") == 2
    assert "--shard" in capsys.readouterr().err
    assert run(runs["dataset"], tmp_path / "y", "--shard", "1/2", "--workers", "2") == 2
    assert "--shard runs one shard" in capsys.readouterr().err


def test_ray_missing_exits_2_before_anything_is_written(runs: dict[str, Path], tmp_path: Path, capsys,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "ray" else find_spec(name, *a))
    assert run(runs["dataset"], tmp_path / "r", "--executor", "ray", "--workers", "2") == 2
    assert "pip install 'factprobe[ray]'" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()
