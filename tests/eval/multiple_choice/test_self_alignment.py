"""`--choice-grading self` (MMWorld Table 8's second mode): an answer no rule maps to an option is
aligned to a letter by the model under test itself, not by a judge; rows, summary and manifest say
so. The model is a small OpenAI-compatible server the test starts on 127.0.0.1 (tests.fakes.ChatServer)
that records each request; the questions are invented."""

from __future__ import annotations

import json

import factprobe.eval.cli.main as cli
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.multiple_choice.mapping import MAPPER_PROMPT
from tests.fakes import ChatServer

QUESTIONS = [{"id": "m1", "question": "Which invented metal is blue?", "choices": ["Zarnium", "Quellite", "Borrin"],
              "answer": "Quellite"},
             {"id": "m2", "question": "Which invented bird sings at night?", "choices": ["Vesp", "Lorrow", "Tink"],
              "answer": "Tink"}]
MAPPING_START = MAPPER_PROMPT.splitlines()[0]


def text_of(body: dict) -> str:
    content = body["messages"][-1]["content"]
    return content if isinstance(content, str) else " ".join(p.get("text", "") for p in content)


def script(body: dict) -> str:
    text = text_of(body)
    if text.startswith(MAPPING_START):            # the model aligns its own reply to a letter
        reply = text.split("Reply:", 1)[1]
        option = "Quellite" if "blue one" in reply else "Vesp"
        return next(line.split(".")[0] for line in text.splitlines() if line.endswith(f". {option}"))
    return "I'd say the blue one, I think." if "metal" in text else "Probably the one that hums."


def test_the_model_under_test_maps_its_own_free_answers(tmp_path) -> None:
    data = tmp_path / "mcq.jsonl"
    data.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS), encoding="utf-8")
    out = tmp_path / "run"
    with ChatServer(script) as server:
        status = cli.main(["run", "--dataset", f"mcq:{data}", "--strategies", "vanilla", "--choice-grading", "self",
                           "--model", f"openai:answerer@{server.url}", "--out", str(out)])
        chats = server.chats()
    assert status == 0
    mapping = [chat for chat in chats if text_of(chat).startswith(MAPPING_START)]
    assert len(mapping) == 2 and {chat["model"] for chat in chats} == {"answerer"}
    rows = {row["question_id"]: row for row in map(json.loads, (out / "results.jsonl").read_text().splitlines())}
    assert (rows["m1"]["grade"], rows["m2"]["grade"]) == ("CORRECT", "INCORRECT")
    for row in rows.values():
        entry = row["multiple_choice"]
        assert (entry["grading"], entry["mapped_by"], entry["model_asked"]) == ("self", "model", True)
        assert entry["mapper_model"].startswith("openai:answerer@")
    summary = json.loads((out / "summary.json").read_text())["multiple_choice"]["vanilla"]
    assert (summary["accuracy"], summary["mapped_by_model"], summary["grading"]) == (0.5, 2, "self")
    manifest = json.loads((out / "manifest.json").read_text())["multiple_choice"]
    assert manifest["grading"] == "self" and manifest["mapper"]["self"] is True


def test_self_needs_no_judge_and_a_preset_keeps_it() -> None:
    assert RunConfig(choice_grading="self").judge is None
    assert RunConfig(preset="mmworld", choice_grading="self").choice_grading == "self"
