"""`--retriever wikipedia,web`: both search engines asked every query, their rankings merged by
reciprocal rank, each passage keeping its source (Video SimpleQA's RAG searched two sources).

The model is an OpenAI-compatible server the test starts on 127.0.0.1; both engines are fakes
standing in for Wikipedia and DuckDuckGo (no network). The question is invented.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
import factprobe.retrieval.web_search as web_search
import factprobe.retrieval.wikipedia_search as wikipedia_search
from factprobe.eval.core.schema import Question
from factprobe.retrieval.base import RetrievalError, RetrievedPassage
from factprobe.retrieval.fusion import MultiSourceSearch
from factprobe.retrieval.registry import parse_spec
from tests.fakes import ChatServer

QUESTION = Question(id="q1", question="Who designed the Tollmere lighthouse?", answer="Ada Quill")


class FakeEngine:
    """A search engine returning a fixed ranking for any query and recording the queries."""

    def __init__(self, name: str, ids: list[str]) -> None:
        self.name, self.key, self.ids, self.queries = name, f"fake-{name}", ids, []

    def search(self, query: str, top_k: int) -> list[RetrievedPassage]:
        self.queries.append(query)
        return [RetrievedPassage(id=i, title=i, text=f"{i} text", score=1.0, source=self.name)
                for i in self.ids][:top_k]


def test_the_rankings_are_merged_by_reciprocal_rank_with_each_source_kept() -> None:
    wiki, web = FakeEngine("wikipedia", ["w1", "shared", "w3"]), FakeEngine("web", ["shared", "e2", "e3"])
    found = MultiSourceSearch([wiki, web]).search("tollmere", 3)
    # RRF (k = 60): shared 1/62 + 1/61, w1 1/61, e2 1/62, w3 and e3 1/63 each
    assert [p.id for p in found] == ["shared", "w1", "e2"]
    assert [p.source for p in found] == ["wikipedia", "wikipedia", "web"]
    assert wiki.queries == web.queries == ["tollmere"]


@pytest.mark.parametrize("text", ["bm25,web", "wikipedia,wikipedia", "wikipedia,web:corpus.jsonl", "wikipedia,"])
def test_only_distinct_search_engines_combine(text: str) -> None:
    with pytest.raises(RetrievalError, match="retriever"):
        parse_spec(text)


def test_a_rag_run_gives_the_model_passages_of_both_sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    engines = {"wikipedia": FakeEngine("wikipedia", ["w1", "w2"]), "web": FakeEngine("web", ["e1", "e2"])}
    monkeypatch.setattr(wikipedia_search, "WikipediaSearch", lambda: engines["wikipedia"])
    monkeypatch.setattr(web_search, "WebSearch", lambda: engines["web"])
    dataset = tmp_path / "q.jsonl"
    dataset.write_text(QUESTION.model_dump_json() + "\n", encoding="utf-8")
    prompts: list[str] = []

    def reply(body: dict) -> str:
        prompts.append(body["messages"][-1]["content"])
        return "Tollmere lighthouse" if "Entities:" in prompts[-1] else "Answer: Ada Quill\nConfidence: 80%"

    out = tmp_path / "run"
    with ChatServer(reply) as server:
        code = cli.main(["run", "--dataset", f"jsonl:{dataset}", "--strategies", "rag", "--retriever", "wikipedia,web",
                         "--top-k", "4", "--model", f"openai:scripted@{server.url}", "--no-cache", "--out", str(out)])
    assert code == 0
    row = json.loads((out / "results.jsonl").read_text().splitlines()[0])
    step = next(step for step in row["trace"] if step["step"] == "retrieve")
    assert step["retriever"] == "wikipedia,web" and step["source"] == "wikipedia,web"
    assert sorted(step["passages"]) == ["e1", "e2", "w1", "w2"]
    assert engines["wikipedia"].queries and engines["wikipedia"].queries == engines["web"].queries
    assert all(f"{pid} text" in prompts[-1] for pid in ("w1", "e1"))


def test_a_local_retriever_in_a_combination_is_refused_naming_the_option(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    dataset = tmp_path / "q.jsonl"
    dataset.write_text(QUESTION.model_dump_json() + "\n", encoding="utf-8")
    code = cli.main(["run", "--dataset", f"jsonl:{dataset}", "--strategies", "rag", "--retriever", "bm25,web",
                     "--model", "openai:scripted@http://127.0.0.1:9/v1", "--out", str(tmp_path / "run")])
    assert code == 2 and "--retriever" in capsys.readouterr().err
