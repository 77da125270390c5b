"""The same questions as an Inspect AI task: `generate()` then the `includes()` scorer.

`inspect eval benchmarks/peers/inspect_task.py --model openai/bench -T dataset=QUESTIONS.jsonl`
with OPENAI_BASE_URL pointing at the stand-in server. Read by Inspect AI only (an optional
benchmark dependency); factprobe never imports it.
"""

from __future__ import annotations

import json
from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.scorer import includes
from inspect_ai.solver import generate


@task
def factprobe_peer(dataset: str) -> Task:
    lines = Path(dataset).read_text(encoding="utf-8").splitlines()
    samples = [Sample(id=record["id"], input=record["question"], target=record["answer"])
               for record in map(json.loads, lines)]
    return Task(dataset=MemoryDataset(samples), solver=[generate()], scorer=includes())
