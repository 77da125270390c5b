"""The RAG graph and `X+rag` composition on a scripted model (no model is loaded)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.agents.context import StrategyContext
from factprobe.agents.registry import UnknownStrategyError, default_strategies, get_strategy
from factprobe.agents.resources import RunResources
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.core.errors import StrategyOptionError
from factprobe.eval.core.schema import Passage, Question
from factprobe.eval.datasets.sample import load_sample, load_sample_corpus
from factprobe.eval.store.run_dir import RunDir
from factprobe.retrieval import index_cache
from factprobe.retrieval.corpus import fingerprint
from factprobe.retrieval.pipeline import pipeline_for
from tests.fakes import ScriptedModel, last_user

SAMPLE = {q.id: q for q in load_sample()}
PARIS_FACT = "Paris is the capital and largest city of France"


def reader_script(messages, params) -> str:
    """Lists entities when asked; otherwise answers from a passage in the prompt, or gives up."""
    text = last_user(messages)
    if text.rstrip().endswith("Entities:"):
        return "- France\n- Paris is the capital"          # the second line is an answer: dropped
    if PARIS_FACT in text:
        return "Answer: Paris\nConfidence: 90"
    if "Ada Lovelace" in text:
        return "Answer: Ada Lovelace\nConfidence: 70"
    return "Answer: I don't know\nConfidence: 5"


def context_for(model: ScriptedModel, **options) -> StrategyContext:
    return StrategyContext(model=model, options={"retriever": "bm25", "top_k": 3, **options},
                           resources=RunResources(corpus=load_sample_corpus(), config=RunConfig(), retrieval=pipeline_for))


def run_graph(name: str, question: Question, model: ScriptedModel, **options) -> dict:
    graph = get_strategy(name).build(context_for(model, **options))
    return asyncio.run(graph.ainvoke({"question": question, "repeat": 0}))


def test_answer_prompt_holds_the_retrieved_passage() -> None:
    model = ScriptedModel(reader_script)
    state = run_graph("rag", SAMPLE["s-001"], model)
    answer_prompt = last_user(model.calls[-1][0])
    assert PARIS_FACT in answer_prompt and answer_prompt.index(PARIS_FACT) < answer_prompt.index("Question:")
    assert state["answer"] == "Paris" and state["confidence"] == 90
    # listed best last, right before the question
    assert answer_prompt.split("\n\nQuestion:")[0].endswith(state["context"][0]["text"])
    assert state["retrieved_ids"][0] == "pa-0001" and len(state["context"]) == 3
    assert set(state["context"][0]) == {"id", "title", "text", "score", "source"}
    assert state["retrieval_latency_s"] > 0
    # vanilla alone does not see the passage and gives up
    alone = ScriptedModel(reader_script)
    assert run_graph("vanilla", SAMPLE["s-001"], alone)["answer"] == "I don't know"


def test_trace_and_state_hold_the_queries() -> None:
    state = run_graph("rag", SAMPLE["s-001"], ScriptedModel(reader_script))
    steps = [step["step"] for step in state["trace"]]
    assert steps == ["extract_entities", "queries", "retrieve", "build_prompt", "generate", "parse"]
    queries_step = state["trace"][1]
    assert queries_step["entities"] == ["France"] and queries_step["method"] == "model"
    assert state["queries"] == queries_step["queries"] == ["What is the capital city of France? France"]
    retrieve_step = state["trace"][2]
    assert [q["query"] for q in retrieve_step["queries"]] == state["queries"]
    assert retrieve_step["passages"] == state["retrieved_ids"] and retrieve_step["corpus"] == "dataset"
    assert [call.purpose for call in state["calls"]] == ["extract_entities", "generate"]  # counted once each


def test_rag_equals_vanilla_plus_rag() -> None:
    first, second = ScriptedModel(reader_script), ScriptedModel(reader_script)
    rag = run_graph("rag", SAMPLE["s-004"], first)
    composed = run_graph("vanilla+rag", SAMPLE["s-004"], second)
    assert [m for m, _ in first.calls] == [m for m, _ in second.calls]
    assert [s["step"] for s in rag["trace"]] == [s["step"] for s in composed["trace"]]
    for key in ("answer", "confidence", "queries", "retrieved_ids", "context"):
        assert rag[key] == composed[key]


def test_rules_entities_make_no_extraction_call() -> None:
    model = ScriptedModel(reader_script)
    state = run_graph("rag", SAMPLE["s-001"], model, entities="rules")
    assert len(model.calls) == 1 and state["trace"][0] == {
        "step": "queries", "method": "rules", "entities": ["France"],
        "queries": ["What is the capital city of France? France"]}


def test_question_corpus_is_searched_when_present(isolated_cache: Path) -> None:
    question = Question(id="own", question="Who wrote the first computer program?", answer="Ada Lovelace",
                        passage_ids=["own-2"],
                        corpus=[Passage(id="own-1", title="Babbage", text="Charles Babbage designed engines."),
                                Passage(id="own-2", title="Lovelace", text="Ada Lovelace wrote the first computer program."),
                                Passage(id="own-3", title="Turing", text="Alan Turing described a universal machine.")])
    builds = index_cache.builds["bm25"]
    state = run_graph("rag", question, ScriptedModel(reader_script))
    assert state["retrieved_ids"][0] == "own-2" and set(state["retrieved_ids"]) <= {"own-1", "own-2", "own-3"}
    assert state["trace"][2]["corpus"] == "question" and state["answer"] == "Ada Lovelace"
    assert index_cache.builds["bm25"] == builds + 2     # the shared sample index, then the question's
    persisted = [p.name for p in (isolated_cache / "retrieval" / "indexes" / "bm25").iterdir()]
    assert persisted == [f"bm25-v1-{fingerprint(load_sample_corpus())}"]   # only the shared one


def test_every_strategy_composes_with_rag() -> None:
    names = [name for name in default_strategies() if name != "rag"]   # the model's (recorded reads a file)
    assert "vanilla" in names
    model = ScriptedModel(reader_script)
    model.supports_logprobs = True   # option_likelihood refuses a model without logprobs
    context = context_for(model)
    for name in names:
        spec = get_strategy(f"{name}+rag")
        assert spec.name == f"{name}+rag"
        assert spec.build(context) is not None
    with pytest.raises(UnknownStrategyError, match=r"NAME\+rag"):
        get_strategy("rag+rag")
    with pytest.raises(UnknownStrategyError):
        get_strategy("nonesuch+rag")


def test_bad_retrieval_options_are_option_errors() -> None:
    model = ScriptedModel(reader_script)
    for options, message in [({"top_k": 0}, "--top-k"), ({"retriever": "bm26"}, "unknown retriever")]:
        with pytest.raises(StrategyOptionError, match=message):
            get_strategy("rag").build(context_for(model, **options))


# -- through the CLI -------------------------------------------------------------------------------

QUESTIONS = [
    Question(id="paris", question="What is the capital city of France?", answer="Paris", passage_ids=["c-paris"]),
    Question(id="ada", question="Who wrote the first computer program?", answer="Ada Lovelace",
             passage_ids=["c-ada", "c-engine"]),
    Question(id="none", question="Which colour is the number seven?", answer="none", passage_ids=[]),
]
CORPUS = [
    Passage(id="c-paris", title="Paris", text=PARIS_FACT + ", on the Seine."),
    Passage(id="c-ada", title="Ada Lovelace", text="Ada Lovelace wrote the first computer program."),
    Passage(id="c-engine", title="Analytical Engine", text="The program was for Babbage's Analytical Engine."),
    Passage(id="c-rome", title="Rome", text="Rome is the capital city of Italy."),
]


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> ScriptedModel:
    model = ScriptedModel(reader_script)
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: model)
    return model


def write_jsonl(path: Path, records) -> Path:
    path.write_text("".join(r.model_dump_json() + "\n" for r in records), encoding="utf-8")
    return path


def test_cli_run_reports_recall_and_latency_split(tmp_path, scripted, capsys) -> None:
    questions = write_jsonl(tmp_path / "questions.jsonl", QUESTIONS)
    corpus = write_jsonl(tmp_path / "corpus.jsonl", CORPUS)
    out = tmp_path / "run"
    code = cli.main(["run", "--dataset", f"jsonl:{questions}", "--strategies", "vanilla,rag",
                     "--retriever", f"bm25:{corpus}", "--top-k", "2", "--out", str(out), "--verbose"])
    assert code == 0
    rows = {(r.strategy, r.question_id): r for r in RunDir(out).read_results()}
    rag_paris = rows[("rag", "paris")]
    assert rag_paris.grade == "CORRECT" and rows[("vanilla", "paris")].grade == "NOT_ATTEMPTED"
    assert rag_paris.retrieved_ids[0] == "c-paris" and rag_paris.gold_passage_ids == ["c-paris"]
    assert rag_paris.retrieval_latency_s > 0
    assert rag_paris.latency_s == pytest.approx(rag_paris.llm_latency_s + rag_paris.retrieval_latency_s)
    assert rows[("vanilla", "paris")].retrieved_ids is None
    summary = json.loads((out / "summary.json").read_text())
    rag, vanilla = summary["strategies"]["rag"], summary["strategies"]["vanilla"]
    expected_recall = sum(len(set(r.retrieved_ids) & set(r.gold_passage_ids)) / len(r.gold_passage_ids)
                          for (s, _), r in rows.items() if s == "rag" and r.gold_passage_ids) / 2
    assert rag["retrieval_recall_at_k"] == pytest.approx(expected_recall)
    assert rag["retrieval_n"] == 2 and rag["retrieval_k"] == 2 and rag["retrieval_mrr"] is not None
    assert vanilla["retrieval_recall_at_k"] is None and vanilla["retrieval_mrr"] is None
    assert rag["retrieval_latency_s_mean"] > 0 and vanilla["retrieval_latency_s_mean"] == 0
    printed = capsys.readouterr().out
    assert "Retrieval" in printed and "recall@k" in printed


def test_cli_rejects_bad_retriever_without_traceback(tmp_path, scripted, capsys) -> None:
    questions = write_jsonl(tmp_path / "questions.jsonl", QUESTIONS)
    code = cli.main(["run", "--dataset", f"jsonl:{questions}", "--strategies", "rag",
                     "--retriever", "bm26", "--out", str(tmp_path / "run")])
    assert code == 2 and "unknown retriever 'bm26'" in capsys.readouterr().err


def test_rag_without_any_corpus_is_refused_before_the_run(tmp_path, scripted, capsys) -> None:
    questions = write_jsonl(tmp_path / "questions.jsonl", QUESTIONS[:1])
    out = tmp_path / "run"
    assert cli.main(["run", "--dataset", f"jsonl:{questions}", "--strategies", "rag", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "has no corpus" in err and "--retriever bm25:PATH" in err and not out.exists()


def test_no_cache_keeps_retrieval_results_off_disk(isolated_cache: Path) -> None:
    from factprobe.retrieval.pipeline import RetrievalPipeline

    model = ScriptedModel(reader_script)
    context = StrategyContext(model=model, options={"retriever": "bm25", "top_k": 2},
                              resources=RunResources(corpus=load_sample_corpus(), config=RunConfig(use_cache=False),
                                                     retrieval=pipeline_for))
    assert RetrievalPipeline(context).cache is None
    state = asyncio.run(get_strategy("rag").build(context).ainvoke({"question": SAMPLE["s-001"], "repeat": 0}))
    assert state["retrieved_ids"][0] == "pa-0001"
    assert not (isolated_cache / "retrieval" / "results.sqlite").exists()
    cached = run_graph("rag", SAMPLE["s-001"], ScriptedModel(reader_script))   # caching on (default)
    assert (isolated_cache / "retrieval" / "results.sqlite").exists()
    again = run_graph("rag", SAMPLE["s-001"], ScriptedModel(reader_script))
    first, second = cached["trace"][2]["queries"][0], again["trace"][2]["queries"][0]
    assert not first["cached"] and second["cached"] and second["latency_s"] == first["latency_s"]
