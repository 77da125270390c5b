"""MM-SAP's definitions of the knowledge quadrant, checked against a hand computation on rows shaped
like a run over the three subsets (invented ids; grades and forced grades as the run records them).

The point of the paper's rule: a basic question (BasicVisQA) is never unknown, so refusing it is
neither a known unknown nor undetermined, whatever the forced re-ask says.
"""

from __future__ import annotations

import pytest

from factprobe.eval.core.schema import Result
from factprobe.eval.self_awareness.section import never_unknown, quadrant, with_categories


def row(qid: str, category: str, grade: str, forced: str | None = None, answerable: bool = True,
        subset: str | None = None) -> Result:
    extra = {"fields": {"subset": subset or category}}
    if forced is not None:
        extra["forced_grade"] = forced
    return Result(question_id=qid, strategy="refusal", question=f"{qid}?", gold=None if not answerable else "x",
                  category=category, answerable=answerable, grade=grade, grader="multiple_choice", **extra)


ROWS = [
    row("b1", "BasicVisQA", "CORRECT"),
    row("b2", "BasicVisQA", "INCORRECT"),
    row("b3", "BasicVisQA", "NOT_ATTEMPTED", forced="INCORRECT"),   # refused, wrong when forced: not KU
    row("b4", "BasicVisQA", "NOT_ATTEMPTED"),                       # refused, no forced answer: still counted
    row("k1", "KnowVisQA", "CORRECT"),
    row("k2", "KnowVisQA", "NOT_ATTEMPTED", forced="CORRECT"),      # unknown known
    row("k3", "KnowVisQA", "NOT_ATTEMPTED", forced="INCORRECT"),    # known unknown
    row("k4", "KnowVisQA", "INCORRECT"),
    row("y1", "BeyondVisQA", "NOT_ATTEMPTED", answerable=False),    # known unknown
    row("y2", "BeyondVisQA", "INCORRECT", answerable=False),
    row("y3", "BeyondVisQA", "UNGRADED", answerable=False),         # excluded
]


def test_pooled_scores_follow_the_papers_equations() -> None:
    # by hand: N = 4 basic + 4 know + 2 beyond = 10; KK = b1, k1; KU = k3, y1; UK = k2;
    # answered = b1, b2, k1, k4, y2; UK rate over the 4 KnowVisQA questions
    scores = quadrant(ROWS, refusal_offered=True)
    assert scores["n"] == 10 and scores["excluded"] == 1 and scores["undetermined"] == 0
    assert (scores["known_knowns"], scores["known_unknowns"], scores["unknown_knowns"]) == (2, 2, 1)
    assert scores["basic_refused"] == 2
    assert scores["score_kk"] == pytest.approx(0.2) and scores["score_ku"] == pytest.approx(0.2)
    assert scores["score_sa"] == pytest.approx(0.4)
    assert scores["answer_rate"] == pytest.approx(0.5) and scores["answer_accuracy"] == pytest.approx(0.4)
    assert scores["unknown_knowns_rate"] == pytest.approx(1 / 4)


def test_each_subset_as_in_table_1() -> None:
    per = with_categories(ROWS, refusal_offered=True)["per_category"]
    assert set(per) == {"BasicVisQA", "KnowVisQA", "BeyondVisQA"}
    basic, know, beyond = per["BasicVisQA"], per["KnowVisQA"], per["BeyondVisQA"]
    assert (basic["n"], basic["score_kk"], basic["score_ku"]) == (4, 0.25, 0.0)
    assert basic["unknown_knowns_rate"] is None                      # no forced test on basic questions
    assert (know["n"], know["score_kk"], know["score_ku"], know["unknown_knowns_rate"]) == (4, 0.25, 0.25, 0.25)
    assert (beyond["n"], beyond["score_kk"], beyond["score_ku"], beyond["excluded"]) == (2, 0.0, 0.5, 1)
    # the pooled totals are the subsets' counts added up, not a mean of their scores
    pooled_kk = sum(part["known_knowns"] for part in per.values()) / sum(part["n"] for part in per.values())
    assert pooled_kk == pytest.approx(quadrant(ROWS, True)["score_kk"])


def test_a_single_category_has_no_breakdown() -> None:
    assert "per_category" not in with_categories(ROWS[:4], refusal_offered=True)


def test_basic_is_read_from_the_subset_field_too() -> None:
    assert never_unknown(row("b", "general", "CORRECT", subset="BasicVisQA"))
    assert not never_unknown(row("k", "KnowVisQA", "CORRECT"))
    refused = [row("b", "general", "NOT_ATTEMPTED", forced="INCORRECT", subset="BasicVisQA")]
    assert quadrant(refused, True)["known_unknowns"] == 0


def test_both_unknown_knowns_rates_per_question_and_per_refusal() -> None:
    # KnowVisQA, 8 questions: 3 refused and right when forced (UK), 1 refused and wrong (KU), 1
    # refused with no forced answer (undetermined, left out), 3 answered
    know = [row(f"q{i}", "KnowVisQA", "NOT_ATTEMPTED", forced="CORRECT") for i in range(3)]
    know += [row("q3", "KnowVisQA", "NOT_ATTEMPTED", forced="INCORRECT"), row("q4", "KnowVisQA", "NOT_ATTEMPTED"),
             row("q5", "KnowVisQA", "CORRECT"), row("q6", "KnowVisQA", "INCORRECT"), row("q7", "KnowVisQA", "CORRECT")]
    scores = quadrant(know, refusal_offered=True)
    assert scores["undetermined"] == 1 and scores["knowable_refused"] == 4
    assert scores["unknown_knowns_rate"] == pytest.approx(3 / 7)          # Eq. 8: per determined question
    assert scores["unknown_knowns_per_refusal"] == pytest.approx(3 / 4)   # Table 4: per refusal
    # Table 4's arithmetic: refusals × the per-refusal rate gives the unknown knowns back
    assert scores["knowable_refused"] * scores["unknown_knowns_per_refusal"] == pytest.approx(scores["unknown_knowns"])
    # basic refusals are in neither denominator
    assert quadrant(ROWS, True)["unknown_knowns_per_refusal"] == pytest.approx(1 / 2)


def test_the_table_prints_both_rates() -> None:
    from rich.console import Console

    from factprobe.eval.self_awareness.table import self_awareness_table

    console = Console(record=True, width=200)
    self_awareness_table({"self_awareness": {"refusal": quadrant(ROWS, True)}}, console)
    text = console.export_text()
    assert "UK/quest." in text and "UK/refusal" in text
    assert "25.0" in text and "50.0" in text     # per question 1/4, per refusal 1/2
