"""Kind sets of the error taxonomy: the benchmark presets, kinds files and their errors, and replies
parsed against the kinds of the set in use."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
from factprobe.eval.core.errors import DatasetError
from factprobe.eval.core.schema import Grade, Result
from factprobe.eval.taxonomy.classify import parse_taxonomy_reply, taxonomy_messages
from factprobe.eval.taxonomy.kinds import PRESETS, REFUSAL, UNCLASSIFIED, read_kinds_file


def test_presets_follow_the_papers_error_figures() -> None:
    """Video SimpleQA: 4 kinds; MMWorld: 7; WorldSense: 3, and refusal counted for NOT_ATTEMPTED rows
    without being offered to the judge; the default keeps factprobe's five kinds."""
    assert PRESETS["default"].offered_names == ("perception", "knowledge", "reasoning", REFUSAL, "format")
    assert PRESETS["videosimpleqa"].offered_names == ("perception", "knowledge", REFUSAL, "ignored_instructions")
    assert PRESETS["mmworld"].offered_names == (
        "question_understanding", "audio_understanding", "visual_perception", "hallucination", "reasoning",
        "domain_knowledge", REFUSAL)
    assert PRESETS["worldsense"].offered_names == ("audio_understanding", "visual_understanding", "reasoning")
    assert PRESETS["worldsense"].counted == (*PRESETS["worldsense"].offered_names, REFUSAL)
    assert PRESETS["mmworld"].counted == PRESETS["mmworld"].offered_names
    for kinds in PRESETS.values():
        assert all(kind.description.strip() for kind in kinds.offered)


def test_a_kinds_file_names_its_set_by_file_and_content(tmp_path: Path) -> None:
    path = tmp_path / "mine.txt"
    path.write_text("# my kinds\n\nmisread_chart: the model misread a chart\nstale_fact: an outdated fact\n")
    kinds = read_kinds_file(path)
    assert kinds.offered_names == ("misread_chart", "stale_fact")
    assert kinds.counted == ("misread_chart", "stale_fact", REFUSAL)
    assert kinds.name.startswith("mine.txt@")
    path.write_text("misread_chart: the model misread a plot\nstale_fact: an outdated fact\n")
    assert read_kinds_file(path).name != kinds.name     # an edited file is another kind set


@pytest.mark.parametrize("text, line, words", [
    ("one: a\ntwo\n", 2, "expected `name: description`"),
    ("one: a\nTwo Words: b\n", 2, "lower-case letters"),
    ("one: a\n\none: again\n", 3, "listed twice"),
    ("one: a\npending: b\n", 2, "reserved"),
    ("one: a\ntwo:   \n", 2, "expected `name: description`"),
])
def test_a_bad_kinds_file_names_its_line(tmp_path: Path, text: str, line: int, words: str) -> None:
    path = tmp_path / "kinds.txt"
    path.write_text(text)
    with pytest.raises(DatasetError) as error:
        read_kinds_file(path)
    assert f"{path}, line {line}:" in str(error.value) and words in str(error.value)


def test_a_kinds_file_with_one_kind_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "kinds.txt"
    path.write_text("# only one\nonly: a single kind\n")
    with pytest.raises(DatasetError, match="lists 1 kinds; a taxonomy needs at least two"):
        read_kinds_file(path)


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_a_bad_kinds_file_exits_2_before_the_judge_is_reached(tmp_path: Path, capsys) -> None:
    """The judge is a closed port on 127.0.0.1: the kinds file is read, and refused, first."""
    run = tmp_path / "run"
    run.mkdir()
    (run / "manifest.json").write_text(json.dumps({"config": {}}), encoding="utf-8")
    kinds = tmp_path / "kinds.txt"
    kinds.write_text("good: fine\nBad: not fine\n")
    status = cli.main(["taxonomy", str(run), "--judge", f"openai:x@http://127.0.0.1:{closed_port()}/v1",
                       "--kinds", str(kinds)])
    err = capsys.readouterr().err
    assert status == 2 and f"{kinds}, line 2:" in err and "could not be reached" not in err
    assert not (run / "taxonomy.jsonl").exists()


def test_preset_and_kinds_file_exclude_each_other(tmp_path: Path, capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(["taxonomy", str(tmp_path), "--judge", "x", "--preset", "mmworld", "--kinds", "k.txt"])
    assert exit_.value.code == 2 and "not allowed with argument" in capsys.readouterr().err


def test_replies_are_read_against_the_kinds_in_use() -> None:
    names = PRESETS["mmworld"].offered_names
    assert parse_taxonomy_reply("Kind: visual_perception\nReason: it miscounted.", names).kind == "visual_perception"
    assert parse_taxonomy_reply("Kind: format\nReason: x", names).kind == UNCLASSIFIED   # not an MMWorld kind
    assert parse_taxonomy_reply("Kind: format\nReason: x").kind == "format"               # a default kind


def test_the_prompt_offers_exactly_the_sets_kinds() -> None:
    row = Result(question_id="q", strategy="vanilla", question="Which bird is on the flag?", gold="eagle",
                 category="c", answer="condor", grade=Grade.INCORRECT, grader="rules")
    text = taxonomy_messages(row, PRESETS["worldsense"])[-1]["content"]
    assert "audio_understanding:" in text and "visual_understanding:" in text
    assert "Kind: one of audio_understanding, visual_understanding, reasoning" in text
    assert "refusal" not in text and "perception:" not in text
