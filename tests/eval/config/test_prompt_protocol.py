"""A prompt file keeps the benchmark's protocol: with `--preset X --prompt-file F` the preset's
answer tokens, option order, frames, reply format and letters stay and F is sent as written; without
a preset, a reply read whole gets room for detail, and the manifest warns when a confidence may be
cut. Also: one image is not called a video's frames, MMWorld's options are lettered a–d, and no
preset's system text promises frames to an audio-only setting.

The model is a small OpenAI-compatible server the test starts on 127.0.0.1 (tests.fakes.ChatServer);
it records each request. Datasets and images are invented.
"""

from __future__ import annotations

import json

import factprobe.eval.cli.main as cli
from factprobe.agents.benchmark_prompts import BENCHMARK_PROMPTS
from factprobe.agents.prompts import IMAGE_NOTE
from factprobe.eval.config.presets import DETAILED_REPLY_TOKENS, PRESET_SETTINGS
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.core.schema import Question
from factprobe.eval.media.attach import Attachment
from tests.fakes import ChatServer, question_with_frames

PROMPT = "Describe in as much detail as you can:\n{question}\nEnd with your confidence (0-100%)."


def user_parts(chat: dict) -> tuple[str, int]:
    """The last user turn's text and its number of images."""
    content = chat["messages"][-1]["content"]
    if isinstance(content, str):
        return content, 0
    text = "".join(part.get("text", "") for part in content if part.get("type") == "text")
    return text, sum(part.get("type") == "image_url" for part in content)


def one_image_dataset(tmp_path) -> str:
    question = Question(id="img1", question="Which invented tower is shown?", answer="Vell Spire",
                        media=["img/tower.png"])
    return f"jsonl:{question_with_frames(tmp_path, question, [(200, 40, 40)])}"


def test_preset_with_a_prompt_file_keeps_the_presets_settings(tmp_path) -> None:
    prompt = tmp_path / "p.txt"
    prompt.write_text(PROMPT, encoding="utf-8")
    worldsense = RunConfig(preset="worldsense", prompt_file=prompt)
    assert (worldsense.frames, worldsense.frame_sampling, worldsense.option_order) == (16, "vlmevalkit", "released")
    worldvqa = RunConfig(preset="worldvqa", prompt_file=prompt)
    assert worldvqa.max_tokens == PRESET_SETTINGS["worldvqa"]["max_tokens"]
    assert worldvqa.answer_prompt()["reply_format"] == "free" and worldvqa.answer_prompt()["system"] == ""
    assert RunConfig(preset="mmworld", prompt_file=prompt).answer_prompt()["letter_case"] == "lower"


def test_a_prompt_file_is_sent_exactly_with_its_image_and_no_line_before_it(tmp_path) -> None:
    prompt = tmp_path / "p.txt"
    prompt.write_text(PROMPT, encoding="utf-8")
    out = tmp_path / "run"
    with ChatServer(lambda body: "The Vell Spire, a tower of glass.\nConfidence: 70%") as server:
        status = cli.main(["run", "--dataset", one_image_dataset(tmp_path), "--preset", "worldvqa",
                           "--prompt-file", str(prompt), "--strategies", "vanilla", "--model",
                           f"openai:scripted@{server.url}", "--out", str(out)])
        [chat] = server.chats()
    assert status == 0
    text, images = user_parts(chat)
    assert text == PROMPT.format(question="Which invented tower is shown?") and images == 1
    assert [m["role"] for m in chat["messages"]] == ["user"] and chat["max_tokens"] == 512
    [row] = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert row["confidence"] == 70.0


def test_one_image_is_called_an_image_not_a_videos_frames() -> None:
    one = Attachment(images=("data:image/png;base64,AAAA",))
    [message] = one.apply([{"role": "user", "content": "Q?"}])
    assert message["content"].startswith(IMAGE_NOTE) and "frames" not in message["content"]
    two = Attachment(images=("data:image/png;base64,AAAA", "data:image/png;base64,BBBB"))
    assert "video's frames" in two.notes()[0]
    exact = Attachment(images=("data:image/png;base64,AAAA",), caption=None, subtitles="[00:01] hello", exact=True)
    [message] = exact.apply([{"role": "user", "content": "Q?"}])
    text = message["content"]
    assert text.startswith("Q?\n") and "hello" in text and IMAGE_NOTE not in text and len(message["images"]) == 1


def test_without_a_preset_a_free_reply_gets_room_and_a_short_limit_is_warned_of(tmp_path) -> None:
    prompt = tmp_path / "p.txt"
    prompt.write_text(PROMPT, encoding="utf-8")
    assert RunConfig(prompt_file=prompt, reply_format="free").max_tokens == DETAILED_REPLY_TOKENS
    assert RunConfig(prompt_file=prompt, reply_format="free", max_tokens=64).max_tokens == 64
    data = tmp_path / "q.jsonl"
    data.write_text(json.dumps({"id": "t1", "question": "Which invented river is longest?", "answer": "Orrin"}) + "\n")
    notes = {}
    for tokens in ("96", "600"):
        out = tmp_path / f"run{tokens}"
        with ChatServer(lambda body: "Orrin.\nConfidence: 50%") as server:
            status = cli.main(["run", "--dataset", f"jsonl:{data}", "--prompt-file", str(prompt), "--reply-format",
                               "free", "--max-tokens", tokens, "--strategies", "vanilla", "--model",
                               f"openai:scripted@{server.url}", "--out", str(out)])
        assert status == 0
        notes[tokens] = json.loads((out / "manifest.json").read_text())["notes"]
    assert any("--max-tokens 96 may cut" in note for note in notes["96"])
    assert not any("may cut" in note for note in notes["600"])


def test_mmworld_options_are_lettered_as_released_and_a_lower_letter_is_read(tmp_path) -> None:
    data = tmp_path / "mmworld.json"
    data.write_text(json.dumps([{"video_id": "v1", "discipline": "Art", "questions": [
        {"question": "Which invented colour fills the frame?", "options": {"a": "Glint", "b": "Murr", "c": "Sable"},
         "correct_answer_label": "b", "answer": "Murr", "type": "Explanation"}]}]), encoding="utf-8")
    out = tmp_path / "run"
    with ChatServer(lambda body: "b") as server:
        status = cli.main(["run", "--dataset", f"mmworld:{data}", "--preset", "mmworld", "--modality", "text",
                           "--model", f"openai:scripted@{server.url}", "--out", str(out)])
        [chat] = server.chats()
    assert status == 0
    text, _ = user_parts(chat)
    assert "a. Glint\nb. Murr\nc. Sable" in text and "(a, b or c)" in text
    [row] = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert row["grade"] == "CORRECT"


def test_no_preset_promises_frames_and_audio_alone_gets_no_image_line() -> None:
    for name, (system, _, _) in BENCHMARK_PROMPTS.items():
        assert "frames" not in system.lower(), name
    audio = Attachment("audio", audio=("data:audio/wav;base64,AAAA",), explicit=True)
    assert not any("image" in note or "frames" in note for note in audio.notes())
