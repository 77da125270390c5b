"""best_of_n, self_refine and refusal graphs on a scripted model: sampling, selection, bounded loops."""

from __future__ import annotations

import asyncio

import pytest

from factprobe.agents.context import StrategyContext
from factprobe.agents.prompts import REFUSAL_USER
from factprobe.agents.registry import get_strategy
from factprobe.agents.selection import confidence_index, majority_index, parse_pick
from factprobe.agents.strategies.self_refine import MAX_ROUNDS, parse_verdict
from factprobe.eval.core.errors import StrategyOptionError
from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.phrases import REFUSAL_PHRASE
from factprobe.eval.grading.rules import RuleGrader
from factprobe.eval.run.runner import RECURSION_LIMIT
from tests.fakes import ScriptedModel, last_user

QUESTION = Question(id="fr", question="Which city is the capital of France?", answer="Paris")
PASSAGES = [{"title": "France", "text": "Paris is the capital and largest city of France."}]


def run(strategy: str, script, context_passages=None, **options) -> tuple[dict, ScriptedModel]:
    model = ScriptedModel(script)
    context = StrategyContext(model=model, seed=3, options={"samples": 4, "sample_temperature": 1.0,
                                                             "selector": "majority", "rounds": 2, **options})
    graph = get_strategy(strategy).build(context)
    state = {"question": QUESTION, "repeat": 1}
    if context_passages:
        state["context"] = context_passages
    out = asyncio.run(graph.ainvoke(state, config={"recursion_limit": RECURSION_LIMIT}))
    return out, model


def by_sample(answers: dict[int, str], select_reply: str = "Best: 1"):
    """Sample k answers answers[k]; the selection prompt gets `select_reply`."""

    def script(messages, params):
        if "Candidate answers" in last_user(messages):
            return select_reply
        return f"Answer: {answers[params.sample_index]}\nConfidence: {10 * params.sample_index}"

    return script


# ---- best_of_n -------------------------------------------------------------------------------

def test_best_of_n_draws_distinct_indexed_samples_and_records_them() -> None:
    out, model = run("best_of_n", by_sample({1: "Lyon", 2: "Paris", 3: "paris.", 4: "Nice"}),
                     sample_temperature=0.7)
    sample_params = [params for messages, params in model.calls]
    assert sorted(p.sample_index for p in sample_params) == [1, 2, 3, 4]
    assert {p.temperature for p in sample_params} == {0.7}
    assert {p.seed for p in sample_params} == {3 + 1000}          # repeat 1's seed
    assert [s["sample_index"] for s in out["samples"]] == [1, 2, 3, 4]
    assert [s["answer"] for s in out["samples"]] == ["Lyon", "Paris", "paris", "Nice"]
    assert [s["confidence"] for s in out["samples"]] == [10, 20, 30, 40]
    assert all(s["raw"].startswith("Answer:") and s["tokens"] > 0 for s in out["samples"])
    assert [s["sample_index"] for s in out["trace"] if s["step"] == "sample"] == [1, 2, 3, 4]
    assert len(out["calls"]) == 4                                  # majority needs no model call


def test_majority_vote_over_normalised_answers_ties_to_first() -> None:
    out, _ = run("best_of_n", by_sample({1: "Lyon", 2: "Paris", 3: "paris.", 4: "Nice"}))
    assert out["answer"] == "Paris" and out["confidence"] == 20
    assert [s["selected"] for s in out["samples"]] == [False, True, False, False]
    assert majority_index(["Nice", "Lyon", "lyon", "nice"]) == 0    # tie: the first to occur
    assert majority_index([None, "", "Rome"]) == 2                 # missing answers do not vote
    assert majority_index([None, None]) == 0


def test_confidence_selector_and_missing_confidences() -> None:
    out, _ = run("best_of_n", by_sample({1: "Lyon", 2: "Paris", 3: "Rome", 4: "Nice"}), selector="confidence")
    assert out["answer"] == "Nice"                                 # confidence 40 is the highest
    assert confidence_index([None, 30.0, None, 30.0]) == 1
    assert confidence_index([None, None]) == 0


def test_model_selector_picks_the_named_candidate() -> None:
    out, model = run("best_of_n", by_sample({1: "Lyon", 2: "Nice", 3: "Paris", 4: "Rome"}, "Best: 3"),
                     selector="model")
    assert out["answer"] == "Paris"
    choose = next(s for s in out["trace"] if s["step"] == "choose")
    assert choose["sample_index"] == 3 and choose["pick_failed"] is False and choose["tokens"] > 0
    prompt = last_user(model.calls[-1][0])
    assert "1. Lyon" in prompt and "4. Rome" in prompt
    assert len(out["calls"]) == 5 and out["calls"][-1].purpose == "select"


def test_model_selector_falls_back_to_the_first_sample_when_the_pick_is_unreadable() -> None:
    out, _ = run("best_of_n", by_sample({1: "Lyon", 2: "Nice", 3: "Paris", 4: "Rome"}, "They all look good."),
                 selector="model")
    choose = next(s for s in out["trace"] if s["step"] == "choose")
    assert out["answer"] == "Lyon" and choose["pick_failed"] is True and choose["sample_index"] == 1


def test_one_sample_needs_no_selection_call() -> None:
    out, model = run("best_of_n", by_sample({1: "Paris"}), selector="model", samples=1)
    assert out["answer"] == "Paris" and len(model.calls) == 1


@pytest.mark.parametrize("reply, expected", [
    ("Best: 2", 1), ("**Best:** 3", 2), ("Best candidate: 4", 3), ("The best is 2", None), ("2", 1),
    ("[3]", 2), ("Candidate 2 is the most likely.", 1), ("Paris", 2), ("Best: 9", None),
    ("I cannot decide.", None), ("", None), ("The answer to this question is 1.", 0),
    ("The answer is 3. Paris is in France.", 2), ("The answer is 9.", None),
])
def test_parse_pick(reply: str, expected: int | None) -> None:
    assert parse_pick(reply, ["Lyon", "Nice", "Paris", "Rome"]) == expected


def test_a_number_that_is_a_candidates_answer_is_not_read_as_its_index() -> None:
    assert parse_pick("The answer is 8.", ["6", "8", "10"]) == 1     # the answer "8", not candidate 8
    assert parse_pick("The answer is 2.", ["6", "8", "10"]) == 1     # candidate 2


def test_bad_best_of_n_options_are_clear_errors() -> None:
    with pytest.raises(StrategyOptionError, match="--samples"):
        run("best_of_n", by_sample({}), samples=0)
    with pytest.raises(StrategyOptionError, match="--selector"):
        run("best_of_n", by_sample({}), selector="vibes")


# ---- self_refine -----------------------------------------------------------------------------

def refine_script(verdicts: list[str], refined: str = "Answer: Paris\nConfidence: 80"):
    """First answer Lyon; the k-th feedback says verdicts[k] (the last one repeats)."""
    state = {"feedback": 0}

    def script(messages, params):
        text = last_user(messages)
        if "Proposed answer" in text:
            verdict = verdicts[min(state["feedback"], len(verdicts) - 1)]
            state["feedback"] += 1
            return f"Some feedback.\n{verdict}"
        if "Previous answer" in text:
            return refined
        return "Answer: Lyon\nConfidence: 40"

    return script


def test_self_refine_stops_when_the_feedback_says_the_answer_stands() -> None:
    out, model = run("self_refine", refine_script(["Verdict: REVISE", "Verdict: KEEP"]), rounds=5)
    assert [c.purpose for c in out["calls"]] == ["generate", "feedback", "refine", "feedback"]
    assert [(s["round"], s["answer"], s["refined"]) for s in out["samples"]] == [
        (0, "Lyon", False), (1, "Paris", True), (2, "Paris", False)]
    assert out["samples"][2]["verdict"] == "keep" and out["answer"] == "Paris" and out["confidence"] == 80
    assert all(s["tokens"] > 0 for s in out["samples"])
    assert sum(s["tokens"] for s in out["samples"]) == sum(c.prompt_tokens + c.completion_tokens
                                                          for c in out["calls"])


def test_self_refine_is_bounded_by_rounds_even_without_a_verdict() -> None:
    out, _ = run("self_refine", refine_script(["no verdict here"]), rounds=3)
    assert [s["round"] for s in out["samples"]] == [0, 1, 2, 3]
    assert len(out["calls"]) == 1 + 2 * 3
    assert [s["verdict"] for s in out["samples"]] == [None, None, None, None]


def test_self_refine_at_the_round_cap_stays_inside_the_recursion_limit() -> None:
    out, _ = run("self_refine", refine_script(["Verdict: REVISE"]), rounds=MAX_ROUNDS)
    assert len(out["samples"]) == MAX_ROUNDS + 1
    with pytest.raises(StrategyOptionError, match="--rounds"):
        run("self_refine", refine_script(["Verdict: REVISE"]), rounds=MAX_ROUNDS + 1)


def test_zero_rounds_is_the_first_answer() -> None:
    out, _ = run("self_refine", refine_script(["Verdict: REVISE"]), rounds=0)
    assert out["answer"] == "Lyon" and len(out["samples"]) == 1


@pytest.mark.parametrize("text, verdict", [
    ("ok\nVerdict: KEEP", "keep"), ("**Verdict:** revise", "revise"), ("Verdict: correct", "keep"),
    ("Verdict: incorrect", "revise"), ("Verdict: KEEP\n...\nVerdict: REVISE", "revise"),
    ("Verdict: the answer looks fine", None), ("Paris.\n\nThe answer is correct.", "keep"),
    ("Ottawa.\nThe answer should change.", "revise"), ("The answer is correct, but Paris is in France.", None),
    ("Verdict: REVISE\nThe answer is correct.", "keep"), ("The answer is 100.", None),
])
def test_parse_verdict(text: str, verdict: str | None) -> None:
    assert parse_verdict(text) == verdict


# ---- refusal ---------------------------------------------------------------------------------

def test_refusal_prompt_offers_the_fixed_phrase_and_it_grades_not_attempted() -> None:
    assert REFUSAL_PHRASE in REFUSAL_USER
    out, model = run("refusal", lambda m, p: f"Answer: {REFUSAL_PHRASE}\nConfidence: 0")
    assert REFUSAL_PHRASE in last_user(model.calls[0][0])
    assert "even if you are unsure" not in last_user(model.calls[0][0])
    grader = RuleGrader()
    unanswerable = Question(id="u", question="What will I eat tomorrow?", answer=None, answerable=False)
    for question in (QUESTION, unanswerable):
        for answer in (out["answer"], "Sorry, I can\u2019t help with it.", "sorry, i cant help with it"):
            assert grader.grade_sync(question, answer).grade is Grade.NOT_ATTEMPTED, answer


# ---- composition with retrieval --------------------------------------------------------------

@pytest.mark.parametrize("strategy, options", [
    ("best_of_n", {"selector": "model"}), ("self_refine", {"rounds": 1}), ("refusal", {})])
def test_every_prompt_carries_retrieved_passages(strategy: str, options: dict) -> None:
    def script(messages, params):
        text = last_user(messages)
        if "Candidate answers" in text:
            return "Best: 2"
        if "Proposed answer" in text:
            return "Verdict: REVISE"
        return "Answer: Paris\nConfidence: 90"

    _, model = run(strategy, script, context_passages=PASSAGES, **options)
    assert len(model.calls) > 1 or strategy == "refusal"
    assert all(PASSAGES[0]["text"] in last_user(messages) for messages, _ in model.calls)


def test_a_curve_without_any_value_is_left_out_of_the_figure(tmp_path) -> None:
    """Every sample UNGRADED (option letters to the free-text grader): no point to draw on the log
    axis, so that strategy is left out, and with no curve there is no figure (the report went on)."""
    from factprobe.eval.ttc.plot import ttc_plot

    empty = {"n": [1, 2, 4], "accuracy": [None] * 3, "f_score": [None] * 3, "unit": "samples", "selector": "model"}
    drawn = {**empty, "accuracy": [0.5, None, 0.75], "f_score": [0.5, None, 0.8]}
    assert ttc_plot({"ttc": {"best_of_n": empty}}, [], tmp_path) is None and not (tmp_path / "ttc.png").exists()
    assert ttc_plot({"ttc": {"best_of_n": empty, "best_of_n@text": drawn}}, [], tmp_path) == tmp_path / "ttc.png"
