"""`--preset` and `--prompt-file`: the benchmark's answer prompt sent, its reply read, its settings
applied unless overridden.

The model is a small OpenAI-compatible server the test starts on 127.0.0.1; it records each
request and replies with what the test's script returns for it. Datasets are invented.
"""

from __future__ import annotations

import json

import pytest

import factprobe.eval.cli.main as cli
from factprobe.agents.benchmark_prompts import parse_reply
from factprobe.eval.config.run_config import RunConfig
from tests.fakes import ChatServer

ScriptedServer = ChatServer   # replies with the test's script for each request body

def user_text(chat: dict) -> str:
    content = chat["messages"][-1]["content"]
    return content if isinstance(content, str) else " ".join(p.get("text", "") for p in content)


VSQA = [{"date": "2031-02-03", "QA_Pair_1_Question": "Which invented bird is in the clip?",
         "QA_Pair_1_Answer": "Glimmer wren", "QA_Pair_2_Question": "Where does the Glimmer wren nest?",
         "QA_Pair_2_Answer": "Reed beds", "Multi_hop_Question": "Where does the bird in the clip nest?",
         "Multi_hop_Answer": "Reed beds"}]


def test_videosimpleqa_preset_sends_the_json_prompt_and_reads_answer_and_confidence(tmp_path) -> None:
    data = tmp_path / "vsqa.json"
    data.write_text(json.dumps(VSQA), encoding="utf-8")
    out = tmp_path / "run"
    with ScriptedServer(lambda body: 'Sure.\n{"answer": "Reed beds", "confidence_score": 85}') as server:
        status = cli.main(["run", "--dataset", f"videosimpleqa:{data}", "--preset", "videosimpleqa",
                           "--strategies", "vanilla", "--no-hop-probes", "--model",
                           f"openai:scripted@{server.url}", "--out", str(out)])
        chats = server.chats()
    assert status == 0
    system = chats[0]["messages"][0]
    assert system["role"] == "system" and '"confidence_score"' in system["content"]
    assert user_text(chats[0]) == "Question: Where does the bird in the clip nest?"
    [row] = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert (row["answer"], row["confidence"], row["grade"]) == ("Reed beds", 85.0, "CORRECT")
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["config"]["frames"] == 32 and manifest["config"]["hedging"] == "penalize"
    assert manifest["config"]["judge_prompt"] == "simpleqa"          # no --judge: the rule grader
    assert RunConfig(preset="videosimpleqa", judge="openai:j@http://127.0.0.1:9/v1").judge_prompt == "videosimpleqa"
    assert manifest["answer_prompt"]["reply_format"] == "json"


def test_a_preset_setting_given_explicitly_wins() -> None:
    config = RunConfig(preset="videosimpleqa", frames=4, hedging="accept")
    assert (config.frames, config.hedging.value, config.max_tokens) == (4, "accept", 1024)
    assert RunConfig(preset="mmsap").strategies == ["vanilla", "refusal"]
    assert RunConfig(preset="mmsap", strategies=["vanilla"], repeats=2).repeats == 2
    assert RunConfig(preset="worldvqa", reply_format="lines").answer_prompt()["reply_format"] == "lines"


@pytest.mark.parametrize("reply, expected", [
    ('{"answer": "Oslo", "confidence_score": 70}', ("Oslo", 70.0, "json")),
    ('```json\n{"answer": "Oslo", "confidence_score": "0.7"}\n```', ("Oslo", 70.0, "json")),
    ('{"answer": "Oslo", "confidence_score": 170}', ("Oslo", None, "json")),    # out of range: missing
    ('{"answer": "Oslo"}', ("Oslo", None, "json")),
    ("Answer: Oslo\nConfidence: 60%", ("Oslo", 60.0, "lines")),               # no JSON object: read as lines
])
def test_json_replies_are_parsed_into_answer_and_confidence(reply, expected) -> None:
    assert parse_reply(reply, "json") == expected


def test_worldvqa_asks_chinese_questions_with_the_chinese_instruction() -> None:
    from factprobe.agents.benchmark_prompts import benchmark_messages
    from factprobe.eval.core.schema import Question

    prompt = RunConfig(preset="worldvqa").answer_prompt()
    chinese = Question(id="z", question="这是哪座桥？", answer="样例桥", fields={"language": "zh"})
    english = chinese.model_copy(update={"fields": {"language": "non-zh"}, "question": "Which bridge?"})
    assert benchmark_messages(prompt, chinese, 0, 0)[0]["content"].startswith("请回答")
    assert benchmark_messages(prompt, english, 0, 0)[0]["content"].startswith("Answer the question")
    assert benchmark_messages(prompt, chinese, 0, 0)[1] == {"role": "user", "content": "这是哪座桥？"}


def test_free_replies_keep_the_whole_answer_without_the_confidence_line() -> None:
    reply = "It is the Invented Bridge,\na steel arch over the Glass River.\nConfidence: 40%"
    assert parse_reply(reply, "free") == ("It is the Invented Bridge,\na steel arch over the Glass River.", 40.0, "free")


def test_prompt_file_sends_the_exact_text_with_placeholders_filled(tmp_path) -> None:
    data = tmp_path / "mcq.jsonl"
    data.write_text(json.dumps({"id": "m1", "question": "Which invented metal is blue?",
                                "choices": ["Zarnium", "Quellite"], "answer": "Quellite"}) + "\n")
    prompt = tmp_path / "prompt.txt"
    prompt.write_text('Pick one of {letters}.\n{question}\n{options}\nJSON like {"answer": "X"} is not needed.',
                      encoding="utf-8")
    out = tmp_path / "run"

    def script(body: dict) -> str:
        text = user_text(body)
        return next(line[0] for line in text.splitlines() if line.endswith(". Quellite"))

    with ScriptedServer(script) as server:
        status = cli.main(["run", "--dataset", f"mcq:{data}", "--prompt-file", str(prompt), "--strategies",
                           "vanilla", "--model", f"openai:scripted@{server.url}", "--out", str(out)])
        [chat] = [c for c in server.chats() if "Pick one of" in user_text(c)]
    assert status == 0
    assert len(chat["messages"]) == 1                                  # the exact text, no system turn
    lines = user_text(chat).splitlines()
    assert lines[0] == "Pick one of A or B." and lines[1] == "Which invented metal is blue?"
    assert sorted(lines[2:4]) == ["A. Zarnium", "B. Quellite"] or sorted(lines[2:4]) == ["A. Quellite", "B. Zarnium"]
    assert lines[4] == 'JSON like {"answer": "X"} is not needed.'
    [row] = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert row["grade"] == "CORRECT"
