"""`--entity-source media`: the RAG entity step shown the question's frames may name what they
show, and those entities reach the retriever (Video SimpleQA's RAG, Table 3).

The model is an OpenAI-compatible server the test starts on 127.0.0.1 that records each request;
the retriever is a fake standing in for Wikipedia (no network), recording the queries it gets.
The question and its two frames (PNGs the test writes) are invented.
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

QUESTION = Question(id="nest", question="Where does the bird in this clip build its nest?", answer="Reed beds",
                    media=["frames/nest/1.png", "frames/nest/2.png"])
SEEN = ["Glimmer wren", "Orla Marsh"]   # what the frames show; neither is a word of the question



def reply(body: dict) -> str:
    if "Entities:" in request_text(body):
        return "\n".join(SEEN)
    return "Answer: Reed beds\nConfidence: 60%"



@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    return question_with_frames(tmp_path, QUESTION, [(40, 120, 60), (60, 90, 30)])


def run(tmp_path: Path, dataset: Path, monkeypatch: pytest.MonkeyPatch, name: str,
        *extra: str) -> tuple[list[dict], list[str], dict]:
    """(entity requests the server got, queries the retriever got, the row's queries step)."""
    RecordingWikipedia.queries = []
    monkeypatch.setattr(wikipedia_search, "WikipediaSearch", RecordingWikipedia)
    out = tmp_path / name
    with ChatServer(reply) as server:
        code = cli.main(["run", "--dataset", f"jsonl:{dataset}", "--strategies", "rag", "--retriever",
                         "wikipedia", "--model", f"openai:scripted@{server.url}", "--no-cache",
                         "--out", str(out), *extra])
        asks = [body for body in server.chats() if "Entities:" in request_text(body)]
    assert code == 0
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    step = next(step for step in rows[0]["trace"] if step["step"] == "queries")
    return asks, list(RecordingWikipedia.queries), step


def test_entities_read_off_the_frames_reach_the_retriever(tmp_path: Path, dataset: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    asks, queries, step = run(tmp_path, dataset, monkeypatch, "media", "--entity-source", "media")
    assert len(asks) == 1 and request_images(asks[0]) == 2
    assert "attached images" in request_text(asks[0])
    assert step["method"] == "media" and step["entities"] == SEEN and step["entity_source"] == "media"
    assert set(SEEN) <= set(queries) and QUESTION.question in queries


def test_by_default_entities_not_in_the_question_are_dropped(tmp_path: Path, dataset: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    asks, queries, step = run(tmp_path, dataset, monkeypatch, "question")
    assert len(asks) == 1 and request_images(asks[0]) == 2   # the frames go with every call of the job
    assert step["method"] == "rules_fallback" and not set(SEEN) & set(queries)


def test_without_frames_the_media_source_keeps_only_the_question_words(tmp_path: Path, dataset: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    asks, queries, step = run(tmp_path, dataset, monkeypatch, "text", "--entity-source", "media",
                              "--modality", "text")
    assert len(asks) == 1 and request_images(asks[0]) == 0
    assert step["method"] == "rules_fallback" and not set(SEEN) & set(queries)
