"""`--judge-media frames`: the judge is shown the question's frames (Video SimpleQA's released grader
shows its judge the same frames as the model), set by `--preset videosimpleqa` with a judge.

The model and the judge are two OpenAI-compatible servers the test starts on 127.0.0.1 (tests.fakes
ChatServer), each recording what it receives; the video is an H.264 file the test writes with PyAV.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.grading.judge import JudgeGrader
from factprobe.eval.media.attach import JUDGE_FRAMES_NOTE, MediaRefusedError, judge_with_media
from tests.eval.media.test_media import data_url_bytes, grey_level, image_parts, requires_av, write_grey_video
from tests.fakes import ChatServer, ScriptedModel

DATE = "2031-04-05"
RECORD = {"date": DATE, "QA_Pair_1_Question": "Which invented lamp is lit in the clip?",
          "QA_Pair_1_Answer": "Vesper lamp", "QA_Pair_2_Question": "Who made the Vesper lamp?",
          "QA_Pair_2_Answer": "Ona Brill", "Multi_hop_Question": "Who made the lamp lit in the clip?",
          "Multi_hop_Answer": "Ona Brill"}


def judge_reply(body: dict) -> str:
    return "The answer names the maker.\nGrade: CORRECT"


def dataset(tmp_path: Path) -> tuple[Path, Path]:
    data, media = tmp_path / "vsqa.json", tmp_path / "videos"
    data.write_text(json.dumps([RECORD]), encoding="utf-8")
    media.mkdir()
    write_grey_video(media / f"{DATE}.mp4", frames=24)
    return data, media


def run(tmp_path: Path, *extra: str) -> tuple[int, list[dict], list[dict], Path]:
    data, media = dataset(tmp_path)
    out = tmp_path / "run"
    with ChatServer(lambda body: '{"answer": "Ona Brill", "confidence_score": 70}') as model, \
            ChatServer(judge_reply, model="judge") as judge:
        status = cli.main(["run", "--dataset", f"videosimpleqa:{data}", "--preset", "videosimpleqa",
                           "--strategies", "vanilla", "--no-hop-probes", "--frames", "3", "--media", str(media),
                           "--model", f"openai:scripted@{model.url}", "--judge", f"openai:judge@{judge.url}",
                           "--out", str(out), *extra])
        return status, model.chats(), judge.chats(), out


@requires_av
def test_the_videosimpleqa_judge_receives_the_frames_the_model_saw(tmp_path: Path) -> None:
    status, asked, judged, out = run(tmp_path)
    assert status == 0 and len(judged) == 1
    [message] = [m for m in judged[0]["messages"] if m["role"] == "user"]
    frames = image_parts(message)
    assert len(frames) == 3
    text = message["content"][-1]["text"]
    assert text.startswith(JUDGE_FRAMES_NOTE) and "Ona Brill" in text
    model_frames = image_parts(asked[0]["messages"][-1])
    assert [p["image_url"]["url"] for p in frames] == [p["image_url"]["url"] for p in model_frames]
    levels = [grey_level(data_url_bytes(p["image_url"]["url"])) for p in frames]
    assert levels == sorted(levels) and levels[0] < levels[-1]      # three frames in playback order
    [row] = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert row["grade"] == "CORRECT" and row["grader"].startswith("judge:openai:judge@")
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["config"]["judge_media"] == "frames" and manifest["grader"]["model"]["media"] == "frames"
    assert "judge_media" in manifest["media"]


@requires_av
def test_judge_media_none_overrides_the_preset_and_the_judge_reads_text(tmp_path: Path) -> None:
    status, asked, judged, _ = run(tmp_path, "--judge-media", "none")
    assert status == 0 and len(judged) == 1
    assert isinstance(judged[0]["messages"][-1]["content"], str)    # no image parts at all
    assert image_parts(asked[0]["messages"][-1])                    # the model still saw the frames


@requires_av
def test_the_judge_sees_the_frames_even_when_the_answer_was_text_only(tmp_path: Path) -> None:
    status, asked, judged, _ = run(tmp_path, "--modality", "text")
    assert status == 0
    assert not image_parts(asked[0]["messages"][-1])
    assert len(image_parts(judged[0]["messages"][-1])) == 3


def test_a_text_only_judge_is_refused_and_frames_need_a_judge(tmp_path: Path, capsys) -> None:
    text_only = ScriptedModel(lambda m, p: "Grade: CORRECT", name="plain")
    with pytest.raises(MediaRefusedError, match="--judge-media frames.*reads text only"):
        judge_with_media(text_only, "frames")
    assert judge_with_media(text_only, "none") is text_only
    assert JudgeGrader(text_only).model is text_only
    assert RunConfig(preset="videosimpleqa").judge_media == "none"        # no judge: nothing to show
    assert RunConfig(preset="videosimpleqa", judge="openai:j").judge_media == "frames"
    assert cli.main(["run", "--judge-media", "frames", "--out", str(tmp_path / "x")]) == 2
    assert "--judge-media" in capsys.readouterr().err
