"""Provenance of what selects the rows and what the model is shown: the id files of `--only-ids`
and `--exclude-ids` and the `--media` folder are content digests in the manifest's `inputs`, checked
by `--resume` and `factprobe merge`; the model the judge's server reports is recorded as
`judge_served_model`, and shards graded by judges serving different models are not merged.

The judge tests use local OpenAI-compatible servers on 127.0.0.1 (tests.fakes.ChatServer), two in
turn on one port, reporting different models; real judge services are unreachable here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.core.schema import Question
from factprobe.eval.run.inputs import InputChanged, check_inputs, content_sha256, input_digests
from factprobe.eval.store.run_dir import RunDir
from tests.fakes import ChatServer, ScriptedModel, write_questions

QUESTIONS = [Question(id=f"item-{i}", question=f"Which code name was given to item {i}?", answer=f"Tessera{i}",
                      category="places") for i in range(8)]


def reply(messages, params) -> str:
    number = re.search(r"item (\d+)", messages[-1]["content"])
    return f"Answer: Tessera{number.group(1) if number else 0}\nConfidence: 70"


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> None:
    """The model under test is a scripted stand-in (no server)."""
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: ScriptedModel(reply))


def run(tmp_path: Path, out: str, *extra: str) -> int:
    dataset = tmp_path / "q.jsonl"
    if not dataset.exists():
        write_questions(dataset, QUESTIONS)
    return cli.main(["run", "--dataset", f"jsonl:{dataset}", "--strategies", "vanilla", "--no-cache",
                     "--out", str(tmp_path / out), *extra])


def drop_last_rows(folder: Path, count: int) -> None:
    results = folder / "results.jsonl"
    results.write_text("".join(results.read_text().splitlines(keepends=True)[:-count]))


def test_resume_after_editing_the_only_ids_file_is_refused_naming_it(tmp_path: Path, scripted: None,
                                                                      capsys) -> None:
    ids = tmp_path / "ids.txt"
    ids.write_text("item-1\nitem-2\nitem-3\n")
    assert run(tmp_path, "run", "--only-ids", str(ids)) == 0
    assert RunDir(tmp_path / "run").read_manifest()["inputs"]["only_ids"]["sha256"] == content_sha256(ids)
    drop_last_rows(tmp_path / "run", 1)
    ids.write_text("item-1\nitem-2\nitem-4\n")
    capsys.readouterr()
    assert run(tmp_path, "run", "--resume") == 2
    err = capsys.readouterr().err
    assert f"--only-ids {ids} changed since the run in {tmp_path / 'run'} started" in err
    assert "its content differs" in err and "Traceback" not in err
    ids.write_text("item-1\nitem-2\nitem-3\n")
    assert run(tmp_path, "run", "--resume") == 0


def test_merge_refuses_shards_whose_exclude_ids_file_differs(tmp_path: Path, scripted: None, capsys) -> None:
    ids = tmp_path / "skip.txt"
    for number, content in enumerate(("item-0\n", "item-7\n"), start=1):
        ids.write_text(content)
        assert run(tmp_path, f"s{number}", "--exclude-ids", str(ids), "--shard", f"{number}/2") == 0
    capsys.readouterr()
    assert cli.main(["merge", str(tmp_path / "s1"), str(tmp_path / "s2"), "--out", str(tmp_path / "m")]) == 2
    err = capsys.readouterr().err
    assert f"--exclude-ids {ids}: its content differs" in err and "Traceback" not in err
    assert not (tmp_path / "m" / "results.jsonl").exists()


def test_the_media_folder_is_an_input_whose_content_is_checked(tmp_path: Path) -> None:
    media = tmp_path / "media"
    (media / "item-0").mkdir(parents=True)
    (media / "item-0" / "frame.png").write_bytes(b"first picture")
    config = RunConfig(dataset=f"jsonl:{write_questions(tmp_path / 'q.jsonl', QUESTIONS)}", media=media)
    manifest = {"inputs": input_digests(config)}
    assert manifest["inputs"]["media"] == {"path": str(media), "sha256": content_sha256(media)}
    check_inputs(manifest, config, tmp_path / "run")                     # unchanged: accepted
    (media / "item-0" / "frame.png").write_bytes(b"another picture")
    with pytest.raises(InputChanged, match=re.escape(f"--media {media} changed since the run")):
        check_inputs(manifest, config, tmp_path / "run")


def test_a_manifest_from_before_the_id_files_were_recorded_is_not_held_to_them(tmp_path: Path) -> None:
    ids = tmp_path / "ids.txt"
    ids.write_text("item-1\n")
    config = RunConfig(dataset=f"jsonl:{write_questions(tmp_path / 'q.jsonl', QUESTIONS)}", only_ids=ids)
    older = {"inputs": {key: value for key, value in input_digests(config).items() if key != "only_ids"}}
    check_inputs(older, config, tmp_path / "run")


def judge_reply(body: dict) -> str:
    return "The answer names the code name.\nGrade: CORRECT"


def test_the_judge_served_model_is_recorded_and_merge_refuses_two(tmp_path: Path, scripted: None, capsys) -> None:
    """One --judge spec and URL; the server behind it was restarted with another model between the
    shards (two local servers in turn on one port)."""
    with ChatServer(judge_reply, model="judge-a", served="judge-a") as first:
        port = first.httpd.server_address[1]
        spec = f"openai:judge@{first.url}"
        assert run(tmp_path, "s1", "--judge", spec, "--shard", "1/2") == 0
    with ChatServer(judge_reply, model="judge-b", served="judge-b", port=port):
        assert run(tmp_path, "s2", "--judge", spec, "--shard", "2/2") == 0
        drop_last_rows(tmp_path / "s2", 1)
        (tmp_path / "s2" / "manifest.json").write_text(
            (tmp_path / "s2" / "manifest.json").read_text().replace('"judge-b"', '"judge-c"'))
        capsys.readouterr()
        assert run(tmp_path, "s2", "--resume", "--judge", spec) == 2     # resumed against another judge model
        err = capsys.readouterr().err
        assert "--judge" in err and "now serves 'judge-b'" in err and "graded by 'judge-c'" in err
        (tmp_path / "s2" / "manifest.json").write_text(
            (tmp_path / "s2" / "manifest.json").read_text().replace('"judge-c"', '"judge-b"'))
        assert run(tmp_path, "s2", "--resume", "--judge", spec) == 0
    assert RunDir(tmp_path / "s1").read_manifest()["judge_served_model"] == "judge-a"
    assert RunDir(tmp_path / "s2").read_manifest()["judge_served_model"] == "judge-b"
    capsys.readouterr()
    assert cli.main(["merge", str(tmp_path / "s1"), str(tmp_path / "s2"), "--out", str(tmp_path / "m")]) == 2
    err = capsys.readouterr().err
    assert "were graded by different models" in err and "--judge" in err
    assert "'judge-a' to shard 1/2" in err and "'judge-b' to shard 2/2" in err and "Traceback" not in err


def test_a_run_without_judge_records_no_judge_model(tmp_path: Path, scripted: None) -> None:
    assert run(tmp_path, "plain") == 0
    assert RunDir(tmp_path / "plain").read_manifest()["judge_served_model"] is None
