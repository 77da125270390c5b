"""`option_likelihood`: options chosen by the log-probability of their letters (MM-SAP Table 7).

Remote paths run against an OpenAI-compatible server the test starts on 127.0.0.1, which returns
scripted `logprobs.content` (or none; tests/fakes.py ChatServer); the local path runs the embedded SmolLM2 GGUF and skips
without the local extra. Questions are invented.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
from pathlib import Path
from typing import Callable

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.agents.context import StrategyContext
from factprobe.agents.registry import get_strategy
from factprobe.eval.core.schema import Question
from tests.conftest import requires_local_model
from tests.fakes import ChatServer, ScriptedModel

QUESTIONS = [
    {"id": "lake", "question": "Which invented lake lies north of Dorvel?",
     "choices": ["Lake Amsy", "Lake Brint", "Lake Corra", "Lake Dulm"], "answer": "Lake Corra"},
    {"id": "peak", "question": "Which invented peak is the tallest in Harn?",
     "choices": ["Mount Esk", "Mount Fale", "Mount Gow", "Mount Hult"], "answer": "Mount Esk"},
]
# what the scripted server finds most likely: the gold on `lake`, a wrong option on `peak`
FAVOURED = {"lake": "Lake Corra", "peak": "Mount Hult"}


def logprob_server(logprobs: Callable[[dict], list[dict] | None]) -> ChatServer:
    """A server on 127.0.0.1 whose replies carry `logprobs(body)` (none when it returns None) and
    whose text is the first token's (or "A")."""
    return ChatServer(lambda body: (logprobs(body) or [{"token": "A"}])[0]["token"], "fake", logprobs)


def shown_letters(body: dict) -> dict[str, str]:
    """Option text → letter, as the request shows them."""
    text = body["messages"][-1]["content"]
    return {option: letter for letter, option in re.findall(r"^([A-Z])\. (.+)$", text, re.MULTILINE)}


def favoured_logprobs(body: dict) -> list[dict]:
    """A first token that is the favoured option's letter; the next most likely is another letter
    spelled two ways (" X" and "X"); one letter is left out of the alternatives."""
    letters = shown_letters(body)
    question = "lake" if "lake" in body["messages"][-1]["content"] else "peak"
    best = letters[FAVOURED[question]]
    others = sorted(letter for letter in letters.values() if letter != best)
    top = [{"token": best, "logprob": -0.2}, {"token": f" {others[0]}", "logprob": -2.5},
           {"token": others[0], "logprob": -3.0}, {"token": others[1], "logprob": -4.0},
           {"token": "The", "logprob": -1.0}]
    return [{"token": best, "logprob": -0.2, "bytes": None, "top_logprobs": top}]


def dataset(tmp_path: Path, records: list[dict]) -> Path:
    path = tmp_path / "mcq.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


def rows_of(out: Path) -> dict[str, dict]:
    return {row["question_id"]: row for row in map(json.loads, (out / "results.jsonl").read_text().splitlines())}


@pytest.mark.parametrize("preset", [[], ["--preset", "mmsap", "--repeats", "1"]], ids=["own prompt", "mmsap preset"])
def test_the_most_likely_letter_is_the_answer_and_every_score_is_traced(tmp_path: Path, preset: list[str]) -> None:
    out = tmp_path / "run"
    with logprob_server(favoured_logprobs) as server:
        code = cli.main(["run", "--dataset", f"mcq:{dataset(tmp_path, QUESTIONS)}", "--strategies",
                         "option_likelihood", "--model", f"openai:fake@{server.url}", "--out", str(out), *preset])
        chats = [body for body in server.requests if "messages" in body]
    assert code == 0
    assert chats and all(body["logprobs"] is True and body["top_logprobs"] == 20 for body in chats)
    system = chats[0]["messages"][0]["content"]
    assert ("Look at the image" in system) == bool(preset)   # the preset's prompt when there is one
    rows = rows_of(out)
    assert rows["lake"]["grade"] == "CORRECT" and rows["peak"]["grade"] == "INCORRECT"
    assert rows["lake"]["confidence"] is None
    scores = next(step for step in rows["lake"]["trace"] if step["step"] == "option_scores")
    by_letter = {entry["letter"]: entry for entry in scores["options"]}
    assert scores["choice"] == rows["lake"]["answer"] and by_letter[scores["choice"]]["option"] == "Lake Corra"
    assert by_letter[scores["choice"]]["logprob"] == pytest.approx(-0.2)
    unscored = [entry for entry in scores["options"] if entry["logprob"] is None]
    assert len(unscored) == 1 and unscored[0]["probability"] is None
    spelled_twice = [entry for entry in scores["options"]
                     if entry["logprob"] is not None and entry["letter"] != scores["choice"]
                     and entry["logprob"] > -2.5]
    assert len(spelled_twice) == 1
    assert spelled_twice[0]["logprob"] == pytest.approx(math.log(math.exp(-2.5) + math.exp(-3.0)))
    assert sum(entry["probability"] or 0 for entry in scores["options"]) == pytest.approx(1.0)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["multiple_choice"]["option_likelihood"]["accuracy"] == pytest.approx(0.5)


def test_a_server_without_logprobs_fails_the_row_naming_the_backend(tmp_path: Path) -> None:
    out = tmp_path / "run"
    with logprob_server(lambda body: None) as server:
        cli.main(["run", "--dataset", f"mcq:{dataset(tmp_path, QUESTIONS[:1])}", "--strategies",
                  "option_likelihood", "--model", f"openai:fake@{server.url}", "--out", str(out)])
    row = rows_of(out)["lake"]
    assert row["grade"] == "ERROR"
    assert "openai:fake@" in row["error"] and "log-probabilities" in row["error"]


def test_an_open_question_fails_its_row_and_a_backend_without_logprobs_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    open_path = tmp_path / "open.jsonl"
    open_path.write_text(Question(id="open", question="Which invented river feeds Lake Amsy?",
                                  answer="Tovel").model_dump_json() + "\n", encoding="utf-8")
    with logprob_server(favoured_logprobs) as server:
        cli.main(["run", "--dataset", f"jsonl:{open_path}", "--strategies", "option_likelihood",
                  "--model", f"openai:fake@{server.url}", "--out", str(tmp_path / "open")])
    row = rows_of(tmp_path / "open")["open"]
    assert row["grade"] == "ERROR" and "has no options" in row["error"]

    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: ScriptedModel(lambda m, p: "A"))
    code = cli.main(["run", "--dataset", f"mcq:{dataset(tmp_path, QUESTIONS)}", "--strategies",
                     "option_likelihood", "--out", str(tmp_path / "scripted")])
    assert code == 2
    assert "scripted does not return" in capsys.readouterr().err


@requires_local_model
@pytest.mark.needs_llama
def test_the_embedded_model_scores_every_option() -> None:
    """SmolLM2 gives top-20 logprobs through llama-cpp: every letter of four options is scored."""
    from factprobe.agents.models.local import LocalModel

    context = StrategyContext(model=LocalModel(n_ctx=512))
    graph = get_strategy("option_likelihood").build(context)
    question = Question(id="colour", question="Which colour is the clear daytime sky?",
                        choices=["Blue", "Green", "Red", "Black"], answer="Blue")
    state = asyncio.run(graph.ainvoke({"question": question, "repeat": 0}))
    scores = next(step for step in state["trace"] if step["step"] == "option_scores")
    logprobs = {entry["letter"]: entry["logprob"] for entry in scores["options"]}
    assert set(logprobs) == {"A", "B", "C", "D"}
    assert all(value is not None and value <= 0 for value in logprobs.values())
    assert state["answer"] == max(logprobs, key=lambda letter: logprobs[letter])
    assert state["calls"][0].completion_tokens >= 1
