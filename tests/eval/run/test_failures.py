"""Failures are never silent: exit status, re-grading, post-step errors, resume identity, baseline,
bad rows. Runs the `factprobe` CLI on scripted models (and the OpenAI backend on a closed port)."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.grading.judge_loader as judge_loader
import factprobe.eval.run.pipeline as pipeline
from factprobe.agents.models.base import ModelError
from factprobe.agents.models.openai_backend import OpenAIModel
from factprobe.eval.config.run_config import RESUME_EXEMPT, RunConfig
from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.run.failures import EXIT_TOO_MANY_ERRORS, error_report, redact
from factprobe.eval.run.steps import PostStep, PostStepInput
from factprobe.eval.store.run_dir import RunDir
from tests.fakes import ScriptedModel, failing, last_user, write_questions

QUESTIONS = [
    Question(id="paris", question="Which city is the capital of France?", answer="Paris", category="geography"),
    Question(id="rome", question="Which city is the capital of Italy?", answer="Rome", category="geography"),
    Question(id="boom", question="Which question makes the model fail?", answer="None", category="test"),
    Question(id="gold", question="What is the chemical symbol for gold?", answer="Au", category="science"),
]
FAKE_KEY = "sk-proj-Zx81fakeKeyForTests00000000"


def answer_script(messages, params) -> str:
    text = last_user(messages)
    if "fail" in text:
        raise ModelError(f"401 Incorrect API key provided: {FAKE_KEY}")
    if "France" in text:
        return "Answer: Paris\nConfidence: 90"
    if "Italy" in text:
        return "Answer: Milan\nConfidence: 40"
    return "Answer: I don't know\nConfidence: 10"


@pytest.fixture
def dataset_file(tmp_path: Path) -> Path:
    path = tmp_path / "questions.jsonl"
    write_questions(path, QUESTIONS)
    return path


@pytest.fixture
def models(monkeypatch: pytest.MonkeyPatch) -> dict[str, ScriptedModel]:
    """`--model` and `--judge` specs resolve to scripted models by name (`judge` → the judge)."""
    table = {"local": ScriptedModel(answer_script), "judge": ScriptedModel(failing("judge offline"), "judge")}
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: table[spec])
    monkeypatch.setattr(judge_loader, "load_model", lambda spec, **kwargs: table[spec])
    return table


def run_cli(*args: str) -> int:
    return cli.main(["run", *args])


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# 1. the error-rate exit status


def died_after_start(url: str) -> OpenAIModel:
    """A model whose server answered the start-up check and then died (a dead server at start
    stops the run with exit 2 before any question: tests/eval/run/test_faults.py)."""
    model = OpenAIModel("x", base_url=url, timeout=5.0, max_retries=0)
    model.served = {"model_id": "x", "root": None, "source": "/models"}
    return model


def test_dead_server_exits_non_zero_and_stays_resumable(tmp_path, dataset_file, monkeypatch, capsys) -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1"
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: died_after_start(url))
    out = tmp_path / "run"
    started = time.perf_counter()
    code = run_cli("--dataset", f"jsonl:{dataset_file}", "--strategies", "vanilla", "--out", str(out))
    elapsed = time.perf_counter() - started
    assert code == EXIT_TOO_MANY_ERRORS and code not in (0, 2)
    assert elapsed < 30
    err = capsys.readouterr().err
    assert "4 of 4 rows are ERROR (100.0%)" in err and "--max-error-rate 5.0%" in err
    assert "4× ModelError: openai:x at " in err and "Connection error" in err
    assert json.loads((out / "summary.json").read_text())["strategies"]["vanilla"]["errors"] == 4
    assert run_cli("--resume", "--out", str(out)) == EXIT_TOO_MANY_ERRORS
    assert len(RunDir(out).read_results()) == 8          # every ERROR row was tried again


def test_error_rate_limit_and_redacted_messages(tmp_path, dataset_file, models, capsys) -> None:
    out = tmp_path / "run"
    assert run_cli("--dataset", f"jsonl:{dataset_file}", "--strategies", "vanilla", "--out", str(out)) \
        == EXIT_TOO_MANY_ERRORS                           # 1 of 4 = 25% > the default 5%
    err = capsys.readouterr().err
    assert "1 of 4 rows are ERROR (25.0%)" in err and "1× ModelError: 401 Incorrect API key" in err
    assert FAKE_KEY not in err and "[redacted]" in err
    assert run_cli("--resume", "--out", str(out), "--max-error-rate", "0.25") == 0   # exactly at the limit
    # checked against the option's range before any work: exit 2, the flag and value named
    assert run_cli("--dataset", f"jsonl:{dataset_file}", "--out", str(tmp_path / "r2"),
                   "--max-error-rate", "1.5") == 2
    assert "--max-error-rate = 1.5: must be less than or equal to 1" in capsys.readouterr().err
    assert not (tmp_path / "r2").exists()


def test_redact_hides_keys_and_keeps_plain_messages() -> None:
    assert redact("key sk-ant-api03-abcdefghij1234 and Bearer abc.def-123456 and ?key=AIzaXYZ&x") == \
        "key [redacted] and Bearer [redacted] and ?key=[redacted]&x"
    assert redact("ModelError: openai:x at http://127.0.0.1:8000/v1: timeout") == \
        "ModelError: openai:x at http://127.0.0.1:8000/v1: timeout"


# 2. --resume re-grades UNGRADED rows from their stored answers


def test_resume_regrades_ungraded_rows_without_asking_the_model(tmp_path, dataset_file, models) -> None:
    out = tmp_path / "run"
    run_cli("--dataset", f"jsonl:{dataset_file}", "--strategies", "vanilla", "--judge", "judge",
            "--out", str(out), "--max-error-rate", "1")
    first = RunDir(out).latest()
    assert first[("paris", "vanilla", 0)].grade is Grade.UNGRADED
    assert "judge call failed: judge offline" in first[("paris", "vanilla", 0)].grade_note
    answer_calls = len(models["local"].calls)
    models["judge"].script = lambda messages, params: "The answer names the gold city.\nGrade: CORRECT"
    assert run_cli("--resume", "--out", str(out), "--max-error-rate", "1") == 0
    # only the ERROR row is asked again; the three UNGRADED answers are graded as they were stored
    assert len(models["local"].calls) - answer_calls == 1
    latest = RunDir(out).latest()
    regraded = latest[("paris", "vanilla", 0)]
    assert regraded.grade is Grade.CORRECT and regraded.answer == "Paris"
    assert regraded.grade_note.startswith("re-graded on resume (was UNGRADED: judge call failed")
    assert regraded.trace == first[("paris", "vanilla", 0)].trace
    assert len(RunDir(out).read_results()) == 8         # 4 first rows, 3 re-graded, 1 re-run
    assert json.loads((out / "summary.json").read_text())["strategies"]["vanilla"]["ungraded"] == 0


# 3. post-step failures stay apart; a failing graph keeps its partial trace


def test_post_step_failure_keeps_the_graded_answer_and_is_rerun_on_resume(
        tmp_path, dataset_file, models, monkeypatch) -> None:
    broken = {"on": True}

    async def fragile(data: PostStepInput) -> dict:
        if broken["on"]:
            raise RuntimeError("probe exploded")
        return {"fragile_ok": True}

    real = pipeline.active_post_steps
    monkeypatch.setattr(pipeline, "active_post_steps",
                        lambda config: [*real(config), PostStep("fragile", fragile, lambda config: True)])
    out = tmp_path / "run"
    run_cli("--dataset", f"jsonl:{dataset_file}", "--strategies", "vanilla", "--out", str(out))
    paris = RunDir(out).latest()[("paris", "vanilla", 0)]
    assert paris.grade is Grade.CORRECT and paris.error is None
    assert paris.post_step_errors == {"fragile": "RuntimeError: probe exploded"}
    assert [step["step"] for step in paris.trace] == ["build_prompt", "generate", "parse"]
    assert ("paris", "vanilla", 0) not in RunDir(out).done_keys()
    broken["on"] = False
    run_cli("--resume", "--out", str(out))
    rerun = RunDir(out).latest()[("paris", "vanilla", 0)]
    assert rerun.grade is Grade.CORRECT and rerun.fragile_ok is True
    assert getattr(rerun, "post_step_errors", None) is None


def test_failing_graph_keeps_the_trace_up_to_the_failure(tmp_path, dataset_file, models) -> None:
    out = tmp_path / "run"
    run_cli("--dataset", f"jsonl:{dataset_file}", "--strategies", "vanilla", "--out", str(out))
    boom = RunDir(out).latest()[("boom", "vanilla", 0)]
    assert boom.grade is Grade.ERROR and "401 Incorrect API key" in boom.error
    assert [step["step"] for step in boom.trace] == ["build_prompt"]


# 4. resume identity: every result-changing option


def test_resume_identity_is_every_option_but_the_exempt_ones() -> None:
    identity = RunConfig().identity()
    assert set(identity) == set(RunConfig.model_fields) - RESUME_EXEMPT
    assert {"sample_temperature", "max_tokens", "baseline"} <= set(identity)
    assert "concurrency" not in identity


def test_resume_refuses_a_changed_sampling_temperature(tmp_path, dataset_file, models, capsys) -> None:
    out = tmp_path / "run"
    run_cli("--dataset", f"jsonl:{dataset_file}", "--strategies", "vanilla", "--out", str(out))
    capsys.readouterr()
    assert run_cli("--resume", "--out", str(out), "--sample-temperature", "0.5") == 2
    assert "sample_temperature" in capsys.readouterr().err
    assert run_cli("--resume", "--out", str(out), "--concurrency", "3", "--max-error-rate", "0.3") == 0


# 5. the baseline is fixed in the manifest


def test_baseline_is_fixed_in_the_manifest_not_by_row_order(tmp_path, dataset_file, models, capsys) -> None:
    out = tmp_path / "run"
    run_cli("--dataset", f"jsonl:{dataset_file}", "--strategies", "refusal,best_of_n", "--samples", "2",
            "--selector", "majority", "--out", str(out), "--max-error-rate", "1")
    assert json.loads((out / "manifest.json").read_text())["config"]["baseline"] == "refusal"
    results = out / "results.jsonl"
    lines = results.read_text().splitlines(keepends=True)
    results.write_text("".join(sorted(lines, key=lambda line: '"strategy":"refusal"' in line)))
    assert cli.main(["report", str(out)]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["baseline"] == "refusal" and set(summary["gains"]) == {"best_of_n"}


def test_explicit_baseline_must_be_one_of_the_strategies(tmp_path, dataset_file, models, capsys) -> None:
    base = ("--dataset", f"jsonl:{dataset_file}", "--strategies", "vanilla,refusal", "--max-error-rate", "1")
    assert run_cli(*base, "--baseline", "rag", "--out", str(tmp_path / "bad")) == 2
    assert "--baseline rag is not one of the run's strategies (vanilla, refusal)" in capsys.readouterr().err
    assert not (tmp_path / "bad").exists()
    assert run_cli(*base, "--baseline", "refusal", "--out", str(tmp_path / "ok")) == 0
    summary = json.loads((tmp_path / "ok" / "summary.json").read_text())
    assert summary["baseline"] == "refusal" and set(summary["gains"]) == {"vanilla"}
    assert run_cli(*base, "--out", str(tmp_path / "default")) == 0
    assert json.loads((tmp_path / "default" / "summary.json").read_text())["baseline"] == "vanilla"


# 6. a bad value in results.jsonl is a one-paragraph error


@pytest.mark.parametrize("field, value, expected", [
    ("confidence", 150, "field `confidence`: must be less than or equal to 100 (found 150)"),
    ("grade", "MAYBE", "field `grade`: must be 'CORRECT'"),
])
def test_bad_value_in_results_names_file_line_and_field(tmp_path, dataset_file, models, capsys,
                                                        field, value, expected) -> None:
    out = tmp_path / "run"
    run_cli("--dataset", f"jsonl:{dataset_file}", "--strategies", "vanilla", "--out", str(out))
    results = out / "results.jsonl"
    lines = results.read_text().splitlines()
    row = json.loads(lines[1])
    row[field] = value
    lines[1] = json.dumps(row)
    results.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    for command in (["report", str(out)], ["run", "--resume", "--out", str(out)]):
        assert cli.main(command) == 2
        err = capsys.readouterr().err
        assert f"{results}, line 2: {expected}" in err
        assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_error_report_counts_only_the_latest_row_of_a_key(tmp_path, dataset_file, models) -> None:
    out = tmp_path / "run"
    run_cli("--dataset", f"jsonl:{dataset_file}", "--strategies", "vanilla", "--out", str(out))
    models["local"].script = lambda messages, params: "Answer: Paris\nConfidence: 50"
    assert run_cli("--resume", "--out", str(out)) == 0
    report = error_report(RunDir(out).read_results())
    assert (report.errors, report.rows, report.rate) == (0, 4, 0.0)


def test_an_error_in_a_hop_probe_is_reported_not_silent() -> None:
    from factprobe.eval.core.schema import Result
    from factprobe.eval.run.failures import warnings

    def row(qid: str, probe_grade: str) -> Result:
        return Result.model_validate({
            "question_id": qid, "strategy": "vanilla", "repeat": 0, "question": "q?", "gold": "a",
            "category": "c", "answer": "a", "grade": "CORRECT", "grader": "rules",
            "hop_probes": [{"question": "h1?", "gold": "x", "answer": None, "grade": probe_grade}]})

    report = error_report([row("a", "ERROR"), row("b", "CORRECT")])
    assert (report.errors, report.hop_errors) == (0, 1)
    assert any("ERROR hop or sub-QA probe" in line for line in warnings(report, 0.05))
