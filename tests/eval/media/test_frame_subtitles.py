"""Subtitles per frame (each sampled frame beside the .srt line shown at its time, as WorldSense's
evaluation pairs them) and MMWorld folders holding several videos (the record's `video_file`
chooses; without one the folder is refused, naming its videos).

Videos are H.264 files the test writes with PyAV; the model is an OpenAI-compatible server the test
starts on 127.0.0.1 (tests.fakes ChatServer) that records each request. Content is invented.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
from factprobe.eval.datasets.registry import load_dataset
from factprobe.eval.media.sources import MediaError, find_by_id
from factprobe.eval.media.subtitles import lines_by_frame, subtitle_cues
from tests.eval.media.test_media import image_parts, requires_av
from tests.fakes import ChatServer

SRT = """1
00:00:00,500 --> 00:00:01,500
The <i>kettle</i> whistles.

2
00:00:02,500 --> 00:00:03,500
Someone opens the door.

3
00:00:04,000 --> 00:00:04,600
A cat walks in.
"""


def write_video(path: Path, frames: int = 60, rate: int = 10) -> None:
    """`frames` grey frames at `rate` per second (60 at 10: six seconds)."""
    import av
    import numpy as np

    path.parent.mkdir(parents=True, exist_ok=True)
    with av.open(str(path), "w") as container:
        stream = container.add_stream("libx264", rate=rate)
        stream.width, stream.height, stream.pix_fmt = 32, 32, "yuv420p"
        for index in range(frames):
            pixels = np.full((32, 32, 3), 4 * index, dtype=np.uint8)
            for packet in stream.encode(av.VideoFrame.from_ndarray(pixels, format="rgb24")):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)


def test_each_frame_gets_the_line_shown_at_its_time(tmp_path: Path) -> None:
    srt = tmp_path / "clip.srt"
    srt.write_text(SRT, encoding="utf-8")
    cues = subtitle_cues(srt)
    assert [(c.start, c.end, c.text) for c in cues][0] == (0.5, 1.5, "The kettle whistles.")
    assert lines_by_frame(cues, [1.0, 2.0, 3.25]).splitlines() == [
        "Frame 1 (1.0 s): The kettle whistles.", "Frame 2 (2.0 s): (no subtitle)",
        "Frame 3 (3.2 s): Someone opens the door."]


@requires_av
def test_frames_and_subtitles_reach_the_model_side_by_side(tmp_path: Path) -> None:
    media = tmp_path / "worldsense"
    write_video(media / "videos" / "vid07.mp4")
    (media / "subtitles").mkdir()
    (media / "subtitles" / "vid07.srt").write_text(SRT, encoding="utf-8")
    data = tmp_path / "worldsense_qa.json"
    data.write_text(json.dumps({"vid07": {"domain": "Daily Life", "duration": "<1min", "task0": {
        "task_domain": "Recognition", "task_type": "Sound Recognition", "question": "What makes the first sound?",
        "candidates": ["A. A kettle", "B. A bell", "C. A dog", "D. A car"], "answer": "A"}}}), encoding="utf-8")
    out = tmp_path / "run"
    with ChatServer(lambda body: "Answer: A") as server:
        status = cli.main(["run", "--dataset", f"worldsense:{data}", "--media", str(media), "--frames", "3",
                           "--modality", "frames+subtitles", "--strategies", "vanilla",
                           "--model", f"openai:scripted@{server.url}", "--out", str(out)])
        [chat] = server.chats()
    assert status == 0
    message = chat["messages"][-1]
    assert len(image_parts(message)) == 3
    text = message["content"][-1]["text"]
    # 60 frames at 10 per second, 3 sampled: the centres of three 2-second segments
    assert "Frame 1 (1.0 s): The kettle whistles.\nFrame 2 (3.0 s): Someone opens the door.\n" \
           "Frame 3 (5.0 s): (no subtitle)" in text
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["media"]["layouts"]["subtitles by frame"] == 1


def mmworld_record(video_file: str | None = None) -> dict:
    video = {"video_id": "lab clip 02", "discipline": "Science", "captions": [], "questions": [
        {"type": "Explanation", "question": "Why does the invented flask glow?",
         "options": {"a": "Heat", "b": "Dye", "c": "Light"}, "correct_answer_label": "b"}]}
    return {**video, "video_file": video_file} if video_file else video


@requires_av
def test_a_folder_of_several_videos_is_chosen_by_the_records_file_name_or_refused(tmp_path: Path, capsys) -> None:
    root = tmp_path / "mmworld"
    folder = root / "all_data" / "lab clip 02"
    for name in ("take1.mp4", "take2.mp4"):
        write_video(folder / name, frames=6)
    with pytest.raises(MediaError, match=r"lab clip 02: 2 videos \('take1.mp4', 'take2.mp4'\)"):
        find_by_id(root, "lab clip 02")
    assert find_by_id(root, "lab clip 02", file_name="take2.mp4")[0] == folder / "take2.mp4"
    with pytest.raises(MediaError, match="'take3.mp4' is not one of its videos"):
        find_by_id(root, "lab clip 02", file_name="take3.mp4")

    data = tmp_path / "mmworld.json"
    data.write_text(json.dumps([mmworld_record("all_data/lab clip 02/take2.mp4")]), encoding="utf-8")
    [question] = load_dataset(f"mmworld:{data}").questions
    assert question.fields["video_file"] == "take2.mp4"
    with ChatServer(lambda body: "Answer: B") as server:
        args = ["run", "--dataset", f"mmworld:{data}", "--media", str(root), "--frames", "2", "--strategies",
                "vanilla", "--model", f"openai:scripted@{server.url}"]
        assert cli.main([*args, "--out", str(tmp_path / "named")]) == 0
        data.write_text(json.dumps([mmworld_record()]), encoding="utf-8")
        assert cli.main([*args, "--out", str(tmp_path / "unnamed")]) == 2
        assert len(server.chats()) == 1                  # the refused run asked nothing
    error = capsys.readouterr().err
    assert "lab clip 02" in error and "take1.mp4" in error and "take2.mp4" in error
