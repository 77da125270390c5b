"""Decomposition, the decompose chain, sub-QA probes and the per-hop summary on a scripted model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.agents.context import StrategyContext
from factprobe.agents.models.cache import CachedModel, ResponseCache
from factprobe.agents.resources import RunResources
from factprobe.decomposition.decomposer import MAX_HOPS, PlanError, gold_plan, parse_plan
from factprobe.decomposition.hop_steps import probe_pipeline
from factprobe.eval.core.schema import Hop, Passage, Question, Result
from factprobe.eval.store.run_dir import RunDir
from tests.fakes import ScriptedModel, last_user, write_questions

ORWELL = Question(
    id="orwell", question="In which country was the author of the novel 'Nineteen Eighty-Four' born?",
    answer="India", category="literature",
    hops=[Hop(question="Who wrote the novel 'Nineteen Eighty-Four'?", answer="George Orwell"),
          Hop(question="In which country was #1 born?", answer="India")])
JUPITER = Question(
    id="jupiter", question="What is the name of the largest moon of the largest planet?", answer="Ganymede",
    category="science",
    hops=[Hop(question="Which planet is the largest in the Solar System?", answer="Jupiter"),
          Hop(question="What is the name of the largest moon of #1?", answer="Ganymede")])
NILE = Question(
    id="nile", question="Into which sea does the river through the capital of Egypt drain?",
    answer="Mediterranean Sea", category="geography",
    hops=[Hop(question="What is the capital city of Egypt?", answer="Cairo"),
          Hop(question="Which river flows through #1?", answer="Nile"),
          Hop(question="Into which sea does the #2 drain?", answer="Mediterranean Sea")])
PARIS = Question(id="paris", question="Which city is the capital of France?", answer="Paris", category="geography")

# What the scripted model replies, by a fragment of the prompt's last user message (first match wins).
REPLIES = {
    # decomposer replies (the prompt ends with the question)
    "Split the question": None,
    # vanilla on whole questions
    f"Question: {ORWELL.question}": "Answer: India\nConfidence: 80",
    f"Question: {JUPITER.question}": "Answer: Titan\nConfidence: 40",
    f"Question: {NILE.question}": "Answer: Mediterranean Sea\nConfidence: 50",
    f"Question: {PARIS.question}": "Answer: Paris\nConfidence: 95",
    # sub-questions
    "Question: Who wrote the novel 'Nineteen Eighty-Four'?": "Answer: Eric Blair\nConfidence: 70",
    "Question: In which country was Eric Blair born?": "Answer: India\nConfidence: 60",
    "Question: In which country was George Orwell born?": "Answer: India\nConfidence: 65",
    "Question: Which planet is the largest in the Solar System?": "Answer: Jupiter\nConfidence: 90",
    "Question: What is the name of the largest moon of Jupiter?": "Answer: Ganymede\nConfidence: 85",
    "Question: What is the capital city of Egypt?": "Answer: Cairo\nConfidence: 90",
    "Question: Which river flows through Cairo?": "Answer: Nile\nConfidence: 90",
    "Question: Into which sea does the Nile drain?": "Answer: Mediterranean Sea\nConfidence: 80",
}

PLANS = {
    ORWELL.question: "1. Who wrote the novel 'Nineteen Eighty-Four'?\n2. In which country was #1 born?",
    JUPITER.question: "1. Which planet is the largest in the Solar System?\n"
                      "2. What is the name of the largest moon of #1?",
    NILE.question: "1. What is the capital city of Egypt?\n2. Which river flows through #1?\n"
                   "3. Into which sea does the #2 drain?",
    PARIS.question: "1. Which city is the capital of France?",
}


def make_script(plans: dict[str, str]):
    def script(messages, params) -> str:
        text = last_user(messages)
        if "Split the question" in text:
            asked = text.rsplit("Question: ", 1)[1]
            return plans[asked]
        for fragment, reply in REPLIES.items():
            if reply is not None and fragment in text:
                return reply
        return "Answer: I don't know\nConfidence: 5"

    return script


def write_dataset(tmp_path: Path, questions: list[Question]) -> str:
    path = tmp_path / "multihop.jsonl"
    write_questions(path, questions)
    return f"jsonl:{path}"


def use_model(monkeypatch: pytest.MonkeyPatch, model) -> None:
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: model)


def run(tmp_path: Path, dataset: str, *args: str, out: str = "run") -> tuple[dict, dict]:
    path = tmp_path / out
    assert cli.main(["run", "--dataset", dataset, "--out", str(path), *args]) == 0
    rows = {(r.question_id, r.strategy): r for r in RunDir(path).read_results()}
    return rows, json.loads((path / "summary.json").read_text())


def prompts(model: ScriptedModel) -> list[str]:
    return [last_user(messages) for messages, _ in model.calls]


# --- parsing and validating plans -------------------------------------------------------------

def test_parse_plan_reads_numbered_lines_and_stops_where_numbering_restarts() -> None:
    reply = "Sure!\n1. Who wrote Hamlet?\n2) In which town was #1 born?\nQuestion: another\n1. Noise?"
    assert parse_plan(reply) == ("Who wrote Hamlet?", "In which town was #1 born?")


def test_a_twelve_hop_plan_is_rejected() -> None:
    reply = "\n".join(f"{i}. Sub-question number {i}?" for i in range(1, 13))
    with pytest.raises(PlanError, match=f"12 sub-questions, more than the limit of {MAX_HOPS}"):
        parse_plan(reply)


@pytest.mark.parametrize("reply, reference", [
    ("1. Who wrote Hamlet?\n2. Where was #3 born?", "#3"),     # dangling: no hop 3
    ("1. Where was #1 born?", "#1"),                          # refers to itself
    ("1. Who wrote Hamlet?\n2. Where was #0 born?", "#0"),
])
def test_dangling_and_forward_references_are_rejected(reply: str, reference: str) -> None:
    with pytest.raises(PlanError, match=f"refers to {reference}"):
        parse_plan(reply)


def test_no_numbered_lines_is_rejected() -> None:
    with pytest.raises(PlanError, match="no numbered"):
        parse_plan("George Orwell was born in India.")


def test_gold_plan_uses_gold_hops_and_falls_back_to_one_hop() -> None:
    assert gold_plan(NILE).hops == tuple(h.question for h in NILE.hops)
    single = gold_plan(PARIS)
    assert single.hops == (PARIS.question,) and "no gold sub-questions" in single.fallback


# --- the decompose chain ----------------------------------------------------------------------

def test_chain_substitutes_its_own_earlier_answers(tmp_path, monkeypatch) -> None:
    model = ScriptedModel(make_script(PLANS))
    use_model(monkeypatch, model)
    rows, summary = run(tmp_path, write_dataset(tmp_path, [ORWELL, NILE]), "--strategies", "decompose")
    sent = prompts(model)
    assert any("Question: In which country was Eric Blair born?" in p for p in sent)   # hop 1's answer
    decomposer_call = next(params for messages, params in model.calls if "Split the question" in last_user(messages))
    assert decomposer_call.stop == ("\n\n",)
    row = rows[("orwell", "decompose")]
    assert [h.answer for h in row.hops] == ["Eric Blair", "India"]
    assert [h.gold for h in row.hops] == ["George Orwell", "India"]
    assert [h.grade for h in row.hops] == ["INCORRECT", "CORRECT"]
    assert row.answer == "India" and row.grade == "CORRECT" and row.confidence == 60
    assert row.llm_calls == 3                                   # decompose + two hops; probes are not counted
    assert [s["step"] for s in row.trace] == ["decompose", "plan", "answer_hop", "answer_hop", "compose", "parse"]
    nile = rows[("nile", "decompose")]
    assert [h.question for h in nile.hops][2] == "Into which sea does the Nile drain?"
    chain = summary["per_hop"]["decompose"]["2"]["chain"]
    assert chain["final_right_hop_wrong"] == 1 and chain["final_right_hop_wrong_ids"] == ["orwell"]
    quality = summary["decomposition"]["decompose"]
    assert quality["hop_count_match_rate"] == 1.0 and quality["fallbacks"] == 0
    assert quality["hop_answer_match_rate"] == pytest.approx(4 / 5)      # Eric Blair is not George Orwell
    assert quality["hop_count_confusion"] == {"2": {"2": 1}, "3": {"3": 1}}


def test_twelve_hop_reply_falls_back_to_one_hop_recorded_in_the_trace(tmp_path, monkeypatch) -> None:
    plans = {**PLANS, ORWELL.question: "\n".join(f"{i}. Step {i} of the puzzle?" for i in range(1, 13))}
    model = ScriptedModel(make_script(plans))
    use_model(monkeypatch, model)
    rows, summary = run(tmp_path, write_dataset(tmp_path, [ORWELL]), "--strategies", "decompose",
                        "--no-hop-probes")
    row = rows[("orwell", "decompose")]
    plan_step = next(s for s in row.trace if s["step"] == "plan")
    assert plan_step["hops"] == [ORWELL.question] and "12 sub-questions" in plan_step["fallback"]
    assert len(row.hops) == 1 and row.answer == "India"
    assert not any("Step 1 of the puzzle" in p for p in prompts(model))
    quality = summary["decomposition"]["decompose"]
    assert quality["fallbacks"] == 1 and quality["hop_count_confusion"] == {"2": {"1": 1}}
    assert quality["hop_answer_match_rate"] is None            # counts differ: no aligned pairs


def test_dangling_reply_falls_back(tmp_path, monkeypatch) -> None:
    plans = {**PLANS, ORWELL.question: "1. Who wrote the novel?\n2. Where was #4 born?"}
    use_model(monkeypatch, ScriptedModel(make_script(plans)))
    rows, _ = run(tmp_path, write_dataset(tmp_path, [ORWELL]), "--strategies", "decompose", "--no-hop-probes")
    assert "refers to #4" in rows[("orwell", "decompose")].decomposition["fallback"]


def test_a_hop_after_a_refusal_is_not_asked(tmp_path, monkeypatch) -> None:
    plans = {**PLANS, ORWELL.question: "1. Who wrote the lost novel?\n2. In which country was #1 born?"}
    model = ScriptedModel(make_script(plans))
    use_model(monkeypatch, model)
    rows, _ = run(tmp_path, write_dataset(tmp_path, [ORWELL]), "--strategies", "decompose", "--no-hop-probes")
    row = rows[("orwell", "decompose")]
    assert row.hops[1].answer is None and row.answer is None and row.grade == "NOT_ATTEMPTED"
    assert "skipped" in [s for s in row.trace if s["step"] == "answer_hop"][1]
    assert row.llm_calls == 2


def test_gold_decomposer_asks_the_gold_sub_questions(tmp_path, monkeypatch) -> None:
    model = ScriptedModel(make_script({}))          # a decomposer call would fail: no plans
    use_model(monkeypatch, model)
    rows, summary = run(tmp_path, write_dataset(tmp_path, [NILE, PARIS]), "--strategies", "decompose",
                        "--decomposer", "gold")
    assert not any("Split the question" in p for p in prompts(model))
    nile = rows[("nile", "decompose")]
    assert [h.answer for h in nile.hops] == ["Cairo", "Nile", "Mediterranean Sea"]
    assert all(h.grade == "CORRECT" for h in nile.hops) and nile.grade == "CORRECT"
    assert rows[("paris", "decompose")].answer == "Paris"
    assert summary["decomposition"]["decompose"]["decomposers"] == {"gold": 2}


def test_unknown_decomposer_is_a_clear_error(tmp_path, monkeypatch, capsys) -> None:
    use_model(monkeypatch, ScriptedModel(make_script(PLANS)))
    code = cli.main(["run", "--dataset", write_dataset(tmp_path, [ORWELL]), "--strategies", "decompose",
                     "--decomposer", "oracle", "--out", str(tmp_path / "r")])
    assert code == 2 and "--decomposer = 'oracle'" in capsys.readouterr().err


# --- sub-QA probes and the per-hop summary ----------------------------------------------------

def test_probes_substitute_gold_answers_and_detect_final_right_hop_wrong(tmp_path, monkeypatch) -> None:
    model = ScriptedModel(make_script(PLANS))
    use_model(monkeypatch, model)
    rows, summary = run(tmp_path, write_dataset(tmp_path, [ORWELL, JUPITER, NILE, PARIS]),
                        "--strategies", "vanilla")
    orwell = rows[("orwell", "vanilla")]
    probes = orwell.hop_probes
    assert probes[1]["question"] == "In which country was George Orwell born?"   # gold, not Eric Blair
    assert [p["grade"] for p in probes] == ["INCORRECT", "CORRECT"]
    assert [h.grade for h in orwell.hops] == ["INCORRECT", "CORRECT"]             # hops = probes here
    assert orwell.llm_calls == 1 and all(p["latency_s"] > 0 for p in probes)   # probes cost apart
    assert rows[("paris", "vanilla")].hop_probes is None
    two = summary["per_hop"]["vanilla"]["2"]
    assert two["n"] == 2 and two["hop_f_scores"] == [0.5, 1.0]
    assert two["final_right_hop_wrong"] == 1 and two["final_right_hop_wrong_ids"] == ["orwell"]
    assert two["final_wrong_all_hops_right"] == 1 and two["final_wrong_all_hops_right_ids"] == ["jupiter"]
    assert two["final_right_hop_wrong_rate"] == 0.5 and two["weakest_hop"] == 1 and two["first_hop_bottleneck"]
    assert two["final_f_score"] == 0.5
    three = summary["per_hop"]["vanilla"]["3"]
    assert three["hop_f_scores"] == [1.0, 1.0, 1.0] and three["final_right_hop_wrong"] == 0
    assert three["weakest_hops"] == [] and three["first_hop_bottleneck"] is False
    assert "1" not in summary["per_hop"]["vanilla"]


def test_identical_probe_requests_across_strategies_hit_the_cache(tmp_path, monkeypatch) -> None:
    inner = ScriptedModel(make_script(PLANS))
    use_model(monkeypatch, CachedModel(inner, ResponseCache(tmp_path / "cache.sqlite")))
    rows, _ = run(tmp_path, write_dataset(tmp_path, [ORWELL, NILE]), "--strategies", "vanilla,decompose")
    sent = prompts(inner)
    assert sum("In which country was George Orwell born?" in p for p in sent) == 1
    assert sum("Which river flows through Cairo?" in p for p in sent) == 1
    first, second = (rows[("orwell", s)].hop_probes for s in ("vanilla", "decompose"))
    assert [p["cached"] for p in first] == [False, False]
    assert [p["cached"] for p in second] == [True, True]
    assert [p["answer"] for p in first] == [p["answer"] for p in second]
    # 2 vanilla answers + 5 probes + 2 decompositions + hops not already asked by a probe
    # (orwell: "Eric Blair born?" only; nile: all three chain hops equal the gold probes)
    assert len(sent) == 2 + 5 + 2 + 1


def test_report_prints_the_per_hop_table_and_draws_the_plot(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    use_model(monkeypatch, ScriptedModel(make_script(PLANS)))
    run(tmp_path, write_dataset(tmp_path, [ORWELL, JUPITER, NILE]), "--strategies", "vanilla,decompose",
        "--verbose")
    out = capsys.readouterr().out
    assert "QA1" in out and "QA3" in out and "decompose (own hops)" in out
    assert "final right, a probed hop wrong — vanilla, 2 hops: orwell" in out
    assert "Decomposition quality" in out
    assert (tmp_path / "run" / "per_hop.png").stat().st_size > 0
    summary = tmp_path / "run" / "summary.json"
    first = summary.read_text()
    summary.unlink()
    assert cli.main(["report", str(tmp_path / "run")]) == 0
    assert summary.read_text() == first


def test_decompose_rag_retrieves_for_each_hop(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("FACTPROBE_CACHE", str(tmp_path / "cache"))
    corpus = [Passage(id="novel", title="Nineteen Eighty-Four",
                      text="Nineteen Eighty-Four is a dystopian novel by George Orwell, published in 1949."),
              Passage(id="blair", title="Eric Blair", text="Eric Blair was born in Motihari, in India."),
              Passage(id="tea", title="Tea", text="Tea is an aromatic beverage prepared from leaves.")]
    question = ORWELL.model_copy(update={"corpus": corpus})
    model = ScriptedModel(make_script(PLANS))
    use_model(monkeypatch, model)
    rows, _ = run(tmp_path, write_dataset(tmp_path, [question]), "--strategies", "decompose+rag",
                  "--top-k", "1", "--no-cache", "--no-hop-probes")
    row = rows[("orwell", "decompose+rag")]
    hop_retrievals = [s for s in row.trace if s["step"] == "retrieve" and "hop" in s]
    assert [(s["hop"], s["passages"]) for s in hop_retrievals] == [(1, ["novel"]), (2, ["blair"])]
    sent = prompts(model)
    hop2 = next(p for p in sent if "Question: In which country was Eric Blair born?" in p)
    assert "born in Motihari" in hop2 and "dystopian" not in hop2
    assert {"novel", "blair"} <= set(row.retrieved_ids) and row.retrieval_latency_s > 0
    assert [h.answer for h in row.hops] == ["Eric Blair", "India"]


ORWELL_CORPUS = [
    Passage(id="novel", title="Nineteen Eighty-Four",
            text="Nineteen Eighty-Four is a dystopian novel by George Orwell, published in 1949."),
    Passage(id="orwell", title="George Orwell", text="George Orwell was born in Motihari, in India."),
    Passage(id="tea", title="Tea", text="Tea is an aromatic beverage prepared from leaves.")]


def test_probes_of_a_retrieval_strategy_use_its_retrieval(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("FACTPROBE_CACHE", str(tmp_path / "cache"))
    question = ORWELL.model_copy(update={"corpus": ORWELL_CORPUS})
    model = ScriptedModel(make_script(PLANS))
    use_model(monkeypatch, model)
    rows, summary = run(tmp_path, write_dataset(tmp_path, [question]), "--strategies", "vanilla,rag,decompose+rag",
                        "--top-k", "1", "--no-cache")
    closed = rows[("orwell", "vanilla")].hop_probes
    assert [p["retrieval"] for p in closed] == ["closed_book"] * 2 and "retrieved_ids" not in closed[0]
    rag = rows[("orwell", "rag")].hop_probes
    assert [p["retrieval"] for p in rag] == ["strategy"] * 2
    assert [p["retrieved_ids"] for p in rag] == [["novel"], ["orwell"]]
    # entities as the strategy finds them: asked of the model (its reply has none here: rules fallback)
    assert [(p["entities"], p["entity_calls"]) for p in rag] == [("rules_fallback", 1)] * 2
    assert rag[1]["retrieval_latency_s"] >= 0
    # the rag probe's prompt carries the passage it retrieved; vanilla's same probe carries none
    sent = [p for p in prompts(model) if p.endswith("Question: In which country was George Orwell born?")]
    assert sum("born in Motihari" in p for p in sent) == 2 and len(sent) == 3
    chain = rows[("orwell", "decompose+rag")].hop_probes
    assert chain[1]["queries"] == ["In which country was George Orwell born?"]    # the sub-question itself
    assert chain[1]["retrieved_ids"] == ["orwell"]
    # the probes stay measurement: rag's row counts its own calls only (entities + answer)
    assert rows[("orwell", "rag")].llm_calls == 2
    assert summary["per_hop"]["rag"]["2"]["hop_f_scores"] == [0.0, 1.0]


def probed_row(qid: str, grade: str, probes: list[str], repeat: int = 0) -> Result:

    return Result(question_id=qid, strategy="vanilla", repeat=repeat, question=qid, gold="g", category="c",
                  hop_count=len(probes), grade=grade, grader="rules",
                  hop_probes=[{"grade": g} for g in probes])


def test_per_hop_pools_every_hop_count_and_gives_intervals_over_questions() -> None:
    from factprobe.eval.analysis.summary import build_summary

    C, I, N = "CORRECT", "INCORRECT", "NOT_ATTEMPTED"
    rows = [probed_row("a", C, [C, C]), probed_row("b", I, [I, C]), probed_row("c", C, [C, N]),
            probed_row("d", C, [C, C, C]), probed_row("e", N, [I, C, I]),
            probed_row("a", C, [C, C], repeat=1), probed_row("d", I, [C, I, C], repeat=1)]
    summary = build_summary(rows, {"config": {"seed": 4}})
    per_hop = summary["per_hop"]["vanilla"]
    assert set(per_hop) == {"2", "3"}                         # contract: hop-count keys only
    pooled = summary["per_hop_pooled"]["vanilla"]
    assert (pooled["n"], pooled["n_questions"]) == (7, 5)
    # position 1 and 2 over all seven rows, position 3 over the three 3-hop rows
    assert pooled["hop_f_scores"][0] == pytest.approx(2 * 5 / (7 + 7))
    assert pooled["hop_f_scores"][1] == pytest.approx(2 * 5 / (7 + 6))
    assert pooled["hop_f_scores"][2] == pytest.approx(2 * 2 / (3 + 3))
    assert pooled["final_f_score"] == pytest.approx(2 * 4 / (7 + 6))
    assert pooled["final_right_hop_wrong"] == 1 and pooled["final_right_hop_wrong_ids"] == ["c"]
    for entry in (pooled, per_hop["2"], per_hop["3"]):
        assert len(entry["hop_f_score_cis"]) == len(entry["hop_f_scores"])
        for value, (low, high) in zip([*entry["hop_f_scores"], entry["final_f_score"]],
                                      [*entry["hop_f_score_cis"], entry["final_f_score_ci"]]):
            assert 0 <= low <= value <= high <= 1
    # intervals count questions, not rows: a's two repeats are one question; a resample of a and c
    # only (all final answers right) reaches F = 1
    two = per_hop["2"]
    assert two["n_questions"] == 3 and two["final_f_score_ci"][1] == pytest.approx(1.0)
    assert per_hop["3"]["n_questions"] == 2


def test_the_probes_build_one_retrieval_pipeline_per_run_in_its_declared_memo() -> None:
    built: list[object] = []

    def factory(context: StrategyContext) -> object:
        built.append(object())
        return built[-1]

    resources = RunResources(retrieval=factory)   # a stand-in for the pipeline
    context = StrategyContext(model=ScriptedModel(lambda messages, params: ""), resources=resources)
    first = probe_pipeline(context)
    assert probe_pipeline(context) is first and built == [first]
    assert resources.hop_probe_retrieval is first and resources.extra == {}
