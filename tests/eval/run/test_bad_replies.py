"""Replies a server should never send: a body that is not UTF-8, token counts in `usage` that are NaN,
infinite, negative or text. Each is a transient fault, retried like a 5xx; one that lasts ends as
an ERROR row with a one-line message, never a traceback. The server is a local fake on 127.0.0.1
(tests/fakes.py): real services are unreachable here.
"""

from __future__ import annotations

import asyncio
import json
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from factprobe.agents.models.base import Completion, GenerationParams, ModelError
from factprobe.agents.models.openai_backend import OpenAIModel
from factprobe.eval.cli.main import main
from factprobe.eval.core.schema import Grade
from factprobe.eval.store.run_dir import RunDir
from tests.fakes import SERVED_MODEL, FaultServer, completion_body

PARAMS = GenerationParams(max_tokens=16)
# usage counts as they appear in the JSON body (Python's json reads NaN, Infinity and 1e400 as floats)
BAD_USAGE = {"nan": "NaN", "infinity": "Infinity", "overflow": "1e400", "negative": "-5",
             "text": '"many"', "fraction": "2.5"}


def bad_body(mode: str) -> bytes:
    """A 200 reply whose body is not UTF-8 (`latin1`) or whose completion_tokens is BAD_USAGE[mode]."""
    if mode == "latin1":
        return completion_body("Zürich").replace(b"Z\\u00fcrich", "Zürich".encode("latin-1"))
    body = json.loads(completion_body("Paris"))
    body["usage"]["completion_tokens"] = "@count@"
    return json.dumps(body).replace('"@count@"', BAD_USAGE[mode]).encode()


class BadReplyServer(FaultServer):
    """FaultServer with the modes of `bad_body` too."""

    def serve(self, handler: BaseHTTPRequestHandler, mode: str) -> None:
        if mode == "latin1" or mode in BAD_USAGE:
            handler._send(200, bad_body(mode))  # type: ignore[attr-defined]
        else:
            super().serve(handler, mode)


@pytest.fixture(autouse=True)
def no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


def ask(url: str, max_retries: int) -> tuple[OpenAIModel, Completion]:
    model = OpenAIModel(SERVED_MODEL, base_url=url, timeout=5.0, max_retries=max_retries)
    return model, asyncio.run(model.generate([{"role": "user", "content": "Capital of France?"}], PARAMS))


MODES = ["latin1", *BAD_USAGE]


@pytest.mark.parametrize("mode", MODES)
def test_a_bad_reply_is_retried_then_the_good_one_is_used(mode: str) -> None:
    with BadReplyServer([mode, mode, "ok"]) as server:
        model, completion = ask(server.url, max_retries=3)
    assert completion.text == "Paris" and completion.completion_tokens == 1
    assert server.requests == 3 and model.retries == 2


@pytest.mark.parametrize("mode", MODES)
def test_a_lasting_bad_reply_ends_in_one_line_naming_it(mode: str) -> None:
    with BadReplyServer([mode]) as server:
        with pytest.raises(ModelError) as caught:
            ask(server.url, max_retries=2)
    message = str(caught.value)
    assert server.requests == 3 and "\n" not in message and "after 3 attempts" in message
    assert "InvalidReply: malformed reply" in message
    assert ("not UTF-8" if mode == "latin1" else "usage completion_tokens is") in message


def test_a_run_against_a_server_sending_bad_replies_ends_in_error_rows(tmp_path: Path, capsys) -> None:
    data = tmp_path / "q.jsonl"
    data.write_text("".join(json.dumps({"id": f"q{i}", "question": f"Capital of country {i}?", "answer": "Paris"})
                            + "\n" for i in range(2)), encoding="utf-8")
    out = tmp_path / "run"
    with BadReplyServer(["latin1", "nan", "negative", "text"]) as server:
        code = main(["run", "--dataset", f"jsonl:{data}", "--strategies", "vanilla", "--model",
                     f"openai:{SERVED_MODEL}@{server.url}", "--out", str(out), "--request-timeout", "2",
                     "--max-retries", "1", "--workers", "1"])
    assert code == 3 and "Traceback" not in capsys.readouterr().err
    rows = RunDir(out).read_results()
    assert len(rows) == 2 and {row.grade for row in rows} == {Grade.ERROR}
    assert all(row.answer is None and "malformed reply" in (row.error or "") for row in rows)
