"""A run directory of synthetic but realistic rows, to time `factprobe report` at scale.

Rows look like a two-strategy run (vanilla and rag) on a mixed dataset: grades drawn with
confidence-dependent odds, a few ERROR and UNGRADED rows, per-call traces, retrieved passage ids
for rag, per-hop results for the multi-hop third of the questions. The generator is seeded, so
two calls with the same arguments write the same files.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from factprobe.eval.run.manifest import strategy_flags

STRATEGIES = ("vanilla", "rag")
CATEGORIES = ("geography", "history", "science", "art", "sport", "music")
GRADES = ("CORRECT", "INCORRECT", "NOT_ATTEMPTED")


def _manifest(questions: int, out: Path) -> dict:
    config = {"dataset": "jsonl:synthetic.jsonl", "strategies": list(STRATEGIES), "model": "openai:bench@URL",
              "judge": None, "grader": "rules", "judge_prompt": "simpleqa", "hedging": "accept",
              "baseline": "vanilla", "limit": 0, "seed": 0, "repeats": 1, "temperature": 0.0,
              "max_tokens": 96, "plugins": [], "retriever": "bm25", "top_k": 3, "confidence": ["verbal"],
              "hop_probes": True, "out": str(out), "concurrency": 64, "use_cache": True,
              "max_error_rate": 0.05}
    return {"factprobe_version": "0.1.0", "started_utc": "2026-01-01T00:00:00+00:00",
            "command": ["factprobe", "run"], "config": config,
            "dataset": {"name": "synthetic", "questions": questions, "selected": questions,
                        "fingerprint": "0" * 64, "corpus_passages": 3 * questions},
            "question_ids": [f"s{number:07d}" for number in range(questions)],
            "strategy_flags": strategy_flags(list(STRATEGIES)),
            "model": {"backend": "openai", "name": "openai:bench@URL", "model": "bench"},
            "grader": {"grader": "rules", "hedging": "accept"}}


def _row(rng: random.Random, number: int, strategy: str) -> dict:
    hops = 1 + (number % 3 == 0) + (number % 6 == 0)
    confidence = float(rng.choice((30, 50, 60, 70, 80, 85, 90, 95, 100)))
    lift = 0.1 if strategy == "rag" else 0.0
    roll = rng.random()
    if roll < 0.01:
        grade = "ERROR"
    elif roll < 0.015:
        grade = "UNGRADED"
    else:
        right = rng.random() < confidence / 130 + lift
        grade = "CORRECT" if right else rng.choice(("INCORRECT", "INCORRECT", "NOT_ATTEMPTED"))
    answer = None if grade in ("ERROR", "NOT_ATTEMPTED") else f"Answer {rng.randrange(1000)}"
    latency = rng.uniform(0.2, 2.5)
    prompt_tokens, completion_tokens = rng.randrange(150, 900), rng.randrange(5, 40)
    raw = f"Answer: {answer}\nConfidence: {confidence:.0f}"
    trace = [{"step": "build_prompt"},
             {"step": "generate", "output": raw, "latency_s": latency, "prompt_tokens": prompt_tokens,
              "completion_tokens": completion_tokens, "cached": False},
             {"step": "parse", "answer": answer, "confidence": confidence}]
    retrieved = None
    if strategy == "rag":
        retrieved = [f"p{rng.randrange(10 * (number + 1))}" for _ in range(3)]
        trace.insert(0, {"step": "retrieve", "queries": [f"entity {number}"], "passage_ids": retrieved,
                         "latency_s": 0.05})
    row = {"question_id": f"s{number:07d}", "strategy": strategy, "repeat": 0,
           "question": f"Which place is described by synthetic fact number {number}?",
           "gold": f"Answer {number % 1000}", "category": CATEGORIES[number % len(CATEGORIES)],
           "answerable": number % 10 != 9, "hop_count": hops, "answer": answer, "raw": raw,
           "confidence": None if grade == "ERROR" else confidence,
           "confidences": {} if grade == "ERROR" else {"verbal": confidence},
           "grade": grade, "grader": "rules", "grade_note": "synthetic",
           "latency_s": latency, "retrieval_latency_s": 0.05 if retrieved else 0.0, "llm_latency_s": latency,
           "prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens, "llm_calls": 1,
           "error": "ModelError: the server answered 503" if grade == "ERROR" else None, "trace": trace,
           "hops": None, "samples": None, "retrieved_ids": retrieved,
           "gold_passage_ids": [f"p{number}"] if retrieved else None, "wall_s": latency + 0.01}
    if hops > 1 and grade != "ERROR":
        row["hops"] = [{"question": f"hop {k + 1} of fact {number}?", "gold": f"H{k}", "answer": f"H{k}",
                        "grade": rng.choice(GRADES), "confidence": confidence} for k in range(hops)]
    return row


def write_run(folder: Path, rows: int, seed: int = 0) -> Path:
    """A run directory under `folder` holding `rows` rows (half per strategy); returns its path."""
    out = folder / f"run-{rows}"
    out.mkdir(parents=True, exist_ok=True)
    questions = rows // len(STRATEGIES)
    (out / "manifest.json").write_text(json.dumps(_manifest(questions, out)), encoding="utf-8")
    rng = random.Random(seed)
    with (out / "results.jsonl").open("w", encoding="utf-8") as handle:
        for strategy in STRATEGIES:
            for number in range(questions):
                handle.write(json.dumps(_row(rng, number, strategy)) + "\n")
    return out
