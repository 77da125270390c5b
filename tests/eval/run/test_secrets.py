"""Secrets never reach a file or a terminal, whatever their shape: a key of the `sk-` shape and a
plain token (as gateways and vLLM servers accept) are echoed back in error bodies by fault servers
on 127.0.0.1 (tests/fakes.py), for the answering model and for a judge that passes the
start-up check and then fails every call. Every file under the run directory and the cache
directory, and everything printed, is searched for the key."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from factprobe.eval.cli.main import main
from factprobe.eval.core.redact import redact
from factprobe.eval.core.secrets import (
    REDACTED,
    RedactingStream,
    forget,
    redact_values,
    remember_in_args,
    secret_values,
)
from tests.fakes import SERVED_MODEL, FaultServer

QUESTIONS = [{"id": f"q{n}", "question": f"Which number follows {n}?", "answer": str(n + 1)} for n in range(3)]
KEYS = {"sk-shaped": "sk-proj-Qm7tT2echoedKeyOfShape00000000",
        "plain token": "gatewaypass7Q"}          # no known shape: only redaction by value finds it


@pytest.fixture(autouse=True)
def forget_secrets() -> Iterator[None]:
    """Secrets remembered by one test are not redacted in the next one's output."""
    yield
    forget()


def files_holding(folder: Path, secret: str) -> list[Path]:
    return [path for path in folder.rglob("*") if path.is_file() and secret.encode() in path.read_bytes()]


@pytest.mark.parametrize("key", KEYS.values(), ids=KEYS.keys())
def test_an_echoed_key_reaches_no_file_and_no_output(key: str, tmp_path: Path, isolated_cache: Path,
                                                    monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", key)
    data = tmp_path / "q.jsonl"
    data.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS))
    out = tmp_path / "run"
    with FaultServer(["ok", "echo_token", "echo_key"]) as model, FaultServer(["echo_token"]) as judge:
        code = main(["run", "--dataset", f"jsonl:{data}", "--strategies", "vanilla", "--out", str(out),
                     "--model", f"openai:{SERVED_MODEL}@{model.url}", "--max-retries", "0",
                     "--judge", f"openai:{SERVED_MODEL}@{judge.url}", "--grader", "judge",
                     "--max-error-rate", "1", "--max-undecided-rate", "1"])
        assert code == 0
    printed = capsys.readouterr()
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    # the servers did echo the key: the rows hold the redacted echoes, the judge's note included
    assert sum(row["grade"] == "ERROR" for row in rows) == 2
    assert any(REDACTED in (row["error"] or "") for row in rows)
    graded = next(row for row in rows if row["grade"] != "ERROR")
    assert graded["grade"] == "UNGRADED" and "judge call failed" in graded["grade_note"]
    assert REDACTED in graded["grade_note"]
    assert files_holding(out, key) == [] and files_holding(isolated_cache, key) == []
    assert key not in printed.out and key not in printed.err


def test_a_secret_in_a_url_is_redacted_by_value() -> None:
    remember_in_args(["openai:m@http://alice-user:hunter2-pw@10.0.0.1:8000/v1?api_key=Zq9opaque&x=1"])
    assert {"hunter2-pw", "alice-user", "Zq9opaque"} <= secret_values()
    text = "POST http://alice-user:hunter2-pw@10.0.0.1:8000/v1?api_key=Zq9opaque&x=1 failed"
    assert redact_values(text) == f"POST http://{REDACTED}:{REDACTED}@10.0.0.1:8000/v1?api_key={REDACTED}&x=1 failed"


def test_environment_keys_are_redacted_by_value_and_by_shape(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "opaque-anthropic-value")
    monkeypatch.setenv("SOME_SERVICE_TOKEN", 'tok"with\\quote')
    monkeypatch.setenv("SOME_SETTING", "visible-value")
    assert redact_values("a opaque-anthropic-value b") == f"a {REDACTED} b"
    assert redact_values(json.dumps({"e": 'tok"with\\quote'})) == json.dumps({"e": REDACTED})
    assert redact_values("visible-value") == "visible-value"
    assert redact("Bearer abcdefgh123 and sk-ant-api03-abcdefghij") == f"Bearer {REDACTED} and {REDACTED}"


def test_a_credential_variable_set_changed_or_removed_after_a_redaction_is_followed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The environment's credentials are read again whenever the environment changed since the last read."""
    monkeypatch.setenv("LATER_SERVICE_TOKEN", "first-opaque-value")
    assert redact_values("x first-opaque-value") == f"x {REDACTED}"
    monkeypatch.setenv("LATER_SERVICE_TOKEN", "second-opaque-value")
    assert redact_values("x first-opaque-value second-opaque-value") == f"x first-opaque-value {REDACTED}"
    monkeypatch.delenv("LATER_SERVICE_TOKEN")
    assert redact_values("x second-opaque-value") == "x second-opaque-value"


def test_output_split_over_writes_is_still_redacted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "splitkey-123456")
    sink = io.StringIO()
    stream = RedactingStream(sink)
    stream.write("key: split")
    stream.write("key-123456 end\npartial ")
    stream.flush()
    assert sink.getvalue() == f"key: {REDACTED} end\npartial "


def test_a_secret_in_the_model_url_stays_out_of_the_manifest_and_resume_asks_for_it(
        tmp_path: Path, isolated_cache: Path, capsys) -> None:
    data = tmp_path / "q.jsonl"
    data.write_text(json.dumps(QUESTIONS[0]) + "\n")
    out = tmp_path / "run"
    with FaultServer(["ok"], reply="1") as server:
        spec = f"openai:{SERVED_MODEL}@{server.url.replace('http://', 'http://bob-user:pw-in-url-55@')}?key=qkey-9911"
        assert main(["run", "--dataset", f"jsonl:{data}", "--strategies", "vanilla", "--model", spec,
                     "--out", str(out)]) == 0
        assert main(["run", "--resume", "--out", str(out)]) == 2
        assert "give --model again with --resume" in capsys.readouterr().err
        assert main(["run", "--resume", "--out", str(out), "--model", spec]) == 0
    printed = capsys.readouterr()
    for secret in ("bob-user", "pw-in-url-55", "qkey-9911"):
        assert files_holding(out, secret) == [] and files_holding(isolated_cache, secret) == []
        assert secret not in printed.out + printed.err
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["config"]["model"].count(REDACTED) == 3


def test_resume_asks_again_for_any_option_whose_secret_the_manifest_keeps_redacted(
        tmp_path: Path, isolated_cache: Path, capsys) -> None:
    """Not only --model and --judge: an entity model's URL (never called by vanilla) is asked for too."""
    data = tmp_path / "q.jsonl"
    data.write_text(json.dumps(QUESTIONS[0]) + "\n")
    out = tmp_path / "run"
    entity = f"openai:{SERVED_MODEL}@http://ent-user:ent-pw-77@127.0.0.1:9/v1"
    with FaultServer(["ok"], reply="1") as server:
        assert main(["run", "--dataset", f"jsonl:{data}", "--strategies", "vanilla", "--out", str(out),
                     "--model", f"openai:{SERVED_MODEL}@{server.url}", "--entity-model", entity]) == 0
        assert main(["run", "--resume", "--out", str(out)]) == 2
        assert "give --entity-model again with --resume" in capsys.readouterr().err
        assert main(["run", "--resume", "--out", str(out), "--entity-model", entity]) == 0
    assert files_holding(out, "ent-pw-77") == []
