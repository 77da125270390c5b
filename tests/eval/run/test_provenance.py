"""Provenance by content (issue 32, item 2): the manifest names every input file by its sha256
(`inputs`) and the model the server reports (`served_model`); `--resume` and `factprobe merge`
refuse a file edited since, or shards answered by different served models, with exit 2 and a
message naming the option and what changed.

Real model services are unreachable here, so the served-model tests use local OpenAI-compatible
servers (tests.fakes.ChatServer), two of them in turn on one port, reporting different models.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.eval.core.schema import Question
from factprobe.eval.run.inputs import content_sha256
from factprobe.eval.store.run_dir import RunDir
from tests.fakes import ChatServer, ScriptedModel, write_questions

QUESTIONS = [Question(id=f"item-{i}", question=f"Which code name was given to item {i}?", answer=f"Tessera{i}",
                     category="places") for i in range(8)]
PROMPT = "Answer briefly.\n{question}\nReply as `Answer: ...` then `Confidence: N`.\n"


def reply(messages, params) -> str:
    number = re.search(r"item (\d+)", messages[-1]["content"])
    return f"Answer: Tessera{number.group(1) if number else 0}\nConfidence: 70"


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> None:
    """The model under test is a scripted stand-in (no server: it reports no served model)."""
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: ScriptedModel(reply))


def run(tmp_path: Path, out: str, *extra: str, strategies: str = "vanilla") -> int:
    dataset = tmp_path / "q.jsonl"
    if not dataset.exists():
        write_questions(dataset, QUESTIONS)
    return cli.main(["run", "--dataset", f"jsonl:{dataset}", "--strategies", strategies,
                     "--out", str(tmp_path / out), *extra])


def merge(tmp_path: Path, *shards: str) -> int:
    return cli.main(["merge", *(str(tmp_path / shard) for shard in shards), "--out", str(tmp_path / "merged")])


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_manifest_names_every_input_file_by_path_and_sha256(tmp_path: Path, scripted: None) -> None:
    prompt, plugin = tmp_path / "prompt.txt", tmp_path / "my_plugin.py"
    prompt.write_text(PROMPT)
    plugin.write_text("NOTHING = 1\n")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.txt").write_text("Tessera0 is the code name of item 0.\n")
    assert run(tmp_path, "run", "--prompt-file", str(prompt), "--plugin", str(plugin),
               "--retriever", f"bm25:{corpus}", strategies="vanilla,rag") == 0
    inputs = RunDir(tmp_path / "run").read_manifest()["inputs"]
    assert inputs["prompt_file"] == {"path": str(prompt), "sha256": sha256(prompt)}
    assert inputs["dataset"] == {"path": str(tmp_path / "q.jsonl"), "sha256": sha256(tmp_path / "q.jsonl")}
    assert inputs["plugins"] == [{"path": str(plugin), "sha256": sha256(plugin)}]
    assert inputs["retriever"] == {"path": str(corpus), "sha256": content_sha256(corpus)}
    assert set(inputs) == {"dataset", "prompt_file", "plugins", "retriever"}


def test_a_folder_digest_follows_its_files_names_and_contents(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.txt").write_text("one")
    first = content_sha256(tmp_path / "docs")
    (tmp_path / "docs" / ".hidden").write_text("ignored")
    assert content_sha256(tmp_path / "docs") == first
    (tmp_path / "docs" / "a.txt").write_text("two")
    assert content_sha256(tmp_path / "docs") != first
    (tmp_path / "docs" / "a.txt").write_text("one")
    (tmp_path / "docs" / "a.txt").rename(tmp_path / "docs" / "b.txt")
    assert content_sha256(tmp_path / "docs") != first


def test_resume_after_editing_the_prompt_file_is_refused_naming_it(tmp_path: Path, scripted: None, capsys) -> None:
    prompt = tmp_path / "prompt.txt"
    prompt.write_text(PROMPT)
    assert run(tmp_path, "run", "--prompt-file", str(prompt)) == 0
    results = tmp_path / "run" / "results.jsonl"
    lines = results.read_text().splitlines(keepends=True)
    results.write_text("".join(lines[:-2]))          # an interrupted run: two rows left to answer
    before = sha256(prompt)
    prompt.write_text(PROMPT.replace("briefly", "in one word"))
    capsys.readouterr()
    assert run(tmp_path, "run", "--resume") == 2
    message = capsys.readouterr().err
    assert f"--prompt-file {prompt} changed since the run in {tmp_path / 'run'} started" in message
    assert f"its content differs (sha256 {before[:12]}… in the manifest, {sha256(prompt)[:12]}… now)" in message
    assert "Traceback" not in message
    assert len(results.read_text().splitlines()) == len(lines) - 2     # nothing answered with the new prompt
    # the prompt restored, the run continues
    prompt.write_text(PROMPT)
    assert run(tmp_path, "run", "--resume") == 0
    assert len(results.read_text().splitlines()) == len(lines)


def test_resume_after_editing_the_dataset_file_is_refused_naming_it(tmp_path: Path, scripted: None,
                                                                     capsys) -> None:
    assert run(tmp_path, "run") == 0
    dataset = tmp_path / "q.jsonl"
    dataset.write_text(dataset.read_text() + "\n")   # the same questions, another file
    capsys.readouterr()
    assert run(tmp_path, "run", "--resume") == 2
    assert f"--dataset {dataset} changed since the run" in capsys.readouterr().err


def shards_with(tmp_path: Path, option: str, path: Path, contents: tuple[str, str], *extra: str,
                strategies: str = "vanilla") -> None:
    """Shards 1/2 and 2/2 of one run, `option` naming the file `path`, whose content is
    `contents[0]` for the first shard and `contents[1]` for the second."""
    for number, content in enumerate(contents, start=1):
        path.write_text(content)
        assert run(tmp_path, f"s{number}", option, str(path), "--shard", f"{number}/2", *extra,
                   strategies=strategies) == 0


def test_merge_refuses_shards_whose_prompt_file_differs_in_content(tmp_path: Path, scripted: None,
                                                                   capsys) -> None:
    prompt = tmp_path / "prompt.txt"
    shards_with(tmp_path, "--prompt-file", prompt, (PROMPT, PROMPT.replace("briefly", "in one word")))
    capsys.readouterr()
    assert merge(tmp_path, "s1", "s2") == 2
    message = capsys.readouterr().err
    assert "are not shards of one run: --prompt-file" in message
    assert f"its content differs (sha256 {hashlib.sha256(PROMPT.encode()).hexdigest()[:12]}… in shard 1/2" in message
    assert not (tmp_path / "merged" / "results.jsonl").exists()


def test_merge_refuses_shards_whose_answers_file_differs(tmp_path: Path, capsys) -> None:
    answers = tmp_path / "answers.jsonl"
    lines = [json.dumps({"id": q.id, "answer": q.answer}) for q in QUESTIONS]
    edited = [*lines[:-1], json.dumps({"id": QUESTIONS[-1].id, "answer": "something else"})]
    shards_with(tmp_path, "--answers", answers, ("\n".join(lines) + "\n", "\n".join(edited) + "\n"),
                strategies="recorded")
    capsys.readouterr()
    assert merge(tmp_path, "s1", "s2") == 2
    message = capsys.readouterr().err
    assert f"--answers {answers}: its content differs" in message


def test_merge_refuses_shards_whose_plugin_differs(tmp_path: Path, scripted: None, capsys) -> None:
    plugin = tmp_path / "my_plugin.py"
    shards_with(tmp_path, "--plugin", plugin, ("NOTHING = 1\n", "NOTHING = 2\n"))
    capsys.readouterr()
    assert merge(tmp_path, "s1", "s2") == 2
    assert f"--plugin {plugin}: its content differs" in capsys.readouterr().err


def test_shards_of_one_content_merge(tmp_path: Path, scripted: None) -> None:
    prompt = tmp_path / "prompt.txt"
    shards_with(tmp_path, "--prompt-file", prompt, (PROMPT, PROMPT))
    assert merge(tmp_path, "s1", "s2") == 0
    manifest = RunDir(tmp_path / "merged").read_manifest()
    assert manifest["inputs"]["prompt_file"]["sha256"] == sha256(prompt)
    assert [entry["served_model"] for entry in manifest["merged_from"]] == [None, None]


def answer(body: dict) -> str:
    return reply(body["messages"], None)


def test_merge_refuses_shards_answered_by_different_served_models(tmp_path: Path, capsys) -> None:
    """One --model spec, one URL: the server behind it was restarted with another model between
    the shards (two local servers in turn on one port)."""
    with ChatServer(answer, model="model-a", served="model-a") as first:
        port = first.httpd.server_address[1]
        spec = f"openai:gpt@{first.url}"
        assert run(tmp_path, "s1", "--model", spec, "--shard", "1/2", "--no-cache") == 0
    with ChatServer(answer, model="model-b", served="model-b", port=port):
        assert run(tmp_path, "s2", "--model", spec, "--shard", "2/2", "--no-cache") == 0
        shutil.copytree(tmp_path / "s1", tmp_path / "s1-copy")
        results = tmp_path / "s1-copy" / "results.jsonl"
        results.write_text("".join(results.read_text().splitlines(keepends=True)[:-1]))
        capsys.readouterr()
        # resuming shard 1 against the other model is refused too
        assert run(tmp_path, "s1-copy", "--resume", "--no-cache") == 2
        message = capsys.readouterr().err
        assert "the server now serves 'model-b'" in message and "answered by 'model-a'" in message
    assert RunDir(tmp_path / "s1").read_manifest()["served_model"] == "model-a"
    assert RunDir(tmp_path / "s2").read_manifest()["served_model"] == "model-b"
    assert merge(tmp_path, "s1", "s2") == 2
    message = capsys.readouterr().err
    assert "were answered by different models" in message
    assert "'model-a' to shard 1/2" in message and "'model-b' to shard 2/2" in message


def test_resume_of_a_split_run_after_editing_the_prompt_file_is_refused_before_any_shard(
        tmp_path: Path, capsys) -> None:
    prompt = tmp_path / "prompt.txt"
    prompt.write_text(PROMPT)
    with ChatServer(answer) as server:
        given = ("--model", f"openai:gpt@{server.url}", "--no-cache", "--workers", "2")
        assert run(tmp_path, "split", "--prompt-file", str(prompt), *given) == 0
        asked = len(server.chats())
        prompt.write_text(PROMPT.replace("briefly", "in one word"))
        capsys.readouterr()
        assert run(tmp_path, "split", "--resume", *given) == 2
        assert f"--prompt-file {prompt} changed since the run in {tmp_path / 'split'} started" in capsys.readouterr().err
        assert len(server.chats()) == asked


def test_the_judge_prompt_file_and_answers_file_are_inputs_a_module_plugin_is_not(tmp_path: Path) -> None:
    from factprobe.eval.config.run_config import RunConfig
    from factprobe.eval.run.inputs import input_digests

    template = tmp_path / "judge.txt"
    template.write_text("Question: {question}\nGold: {gold}\nAnswer: {answer}\nGrade:")
    answers = tmp_path / "answers.jsonl"
    answers.write_text(json.dumps({"id": "item-0", "answer": "Tessera0"}) + "\n")
    config = RunConfig(judge="openai:judge@http://127.0.0.1:9/v1", judge_prompt_file=template, answers=answers,
                       plugins=["json"])
    inputs = input_digests(config)
    assert inputs == {"judge_prompt_file": {"path": str(template), "sha256": sha256(template)},
                      "answers": {"path": str(answers.resolve()), "sha256": sha256(answers)}}
