"""`factprobe taxonomy` end to end against a local OpenAI-compatible server (tests/fakes.py
ChatServer, started by the test on 127.0.0.1; nothing leaves the machine). The same server answers
the run's questions and plays the classifying judge: refusals, the stricter retry, the kinds of a
preset, the table and figure, and the frames sent with `--with-media`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

import pytest
from rich.console import Console

import factprobe.eval.cli.main as cli
import factprobe.eval.grading.judge_loader as judge_loader
from factprobe.eval.core.schema import Question
from factprobe.eval.taxonomy.classify import TAXONOMY_SYSTEM
from factprobe.eval.taxonomy.kinds import REFUSAL, UNCLASSIFIED
from factprobe.eval.taxonomy.record import TAXONOMY_FILE
from factprobe.eval.taxonomy.table import taxonomy_table
from tests.fakes import ChatServer, ScriptedModel, write_questions

QUESTIONS = [
    Question(id="ore", question="Which metal is extracted from bauxite?", answer="Aluminium"),
    Question(id="peak", question="Which mountain is the highest in Africa?", answer="Kilimanjaro"),
    Question(id="river", question="Which river carries the most water?", answer="Amazon"),
    Question(id="lake", question="Which lake is the deepest in the world?", answer="Baikal"),
    Question(id="tea", question="Which country grows the most tea?", answer="China"),
    Question(id="void", question="What is the name of the first person born on Mars?", answer=None,
             answerable=False),
]
ANSWERS = {"bauxite": "Iron", "Africa": "Mount Kenya", "water": "Nile", "deepest": "I don't know",
           "tea": "China", "Mars": "I don't know"}


def text_of(message: dict) -> str:
    content = message["content"]
    return content if isinstance(content, str) else " ".join(p.get("text", "") for p in content)


def is_judge(body: dict) -> bool:
    return body["messages"][0]["content"] == TAXONOMY_SYSTEM


def about(body: dict, word: str) -> bool:
    return word in text_of(next(m for m in body["messages"] if m["role"] == "user"))


def reply(body: dict) -> str:
    """Answers by the question; as the judge: knowledge for the metal, an unreadable reply for the
    mountain that the stricter retry fixes, two kinds for the river (unreadable both times); with
    MMWorld's kinds, hallucination for the metal and a kind MMWorld does not have otherwise."""
    first_user = text_of(next(m for m in body["messages"] if m["role"] == "user"))
    if not is_judge(body):
        last_user = text_of([m for m in body["messages"] if m["role"] == "user"][-1])
        answer = next((value for key, value in ANSWERS.items() if key in last_user), "I don't know")
        return f"Answer: {answer}\nConfidence: 60"
    retry = len(body["messages"]) > 2
    if "hallucination:" in first_user:
        return "Kind: hallucination\nReason: x" if "bauxite" in first_user else "Kind: format\nReason: x"
    if "bauxite" in first_user:
        return "Kind: knowledge\nReason: iron is not won from bauxite."
    if "Africa" in first_user:
        return "Kind: reasoning" if retry else "It looks like a knowledge problem to me."
    return "Kind: knowledge or reasoning\nReason: unsure."


@pytest.fixture
def server() -> Iterator[ChatServer]:
    with ChatServer(reply) as chat:
        yield chat


def judge_calls(server: ChatServer) -> list[dict]:
    return [body for body in server.chats() if is_judge(body)]


def answered_run(tmp_path: Path, server: ChatServer) -> tuple[Path, str]:
    """A run of vanilla and refusal on QUESTIONS, answered by the server; (its directory, the model)."""
    dataset = write_questions(tmp_path / "q.jsonl", QUESTIONS)
    out = tmp_path / "run"
    model = f"openai:scripted@{server.url}"
    assert cli.main(["run", "--dataset", f"jsonl:{dataset}", "--strategies", "vanilla,refusal",
                     "--model", model, "--out", str(out), "--no-cache"]) == 0
    grades = {(r["question_id"], r["strategy"]): r["grade"]
              for r in map(json.loads, (out / "results.jsonl").read_text().splitlines())}
    assert grades[("lake", "vanilla")] == grades[("void", "vanilla")] == "NOT_ATTEMPTED"
    assert grades[("river", "vanilla")] == "INCORRECT" and grades[("tea", "vanilla")] == "CORRECT"
    return out, model


def test_refusals_retries_table_and_figure(tmp_path: Path, server: ChatServer, capsys) -> None:
    out, model = answered_run(tmp_path, server)
    capsys.readouterr()
    assert cli.main(["taxonomy", str(out), "--judge", model, "--no-cache"]) == 0
    printed = capsys.readouterr().out
    calls = judge_calls(server)
    # per strategy: one call for the metal, two for the mountain and the river; none for the refusal
    assert len(calls) == 2 * 5
    assert not [c for c in calls if about(c, "deepest") or about(c, "Mars") or about(c, "most tea")]
    retry = next(c for c in calls if about(c, "Africa") and len(c["messages"]) > 2)
    assert retry["messages"][-2] == {"role": "assistant", "content": "It looks like a knowledge problem to me."}
    assert "could not be read" in retry["messages"][-1]["content"]

    summary = json.loads((out / "summary.json").read_text())["taxonomy"]
    for strategy in ("vanilla", "refusal"):
        counts = summary[strategy]
        assert (counts["n"], counts["n_incorrect"], counts["n_not_attempted"]) == (4, 3, 1)  # not the void one
        assert (counts["knowledge"], counts["reasoning"], counts[REFUSAL], counts[UNCLASSIFIED],
                counts["pending"]) == (1, 1, 1, 1, 0)
        assert counts["shares"][REFUSAL] == 0.25 and sum(counts["shares"].values()) == pytest.approx(1.0)
        assert counts["kind_set"] == "default" and counts["judges"] == [model]
    entries = [json.loads(line) for line in (out / TAXONOMY_FILE).read_text().splitlines()]
    refusal = next(e for e in entries if e["question_id"] == "lake")
    assert refusal["kind"] == REFUSAL and refusal["attempts"] == 0 and refusal["grade"] == "NOT_ATTEMPTED"
    river = next(e for e in entries if e["question_id"] == "river")
    assert river["kind"] == UNCLASSIFIED and river["attempts"] == 2      # kept, never dropped
    assert "unclassified" in printed and "refusal" in printed and (out / "taxonomy.png").is_file()

    wide = Console(width=200, record=True)
    wide.print(taxonomy_table(summary))
    lines = wide.export_text().splitlines()
    assert any("vanilla count" in line and "refusal share" in line for line in lines)
    assert any(line.split()[:5] == ["refusal", "1", "25.0", "1", "25.0"] for line in lines)

    # no row of this run was answered with images
    assert cli.main(["taxonomy", str(out), "--judge", model, "--no-cache", "--with-media"]) == 2
    assert "--with-media: the run in" in capsys.readouterr().err


def test_a_preset_classifies_again_and_switching_back_asks_nothing(tmp_path: Path, server: ChatServer) -> None:
    out, model = answered_run(tmp_path, server)
    assert cli.main(["taxonomy", str(out), "--judge", model, "--no-cache"]) == 0
    # MMWorld's kinds: every row classified again; a kind it does not have is unclassified
    before = len(judge_calls(server))
    assert cli.main(["taxonomy", str(out), "--judge", model, "--no-cache", "--preset", "mmworld"]) == 0
    assert len(judge_calls(server)) == before + 2 * 5
    counts = json.loads((out / "summary.json").read_text())["taxonomy"]["vanilla"]
    assert counts["kind_set"] == "mmworld" and "knowledge" not in counts
    assert (counts["hallucination"], counts[REFUSAL], counts[UNCLASSIFIED]) == (1, 1, 2)

    # back to the default kinds: nothing asked again, the earlier counts are the summary's again
    before = len(judge_calls(server))
    assert cli.main(["taxonomy", str(out), "--judge", model, "--no-cache"]) == 0
    assert len(judge_calls(server)) == before
    counts = json.loads((out / "summary.json").read_text())["taxonomy"]["vanilla"]
    assert counts["kind_set"] == "default" and (counts["knowledge"], counts[UNCLASSIFIED]) == (1, 1)


PIL = pytest.importorskip("PIL", reason="attached images are encoded with Pillow: pip install -e '.[media]'")


def image_parts(message: dict) -> list[dict]:
    content = message["content"]
    return [part for part in content if part.get("type") == "image_url"] if isinstance(content, list) else []


def test_with_media_the_judge_sees_the_frames_the_model_saw(tmp_path: Path, server: ChatServer,
                                                          monkeypatch, capsys) -> None:
    from PIL import Image

    frames = tmp_path / "frames"
    frames.mkdir()
    for index in range(3):
        Image.new("RGB", (24, 16), (40 * index,) * 3).save(frames / f"{index:02d}.png")
    dataset = write_questions(tmp_path / "q.jsonl", [
        Question(id="ore", question="Which metal is extracted from the bauxite shown?", answer="Aluminium",
                 media=[str(frames)]),
        Question(id="peak", question="Which mountain is the highest in Africa?", answer="Kilimanjaro")])
    out = tmp_path / "run"
    model = f"openai:scripted@{server.url}"
    assert cli.main(["run", "--dataset", f"jsonl:{dataset}", "--strategies", "vanilla", "--model", model,
                     "--out", str(out), "--no-cache"]) == 0
    assert cli.main(["taxonomy", str(out), "--judge", model, "--no-cache", "--with-media"]) == 0
    calls = judge_calls(server)
    ore = next(c for c in calls if about(c, "bauxite"))
    assert len(image_parts(ore["messages"][-1])) == 3
    assert "The 3 attached images are the frames the model was shown" in text_of(ore["messages"][-1])
    assert all(not image_parts(c["messages"][-1]) for c in calls if about(c, "Africa"))  # asked as text
    entries = [json.loads(line) for line in (out / TAXONOMY_FILE).read_text().splitlines()]
    assert all(e["media"] is True for e in entries)
    assert {e["question_id"]: e["images"] for e in entries} == {"ore": 3, "peak": 0}

    capsys.readouterr()
    monkeypatch.setattr(judge_loader, "load_model", lambda spec, **kwargs: ScriptedModel(lambda m, p: "x"))
    assert cli.main(["taxonomy", str(out), "--judge", "scripted", "--with-media"]) == 2
    assert "the judge scripted reads text only" in capsys.readouterr().err
