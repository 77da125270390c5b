"""Validation of the bundled `sample` benchmark (every part present in eval/datasets/data/sample).

Answers are compared after `normalize_answer`, and "appears in a passage" means the normalised
answer occurs in the normalised passage text as whole words (so "8" does not match inside "1803").
Every failure message names the offending question or passage id.
"""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest

from factprobe.eval.core.normalize import normalize_answer
from factprobe.eval.core.schema import HOP_REFERENCE, Passage, Question
from factprobe.eval.datasets.sample import load_sample, load_sample_corpus

CATEGORIES = {"geography", "history", "science", "arts", "sport", "technology", "nature", "people"}
REASONS = {"false_premise", "unknowable", "future", "subjective"}

MIN_SINGLE_HOP = 40
MIN_BY_HOPS = {2: 50, 3: 40, 4: 20}
MIN_UNANSWERABLE = 40
MIN_ANSWERABLE = 160
MIN_CATEGORIES = 8
MIN_PASSAGES = 400


# ---------------------------------------------------------------- fixtures and helpers


@pytest.fixture(scope="module")
def questions() -> list[Question]:
    return load_sample()


@pytest.fixture(scope="module")
def passages() -> list[Passage]:
    return load_sample_corpus()


@pytest.fixture(scope="module")
def passage_text(passages: list[Passage]) -> dict[str, str]:
    return {passage.id: passage.text for passage in passages}


def answerable(questions: list[Question]) -> list[Question]:
    return [q for q in questions if q.answerable]


def with_hops(questions: list[Question], count: int) -> list[Question]:
    """Answerable questions with exactly `count` gold hops."""
    return [q for q in answerable(questions) if len(q.hops) == count]


def single_hop(questions: list[Question]) -> list[Question]:
    return with_hops(questions, 0)


def mentions(text: str, golds: list[str]) -> bool:
    """Whether any gold string occurs in `text` as whole words, after normalisation."""
    haystack = f" {normalize_answer(text)} "
    needles = [normalize_answer(gold) for gold in golds]
    return any(f" {needle} " in haystack for needle in needles if needle)


def duplicates(values: list[str]) -> list[str]:
    return sorted(value for value, count in Counter(values).items() if count > 1)


def assert_none(problems: list[str], what: str) -> None:
    """Fail with one line per problem (each names its id)."""
    assert not problems, f"{len(problems)} {what}:\n" + "\n".join(problems)


# ---------------------------------------------------------------- identity and size


def test_question_ids_are_unique(questions: list[Question]) -> None:
    assert_none([f"{qid}: used more than once" for qid in duplicates([q.id for q in questions])],
                "duplicate question ids")


def test_passage_ids_are_unique(passages: list[Passage]) -> None:
    assert_none([f"{pid}: used more than once" for pid in duplicates([p.id for p in passages])],
                "duplicate passage ids")


def test_counts_of_single_two_hop_and_unanswerable(questions: list[Question]) -> None:
    unanswerable = [q for q in questions if not q.answerable]
    assert len(single_hop(questions)) >= MIN_SINGLE_HOP, f"{len(single_hop(questions))} single-hop"
    assert len(with_hops(questions, 2)) >= MIN_BY_HOPS[2], f"{len(with_hops(questions, 2))} two-hop"
    assert len(unanswerable) >= MIN_UNANSWERABLE, f"{len(unanswerable)} unanswerable"


def test_count_of_answerable(questions: list[Question]) -> None:
    found = len(answerable(questions))
    assert found >= MIN_ANSWERABLE, f"{found} answerable questions, want {MIN_ANSWERABLE}"


def test_counts_of_three_and_four_hop(questions: list[Question]) -> None:
    for hops in (3, 4):
        found = len(with_hops(questions, hops))
        assert found >= MIN_BY_HOPS[hops], f"{found} {hops}-hop questions, want {MIN_BY_HOPS[hops]}"


def test_corpus_size(passages: list[Passage]) -> None:
    assert len(passages) >= MIN_PASSAGES, f"{len(passages)} passages, want {MIN_PASSAGES}"


def test_categories(questions: list[Question]) -> None:
    used = {q.category for q in questions}
    assert len(used) >= MIN_CATEGORIES, f"only {len(used)} categories: {sorted(used)}"
    assert CATEGORIES <= used, f"categories never used: {sorted(CATEGORIES - used)}"


# ---------------------------------------------------------------- passages back the answers


def test_cited_passages_exist(questions: list[Question], passage_text: dict[str, str]) -> None:
    problems = []
    for q in questions:
        for pid in q.passage_ids:
            if pid not in passage_text:
                problems.append(f"{q.id}: cites missing passage {pid}")
        for number, hop in enumerate(q.hops, start=1):
            if not hop.passage_ids:
                problems.append(f"{q.id} hop {number}: cites no passage")
            for pid in hop.passage_ids:
                if pid not in passage_text:
                    problems.append(f"{q.id} hop {number}: cites missing passage {pid}")
    assert_none(problems, "bad passage citations")


def test_hop_answers_appear_in_cited_passages(questions: list[Question],
                                              passage_text: dict[str, str]) -> None:
    problems = []
    for q in questions:
        for number, hop in enumerate(q.hops, start=1):
            texts = [passage_text.get(pid, "") for pid in hop.passage_ids]
            if not any(mentions(text, [hop.answer, *hop.aliases]) for text in texts):
                problems.append(f"{q.id} hop {number}: {hop.answer!r} is in none of "
                                f"{hop.passage_ids}")
    assert_none(problems, "hop answers without support")


def test_single_hop_answers_appear_in_cited_passages(questions: list[Question],
                                                     passage_text: dict[str, str]) -> None:
    problems = []
    for q in single_hop(questions):
        if not q.passage_ids:
            problems.append(f"{q.id}: cites no passage")
        elif not any(mentions(passage_text.get(pid, ""), q.gold_answers) for pid in q.passage_ids):
            problems.append(f"{q.id}: {q.answer!r} is in none of {q.passage_ids}")
    assert_none(problems, "single-hop answers without support")


def test_question_passages_are_the_union_of_hop_passages(questions: list[Question]) -> None:
    problems = []
    for q in questions:
        if q.hops:
            union = {pid for hop in q.hops for pid in hop.passage_ids}
            if set(q.passage_ids) != union:
                problems.append(f"{q.id}: passage_ids {sorted(q.passage_ids)} != "
                                f"hops' {sorted(union)}")
    assert_none(problems, "question passage lists out of step with their hops")


# ---------------------------------------------------------------- hop chains


def chain_problems(q: Question) -> list[str]:
    """What is wrong with the hop chain of one question."""
    problems = []
    for number, hop in enumerate(q.hops, start=1):
        refs = [int(ref) for ref in HOP_REFERENCE.findall(hop.question)]
        if number >= 2 and number - 1 not in refs:
            problems.append(f"{q.id} hop {number}: question does not use #{number - 1}")
        bad = sorted({ref for ref in refs if not 1 <= ref < number})
        if bad:
            problems.append(f"{q.id} hop {number}: refers to later or missing hop(s) {bad}")
    if q.hops and q.answer is not None:
        last = q.hops[-1]
        if normalize_answer(last.answer) != normalize_answer(q.answer):
            problems.append(f"{q.id}: last hop answers {last.answer!r}, question {q.answer!r}")
        if sorted(map(normalize_answer, last.aliases)) != sorted(map(normalize_answer, q.aliases)):
            problems.append(f"{q.id}: last hop aliases {last.aliases} != "
                            f"question aliases {q.aliases}")
    return problems


def test_hop_chains_are_consistent(questions: list[Question]) -> None:
    assert_none([problem for q in questions for problem in chain_problems(q)], "hop-chain problems")


def test_no_placeholder_in_top_level_questions(questions: list[Question]) -> None:
    assert_none([f"{q.id}: {q.question!r}" for q in questions if "#" in q.question],
                "top-level questions with a placeholder")


# ---------------------------------------------------------------- answers and flags


def test_unanswerable_questions_are_flagged(questions: list[Question]) -> None:
    problems = []
    for q in questions:
        if q.answerable:
            continue
        if q.answer is not None or q.aliases:
            problems.append(f"{q.id}: unanswerable but has answer {q.answer!r} / "
                            f"aliases {q.aliases}")
        if q.unanswerable_reason not in REASONS:
            problems.append(f"{q.id}: reason {q.unanswerable_reason!r} not in {sorted(REASONS)}")
    assert_none(problems, "badly flagged unanswerable questions")


def test_answerable_questions_have_answers(questions: list[Question]) -> None:
    problems = [f"{q.id}: answerable but answer is {q.answer!r}"
                for q in answerable(questions) if not (q.answer and normalize_answer(q.answer))]
    problems += [f"{q.id}: answerable but has reason {q.unanswerable_reason!r}"
                 for q in answerable(questions) if q.unanswerable_reason is not None]
    assert_none(problems, "answerable questions without a usable answer")


def test_gold_aliases_do_not_collide(questions: list[Question]) -> None:
    """A normalised gold string may be shared only by questions whose main answers agree."""
    owners: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for q in answerable(questions):
        main = normalize_answer(q.answer or "")
        for gold in q.gold_answers:
            owners[normalize_answer(gold)][main].append(q.id)
    problems = [f"{gold!r} is a gold of " + "; ".join(f"{sorted(set(ids))} (answer {main!r})"
                                                     for main, ids in by_main.items())
                for gold, by_main in owners.items() if len(by_main) > 1]
    assert_none(problems, "gold strings shared by different answers")
