"""`--media` finds the layouts the benchmarks release, and the manifest records how media were sampled.

Videos are written by the test with PyAV; the run's model is the OpenAI-compatible fake of
tests/eval/media/test_media.py, a local HTTP server on 127.0.0.1 that records every request it receives.
"""

from __future__ import annotations

import base64
import csv
import io
import json
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
from factprobe.eval.datasets.registry import load_dataset
from factprobe.eval.media.attach import prepare_media
from factprobe.eval.media.sources import find_by_id
from tests.eval.media.test_media import (
    FAKE_MODEL,
    FakeVisionServer,
    image_parts,
    requires_av,
    write_grey_video,
    write_png,
)

PIL = pytest.importorskip("PIL", reason="attached images are encoded with Pillow")


@requires_av
def test_each_released_layout_is_found_by_media_id(tmp_path: Path) -> None:
    root = tmp_path / "media"
    (root / "all_data" / "lab clip 01").mkdir(parents=True)
    write_grey_video(root / "all_data" / "lab clip 01" / "lab clip 01.mp4", frames=6)
    (root / "frames_4" / "2031-01-02").mkdir(parents=True)
    (root / "frames_32" / "2031-01-02").mkdir(parents=True)
    (root / "frames_32" / "2031-03-04").mkdir(parents=True)
    for folder in ("frames_4/2031-01-02", "frames_32/2031-01-02", "frames_32/2031-03-04"):
        write_png(root / folder / "00001.png", 40)
    (root / "videos").mkdir()
    write_grey_video(root / "videos" / "vidA0001.mp4", frames=6)
    (root / "own").mkdir()
    write_grey_video(root / "own.mp4", frames=6)

    assert find_by_id(root, "lab clip 01") == (root / "all_data/lab clip 01/lab clip 01.mp4", "all_data/<id>/*.mp4")
    assert find_by_id(root, "2031-01-02", frames=4) == (root / "frames_4/2031-01-02", "frames_4/<id>/")
    assert find_by_id(root, "2031-01-02", frames=32) == (root / "frames_32/2031-01-02", "frames_32/<id>/")
    assert find_by_id(root, "2031-03-04", frames=4) == (root / "frames_32/2031-03-04", "frames_32/<id>/")
    assert find_by_id(root, "vidA0001") == (root / "videos/vidA0001.mp4", "videos/<id>.<video>")
    assert find_by_id(root / "all_data", "lab clip 01")[1] == "video in folder"    # --media all_data
    assert find_by_id(root / "frames_32", "2031-03-04")[1] == "images"              # --media frames_32
    assert find_by_id(root, "own") == (root / "own.mp4", "video")
    assert find_by_id(root, "absent") is None


@requires_av
def test_mmworld_media_come_from_all_data_sampled_as_recorded(tmp_path: Path) -> None:
    root = tmp_path / "release"
    (root / "all_data" / "lab clip 01").mkdir(parents=True)
    write_grey_video(root / "all_data" / "lab clip 01" / "take.mp4", frames=12)
    data = root / "mmworld.json"
    data.write_text(json.dumps([{
        "video_id": "lab clip 01", "discipline": "Science", "subdiscipline": "Biology", "captions": ["A seed."],
        "questions": [{"type": "Explanation", "question": "What sprouts?",
                       "options": {"a": "A seed", "b": "A stone"}, "answer": "A seed",
                       "correct_answer_label": "a"}]}]), encoding="utf-8")
    spec = f"mmworld:{data}"
    questions = load_dataset(spec).questions
    media = prepare_media(questions, ["vanilla"], root, 3, 64, spec)
    assert [len(refs) for refs in media.refs.values()] == [3]
    assert media.sampling["layouts"] == {"all_data/<id>/*.mp4": 1} and media.sampling["frames"] == 3
    assert media.sampling["images"] == 3 and "centre frame" in media.sampling["video_sampling"]


def test_a_worldvqa_run_sends_the_embedded_image_without_media_dir(tmp_path: Path) -> None:
    from PIL import Image

    out_image = io.BytesIO()
    Image.new("RGB", (30, 20), (10, 120, 200)).save(out_image, format="WEBP")
    data = tmp_path / "WorldVQA.tsv"
    with data.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow(["question", "answer", "image", "category", "difficulty", "language", "index"])
        writer.writerow(["Which city is shown?", "Paris", base64.b64encode(out_image.getvalue()).decode(),
                         "Locations & Architecture", "easy", "non-zh", "7"])
    out = tmp_path / "run"
    with FakeVisionServer() as server:
        status = cli.main(["run", "--dataset", f"worldvqa:{data}", "--strategies", "vanilla",
                           "--model", f"openai:{FAKE_MODEL}@{server.url}", "--out", str(out)])
        chats = [request for request in server.requests if "messages" in request]
    assert status == 0 and len(image_parts(chats[0]["messages"][-1])) == 1
    [row] = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert row["question_id"] == "worldvqa-7" and row["grade"] == "CORRECT"      # the fake saw the image
    media = json.loads((out / "manifest.json").read_text())["media"]
    assert media["layouts"] == {"embedded in the dataset file": 1} and media["root"] is None
