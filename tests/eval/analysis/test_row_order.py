"""summary.json does not depend on the order rows were written in: concurrent answering, a resume
or a merge of shards writes the same rows in another order (a float sum would notice)."""

from __future__ import annotations

import random

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.eval.analysis.summary import build_summary
from factprobe.eval.core.schema import Question
from factprobe.eval.store.run_dir import RunDir
from tests.fakes import ScriptedModel, last_user, write_questions

QUESTIONS = [Question(id=f"q{n:02d}", question=f"What is {n} plus {n}?", answer=str(2 * n), category=f"c{n % 3}")
             for n in range(1, 31)]


def script(messages, params) -> str:
    text = last_user(messages)
    n = next(q for q in QUESTIONS if q.question in text)
    number = int(n.id[1:])
    right = number % 3 != 0 or (params.seed or 0) // 1000 % 2 == 1
    return f"Answer: {2 * number if right else 2 * number + 1}\nConfidence: {37 + 7 * (number % 9)}"


def test_the_summary_is_the_same_whatever_the_order_of_the_rows(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: ScriptedModel(script))
    out = tmp_path / "run"
    assert cli.main(["run", "--dataset", f"jsonl:{write_questions(tmp_path / 'q.jsonl', QUESTIONS)}",
                     "--strategies", "vanilla,refusal", "--repeats", "2", "--no-cache", "--no-hop-probes",
                     "--out", str(out)]) == 0
    run_dir = RunDir(out)
    rows, manifest = run_dir.read_results(), run_dir.read_manifest()
    expected = build_summary(list(rows), manifest)
    for seed in range(3):
        shuffled = list(rows)
        random.Random(seed).shuffle(shuffled)
        assert build_summary(shuffled, manifest) == expected


def test_latest_rows_keeps_the_last_row_of_each_key_in_canonical_order() -> None:
    """The sorting rule against the plain one it replaced: a dict of the last row per key, sorted
    by (strategy's first appearance, question id, repeat)."""
    from types import SimpleNamespace

    from factprobe.eval.analysis.summary import latest_rows

    rng = random.Random(7)
    rows = [SimpleNamespace(question_id=rng.choice(["q1", "q10", "q2", "é", "Z", ""]), repeat=rng.randrange(3),
                            strategy=rng.choice(["rag", "vanilla", "best_of_n"]), number=number)
            for number in range(400)]
    latest: dict = {}
    rank: dict = {}
    for row in rows:
        latest[(row.question_id, row.strategy, row.repeat)] = row
        rank.setdefault(row.strategy, len(rank))
    expected = [row for _, row in sorted(latest.items(), key=lambda item: (rank[item[0][1]], item[0][0], item[0][2]))]
    kept = latest_rows(rows)  # type: ignore[arg-type]
    assert [row.number for row in kept] == [row.number for row in expected] and len(kept) < len(rows)
    assert list(latest_rows([])) == []
