"""The runner and the `factprobe` CLI end to end on a scripted model (no model is loaded)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.agents.models.base import ModelError
from factprobe.agents.resources import RunResources
from factprobe.eval.core.schema import Question
from factprobe.eval.run.failures import EXIT_TOO_MANY_ERRORS
from factprobe.eval.run.runner import Runner
from factprobe.eval.store.run_dir import RunDir
from factprobe.retrieval.pipeline import pipeline_for
from tests.fakes import ScriptedModel, last_user, write_questions

QUESTIONS = [
    Question(id="paris", question="Which city is the capital of France?", answer="Paris", category="geography"),
    Question(id="rome", question="Which city is the capital of Italy?", answer="Rome", category="geography"),
    Question(id="boom", question="Which question makes the model fail?", answer="None", category="test"),
    Question(id="gold", question="What is the chemical symbol for gold?", answer="Au", category="science"),
]


def capital_script(messages, params) -> str:
    text = last_user(messages)
    if "fail" in text:
        raise ModelError("scripted failure")
    if "France" in text:
        return "Answer: Paris\nConfidence: 90"
    if "Italy" in text:
        return "Answer: Milan\nConfidence: 1813"
    return "Answer: I don't know\nConfidence: 10"


@pytest.fixture
def dataset_file(tmp_path: Path) -> Path:
    path = tmp_path / "questions.jsonl"
    write_questions(path, QUESTIONS)
    return path


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> ScriptedModel:
    model = ScriptedModel(capital_script)
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: model)
    return model


def run_cli(*args: str) -> int:
    return cli.main(["run", *args])


def test_run_writes_manifest_results_and_summary(tmp_path, dataset_file, scripted) -> None:
    out = tmp_path / "run"
    # one ERROR row of four is above the default --max-error-rate: exit 3, everything still written
    assert run_cli("--dataset", f"jsonl:{dataset_file}", "--strategies", "vanilla", "--out", str(out)) \
        == EXIT_TOO_MANY_ERRORS
    rows = {row.question_id: row for row in RunDir(out).read_results()}
    assert rows["paris"].grade == "CORRECT" and rows["paris"].confidence == 90
    assert rows["rome"].grade == "INCORRECT" and rows["rome"].confidence is None
    assert rows["gold"].grade == "NOT_ATTEMPTED"
    assert rows["boom"].grade == "ERROR" and "scripted failure" in rows["boom"].error
    assert rows["paris"].llm_calls == 1 and rows["paris"].prompt_tokens > 0
    assert [step["step"] for step in rows["paris"].trace] == ["build_prompt", "generate", "parse"]
    sent = rows["paris"].trace[1]["messages"]                 # the trace keeps the prompt it sent
    assert sent[-1]["role"] == "user" and "capital of France" in sent[-1]["content"]
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["config"]["dataset"] == f"jsonl:{dataset_file}"
    summary = json.loads((out / "summary.json").read_text())
    vanilla = summary["strategies"]["vanilla"]
    assert (vanilla["correct"], vanilla["incorrect"], vanilla["not_attempted"], vanilla["errors"]) == (1, 1, 1, 1)
    assert vanilla["accuracy"] == pytest.approx(1 / 3)
    assert summary["baseline"] == "vanilla"
    assert summary["per_category"]["vanilla"]["geography"]["n"] == 2


def test_resume_skips_finished_rows_and_retries_errors(tmp_path, dataset_file, scripted) -> None:
    out = tmp_path / "run"
    run_cli("--dataset", f"jsonl:{dataset_file}", "--strategies", "vanilla", "--out", str(out))
    calls_before = len(scripted.calls)
    assert run_cli("--resume", "--out", str(out), "--max-error-rate", "0.25") == 0
    assert len(scripted.calls) - calls_before == 1          # only the errored question again
    assert len(RunDir(out).done_keys()) == 3


def test_resume_survives_a_torn_last_line(tmp_path, dataset_file, scripted) -> None:
    out = tmp_path / "run"
    run_cli("--dataset", f"jsonl:{dataset_file}", "--strategies", "vanilla", "--out", str(out))
    results = out / "results.jsonl"
    lines = results.read_text().splitlines(keepends=True)
    results.write_text("".join(lines[:-1]) + lines[-1][: len(lines[-1]) // 2])
    assert run_cli("--resume", "--out", str(out), "--max-error-rate", "0.25") == 0
    assert len(RunDir(out).read_results()) >= 4


def test_resume_refuses_changed_options(tmp_path, dataset_file, scripted, capsys) -> None:
    out = tmp_path / "run"
    run_cli("--dataset", f"jsonl:{dataset_file}", "--strategies", "vanilla", "--out", str(out))
    assert run_cli("--resume", "--out", str(out), "--seed", "7") == 2
    assert "seed" in capsys.readouterr().err


def test_existing_run_directory_is_not_overwritten(tmp_path, dataset_file, scripted, capsys) -> None:
    out = tmp_path / "run"
    run_cli("--dataset", f"jsonl:{dataset_file}", "--strategies", "vanilla", "--out", str(out))
    assert run_cli("--dataset", f"jsonl:{dataset_file}", "--strategies", "vanilla", "--out", str(out)) == 2
    assert "--resume" in capsys.readouterr().err


def test_report_recomputes_the_same_summary(tmp_path, dataset_file, scripted) -> None:
    out = tmp_path / "run"
    run_cli("--dataset", f"jsonl:{dataset_file}", "--strategies", "vanilla", "--out", str(out))
    first = (out / "summary.json").read_text()
    (out / "summary.json").unlink()
    calls = len(scripted.calls)
    assert cli.main(["report", str(out)]) == 0
    assert len(scripted.calls) == calls
    assert (out / "summary.json").read_text() == first


def test_bad_model_is_a_clear_error(tmp_path, dataset_file, capsys) -> None:
    code = run_cli("--dataset", f"jsonl:{dataset_file}", "--strategies", "vanilla", "--model", "nonsense",
                   "--out", str(tmp_path / "r"))
    assert code == 2
    assert "unknown model 'nonsense'" in capsys.readouterr().err


def test_missing_gguf_is_a_clear_error(tmp_path, dataset_file, capsys) -> None:
    code = run_cli("--dataset", f"jsonl:{dataset_file}", "--strategies", "vanilla", "--model", "local:/no/such.gguf",
                   "--out", str(tmp_path / "r"))
    assert code == 2
    err = capsys.readouterr().err
    assert "/no/such.gguf" in err or "not installed" in err


def test_missing_dataset_file_is_a_clear_error(tmp_path, capsys) -> None:
    code = run_cli("--dataset", "jsonl:/no/such/file.jsonl", "--out", str(tmp_path / "r"))
    assert code == 2
    assert "/no/such/file.jsonl: no such file" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


def test_malformed_line_names_file_line_and_field(tmp_path, capsys) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(QUESTIONS[0].model_dump_json() + "\n" + '{"id": "x", "question": 5, "answer": "a"}\n')
    assert run_cli("--dataset", f"jsonl:{path}", "--out", str(tmp_path / "r")) == 2
    err = capsys.readouterr().err
    assert f"{path}, line 2" in err and "question" in err
    path.write_text(QUESTIONS[0].model_dump_json() + "\n{not json\n")
    assert run_cli("--dataset", f"jsonl:{path}", "--out", str(tmp_path / "r")) == 2
    assert "line 2: not valid JSON" in capsys.readouterr().err


def test_unknown_strategy_lists_known_ones(tmp_path, dataset_file, capsys) -> None:
    assert run_cli("--dataset", f"jsonl:{dataset_file}", "--strategies", "magic", "--out", str(tmp_path / "r")) == 2
    assert "known: vanilla" in capsys.readouterr().err


def test_resume_refuses_a_changed_dataset(tmp_path, dataset_file, scripted, capsys) -> None:
    out = tmp_path / "run"
    run_cli("--dataset", f"jsonl:{dataset_file}", "--strategies", "vanilla", "--out", str(out))
    dataset_file.write_text(dataset_file.read_text().replace("Paris", "Lyon"))
    assert run_cli("--resume", "--out", str(out)) == 2
    assert "changed since the run" in capsys.readouterr().err


class CountingModel(ScriptedModel):
    """A scripted model whose calls take a little while, counting how many are in flight at once."""

    def __init__(self) -> None:
        super().__init__(lambda messages, params: "Answer: Paris\nConfidence: 50")
        self.in_flight = 0
        self.most_in_flight = 0

    async def generate(self, messages, params):
        import asyncio

        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        await asyncio.sleep(0.01)
        try:
            return await super().generate(messages, params)
        finally:
            self.in_flight -= 1


def test_concurrency_bounds_the_calls_in_flight_and_every_job_runs_once(tmp_path, monkeypatch) -> None:
    questions = [Question(id=f"q{n}", question=f"Which city is landmark {n} in?", answer="Paris") for n in range(11)]
    path = tmp_path / "many.jsonl"
    write_questions(path, questions)
    model = CountingModel()
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: model)
    out = tmp_path / "run"
    assert run_cli("--dataset", f"jsonl:{path}", "--strategies", "vanilla", "--no-hop-probes",
                   "--concurrency", "3", "--out", str(out)) == 0
    assert model.most_in_flight == 3
    keys = [(row.question_id, row.strategy, row.repeat) for row in RunDir(out).read_results()]
    assert sorted(keys) == sorted({(q.id, "vanilla", 0) for q in questions})


def test_the_run_hands_its_steps_typed_resources(tmp_path, dataset_file, scripted, monkeypatch) -> None:
    """The context a run builds carries a RunResources holding the run's config, corpus, retrieval
    factory and judge, with the memos and the plugins' slot empty; post steps get that same context."""
    judge = ScriptedModel(capital_script, name="judge-model")
    monkeypatch.setattr(pipeline, "load_judge", lambda spec, **kwargs: judge)
    built: list[Runner] = []

    class Recording(Runner):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            built.append(self)

    monkeypatch.setattr(pipeline, "Runner", Recording)
    out = tmp_path / "run"
    assert run_cli("--dataset", f"jsonl:{dataset_file}", "--strategies", "vanilla", "--judge", "openai:judge-model",
                   "--grader", "rules", "--no-hop-probes", "--out", str(out)) == EXIT_TOO_MANY_ERRORS   # "boom" fails
    [runner] = built
    resources = runner.context.resources
    assert type(resources) is RunResources
    assert resources.config is runner.config and resources.config.judge == "openai:judge-model"
    assert resources.corpus is runner.dataset.corpus and resources.retrieval is pipeline_for
    assert resources.judge is judge and resources.entity_model is None and resources.cache_dir is None
    assert resources.hop_probe_retrieval is None and resources.extra == {}
    assert len(RunDir(out).read_results()) == len(QUESTIONS)
