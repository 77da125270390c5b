"""Faults of a real OpenAI-compatible server, injected by tests/fakes.py on 127.0.0.1.

Every fault either ends in a usable reply after a bounded number of retries, or in a ModelError
(an ERROR row, never a grade); nothing invalid enters the response cache, so a later healthy
server is asked again; one deadline covers a whole response, however slowly it trickles.
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
from pathlib import Path

import pytest

from factprobe.agents.models.base import Completion, GenerationParams, ModelError
from factprobe.agents.models.cache import CachedModel, ResponseCache, request_key
from factprobe.agents.models.openai_backend import OpenAIModel
from factprobe.agents.models.replies import reply_problem
from factprobe.eval.cli.main import main
from factprobe.eval.core.schema import Grade
from factprobe.eval.store.json_store import hash_key
from factprobe.eval.store.run_dir import RunDir
from tests.fakes import SERVED_MODEL, FaultServer

QUESTION = [{"role": "user", "content": "What is the capital of France?"}]
PARAMS = GenerationParams(max_tokens=16)
FAKE_KEY = "sk-proj-faultserverechoedthiskey0123456789"


@pytest.fixture(autouse=True)
def no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


def ask(model, params: GenerationParams = PARAMS) -> Completion:
    return asyncio.run(model.generate(QUESTION, params))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# ---------------------------------------------------------------- one call against each fault

@pytest.mark.parametrize("fault", ["429", "500", "503", "reset", "garbage", "empty", "oversized"])
def test_a_transient_fault_is_retried_once_then_answered(fault: str) -> None:
    with FaultServer([fault, "ok"]) as server:
        model = OpenAIModel(SERVED_MODEL, base_url=server.url, timeout=5.0, max_retries=3)
        completion = ask(model)
    assert completion.text == "Paris" and reply_problem(completion, PARAMS) is None
    assert server.requests == 2 and model.retries == 1


@pytest.mark.parametrize("fault", ["500", "reset", "garbage", "empty", "oversized"])
def test_a_lasting_fault_ends_in_model_error_after_bounded_retries(fault: str) -> None:
    with FaultServer([fault]) as server:
        model = OpenAIModel(SERVED_MODEL, base_url=server.url, timeout=5.0, max_retries=2)
        with pytest.raises(ModelError) as caught:
            ask(model)
    assert server.requests == 3 and model.retries == 2          # 1 + max_retries, never more
    message = str(caught.value)
    assert "\n" not in message and server.url in message and "after 3 attempts" in message


def test_429_waits_what_retry_after_asks() -> None:
    with FaultServer(["429", "ok"]) as server:
        started = time.perf_counter()
        ask(OpenAIModel(SERVED_MODEL, base_url=server.url, timeout=5.0, max_retries=1))
    assert time.perf_counter() - started >= 0.95


@pytest.mark.parametrize("fault", ["trickle", "hang"])
def test_one_deadline_covers_the_whole_response(fault: str) -> None:
    """A body trickled a byte every 0.5 s would take over two minutes; the per-read timeout of
    the SDK never fires on it. The request timeout cuts every attempt at 1 s."""
    with FaultServer([fault]) as server:
        model = OpenAIModel(SERVED_MODEL, base_url=server.url, timeout=1.0, max_retries=1)
        started = time.perf_counter()
        with pytest.raises(ModelError, match="no complete response within 1 s"):
            ask(model)
        elapsed = time.perf_counter() - started
    assert server.requests == 2
    assert elapsed < 4.0      # two 1 s attempts and one backoff of at most 0.5 s


# ---------------------------------------------------------------- the response cache

def test_an_invalid_reply_is_never_cached_and_a_healthy_server_is_asked_again(tmp_path: Path) -> None:
    port = free_port()
    cache = ResponseCache(tmp_path / "responses.sqlite")
    with FaultServer(["empty"], port=port) as broken:
        with pytest.raises(ModelError, match="empty reply"):
            ask(CachedModel(OpenAIModel(SERVED_MODEL, base_url=broken.url, timeout=5.0, max_retries=1), cache))
    with FaultServer(["ok"], port=port) as healthy:
        model = CachedModel(OpenAIModel(SERVED_MODEL, base_url=healthy.url, timeout=5.0, max_retries=1), cache)
        first, again = ask(model), ask(model)
    assert healthy.requests == 1                           # asked once, then served from the cache
    assert (first.text, first.cached, again.text, again.cached) == ("Paris", False, "Paris", True)


def test_a_poisoned_entry_from_an_older_cache_is_not_served(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "responses.sqlite")
    with FaultServer(["ok"]) as server:
        model = CachedModel(OpenAIModel(SERVED_MODEL, base_url=server.url, timeout=5.0), cache)
        key = request_key(hash_key(asyncio.run(model.identity())), QUESTION, PARAMS)
        cache.put(key, Completion(text="", model=model.name))              # what a bad reply left
        assert ask(model).text == "Paris" and server.requests == 1
    assert cache.get(key).text == "Paris"


def test_the_cache_key_names_the_served_model_not_the_spec(tmp_path: Path) -> None:
    with FaultServer(["ok"]) as server:
        identity = asyncio.run(CachedModel(OpenAIModel(SERVED_MODEL, base_url=server.url),
                                           ResponseCache(tmp_path / "r.sqlite")).identity())
    assert identity == {"backend": "openai", "base_url": server.url, "model_id": SERVED_MODEL,
                        "root": None, "source": "/models"}


def test_a_server_without_models_is_named_by_its_first_reply(tmp_path: Path) -> None:
    with FaultServer(["ok"], models=False) as server:
        model = OpenAIModel("alias", base_url=server.url)
        identity = asyncio.run(model.identity())
    assert identity["model_id"] == SERVED_MODEL and identity["source"] == "first response"
    assert server.requests == 1


class FileModel:
    """A backend identified by a model file, like the local one."""

    supports_logprobs = False

    def __init__(self, path: Path) -> None:
        self.path, self.name = path, f"local:{path.name}"

    async def identity(self) -> dict:
        return {"backend": "local", "file": str(self.path)}

    async def generate(self, messages, params) -> Completion:
        return Completion(text=self.path.read_text(), model=self.name)


def test_two_model_files_with_one_name_never_share_cache_entries(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "responses.sqlite")
    (tmp_path / "a").mkdir(), (tmp_path / "b").mkdir()
    first, second = tmp_path / "a" / "model.gguf", tmp_path / "b" / "model.gguf"
    first.write_text("tuned on A")
    second.write_text("tuned on B")
    assert ask(CachedModel(FileModel(first), cache)).text == "tuned on A"
    assert ask(CachedModel(FileModel(second), cache)).text == "tuned on B"
    same_content = tmp_path / "copy.gguf"
    same_content.write_text("tuned on A")
    assert ask(CachedModel(FileModel(same_content), cache)).cached    # content, not path or name


# ---------------------------------------------------------------- whole runs

def write_questions(path: Path, count: int = 3) -> Path:
    rows = [{"id": f"q{i}", "question": f"What is the capital of country {i}?", "answer": "Paris"}
            for i in range(count)]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def run(url: str, data: Path, out: Path, *extra: str) -> int:
    return main(["run", "--dataset", f"jsonl:{data}", "--strategies", "vanilla", "--model",
                 f"openai:{SERVED_MODEL}@{url}", "--out", str(out), "--request-timeout", "2",
                 "--max-retries", "1", *extra])


def test_empty_replies_become_errors_never_grades_and_resume_asks_again(tmp_path: Path, capsys) -> None:
    data, out, port = write_questions(tmp_path / "q.jsonl"), tmp_path / "run", free_port()
    with FaultServer(["empty"], port=port) as broken:
        assert run(broken.url, data, out) == 3
    rows = RunDir(out).read_results()
    assert len(rows) == 3 and {row.grade for row in rows} == {Grade.ERROR}
    assert all("empty reply" in row.error and row.answer is None for row in rows)
    assert broken.requests == 3 * 2
    with FaultServer(["ok"], port=port) as healthy:
        assert run(healthy.url, data, out, "--resume") == 0
    latest = RunDir(out).latest()
    assert {row.grade for row in latest.values()} == {Grade.CORRECT} and healthy.requests == 3


def test_an_echoed_key_is_redacted_in_results(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    data, out = write_questions(tmp_path / "q.jsonl", 1), tmp_path / "run"
    with FaultServer(["echo_key"]) as server:
        assert run(server.url, data, out) == 3
    assert server.requests == 1                          # a 401 is not retried
    text = (out / "results.jsonl").read_text()
    assert FAKE_KEY not in text and "[redacted]" in text and "AuthenticationError" in text


def test_a_dead_server_stops_the_run_before_any_question(tmp_path: Path, capsys) -> None:
    data, out = write_questions(tmp_path / "q.jsonl"), tmp_path / "run"
    started = time.perf_counter()
    assert run(f"http://127.0.0.1:{free_port()}/v1", data, out) == 2
    elapsed = time.perf_counter() - started
    err = capsys.readouterr().err
    assert "could not be reached, so nothing was run" in err and "Traceback" not in err
    assert "Connection error" in err and "timed out" not in err      # refused, not slow
    assert err.count("\n") == 1 and elapsed < 5 and not out.exists()


def test_a_model_the_server_does_not_serve_stops_the_run(tmp_path: Path, capsys) -> None:
    data, out = write_questions(tmp_path / "q.jsonl"), tmp_path / "run"
    with FaultServer(["notfound"]) as server:
        code = main(["run", "--dataset", f"jsonl:{data}", "--strategies", "vanilla",
                     "--model", f"openai:gpt-nonexistent@{server.url}", "--out", str(out)])
    assert code == 2 and server.requests == 1
    err = capsys.readouterr().err
    assert "does not serve a model 'gpt-nonexistent'" in err and SERVED_MODEL in err
