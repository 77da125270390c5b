"""`--entity-model MODEL`: one named model reads the RAG entities off the frames and question for
whichever model is under test (Video SimpleQA Table 3's protocol), recorded in the manifest.

Both models are OpenAI-compatible servers the test starts on 127.0.0.1, each recording its requests;
the retriever is a fake standing in for Wikipedia (no network). The question and its two frames
(PNGs the test writes) are invented.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
import factprobe.retrieval.wikipedia_search as wikipedia_search
from factprobe.eval.core.schema import Question
from tests.fakes import ChatServer, RecordingWikipedia, question_with_frames, request_images, request_text

PIL = pytest.importorskip("PIL", reason="the question's frames are encoded with Pillow")

QUESTION = Question(id="den", question="Which river flows past the den shown here?", answer="Velka",
                    media=["frames/den/1.png", "frames/den/2.png"])
SEEN = ["Marsh otter", "Brenwick Gorge"]   # what the entity model names; neither is a word of the question



def entity_reply(body: dict) -> str:
    return "\n".join(SEEN) if "Entities:" in request_text(body) else "Answer: wrong model\nConfidence: 1%"


def answering_reply(body: dict) -> str:
    return "Nothing here\n" if "Entities:" in request_text(body) else "Answer: Velka\nConfidence: 70%"



@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    return question_with_frames(tmp_path, QUESTION, [(20, 70, 120), (90, 60, 30)])


def test_the_entity_model_alone_names_the_entities_and_the_manifest_records_it(
        tmp_path: Path, dataset: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    RecordingWikipedia.queries = []
    monkeypatch.setattr(wikipedia_search, "WikipediaSearch", RecordingWikipedia)
    out = tmp_path / "run"
    with ChatServer(answering_reply, model="tested") as tested, ChatServer(entity_reply, model="reader") as reader:
        code = cli.main(["run", "--dataset", f"jsonl:{dataset}", "--strategies", "vanilla,rag", "--retriever",
                         "wikipedia", "--entity-source", "media", "--model", f"openai:tested@{tested.url}",
                         "--entity-model", f"openai:reader@{reader.url}", "--no-cache", "--out", str(out)])
        tested_chats, reader_chats = tested.chats(), reader.chats()
    assert code == 0
    assert [request_text(body) for body in tested_chats if "Entities:" in request_text(body)] == []
    assert len(reader_chats) == 1 and "Entities:" in request_text(reader_chats[0])
    assert request_images(reader_chats[0]) == 2 and reader_chats[0]["model"] == "reader"
    assert len(tested_chats) == 2                       # the two answers: vanilla's and rag's
    rows = {row["strategy"]: row for row in map(json.loads, (out / "results.jsonl").read_text().splitlines())}
    step = next(step for step in rows["rag"]["trace"] if step["step"] == "queries")
    assert step["method"] == "media" and step["entities"] == SEEN
    assert step["entity_model"].startswith("openai:reader@")
    assert set(SEEN) <= set(RecordingWikipedia.queries)
    assert rows["rag"]["answer"] == "Velka" and rows["rag"]["llm_calls"] == 2   # entity call counted
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["config"]["entity_model"].startswith("openai:reader@")
    assert manifest["entity_model"]["model"] == "reader"


def test_an_unreachable_entity_model_stops_the_run_before_any_question(
        tmp_path: Path, dataset: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "dead"
    with ChatServer(answering_reply, model="tested") as tested:
        code = cli.main(["run", "--dataset", f"jsonl:{dataset}", "--strategies", "rag", "--retriever", "wikipedia",
                         "--model", f"openai:tested@{tested.url}", "--entity-model",
                         "openai:reader@http://127.0.0.1:9/v1", "--max-retries", "0", "--request-timeout", "2",
                         "--no-cache", "--out", str(out)])
        assert tested.chats() == []
    assert code == 2 and "--entity-model" in capsys.readouterr().err
