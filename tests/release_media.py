"""Media for the release-shaped fixtures of tests/data/releases: short videos with a sound track,
subtitle files and still images, written with PyAV and Pillow where each benchmark's `--media DIR`
looks for them (factprobe.eval.media.sources). Every picture and sound is generated here."""

from __future__ import annotations

import json
import math
from pathlib import Path

RELEASES = Path(__file__).resolve().parent / "data" / "releases"
RATE, BLOCK = 16_000, 1024


def write_video(path: Path, seed: int, frames: int = 40, fps: int = 10) -> None:
    """`frames` frames of 64×48 H.264 whose colour changes every ten frames (scene cuts for the keyframe
    sampler) and a mono AAC tone as long as the picture."""
    import av
    import numpy as np

    path.parent.mkdir(parents=True, exist_ok=True)
    with av.open(str(path), "w") as container:
        video = container.add_stream("libx264", rate=fps)
        video.width, video.height, video.pix_fmt = 64, 48, "yuv420p"
        audio = container.add_stream("aac", rate=RATE)
        audio.layout = "mono"
        for index in range(frames):
            shade = (seed * 53 + (index // 10) * 70) % 256
            picture = np.full((48, 64, 3), (shade, 255 - shade, (shade * 3) % 256), np.uint8)
            for packet in video.encode(av.VideoFrame.from_ndarray(picture, format="rgb24")):
                container.mux(packet)
        for number in range(int(frames / fps * RATE / BLOCK)):
            seconds = np.arange(number * BLOCK, (number + 1) * BLOCK) / RATE
            tone = (0.2 * np.sin(2 * math.pi * (300 + 40 * seed) * seconds)).astype(np.float32)
            frame = av.AudioFrame.from_ndarray(tone[None, :], format="fltp", layout="mono")
            frame.sample_rate, frame.pts = RATE, number * BLOCK
            for packet in audio.encode(frame):
                container.mux(packet)
        for stream in (video, audio):
            for packet in stream.encode():
                container.mux(packet)


def write_image(path: Path, seed: int) -> None:
    from PIL import Image

    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (32, 24), ((seed * 71) % 256, (seed * 29) % 256, (seed * 113) % 256)).save(path)


def srt(lines: list[str]) -> str:
    return "".join(f"{k}\n00:00:0{k - 1},000 --> 00:00:0{k},000\n{text}\n\n" for k, text in enumerate(lines, 1))


def mmworld_media(media: Path, dataset: Path) -> None:
    """`all_data/<video_id>/<video_id>.mp4` for every video of an mmworld.json-shaped file."""
    for seed, entry in enumerate(json.loads(dataset.read_text(encoding="utf-8"))):
        write_video(media / "all_data" / entry["video_id"] / f"{entry['video_id']}.mp4", seed)


def worldsense_media(media: Path, dataset: Path) -> None:
    """`videos/<id>.mp4` and `subtitles/<id>.srt` for every video of worldsense_qa.json."""
    for seed, video_id in enumerate(json.loads(dataset.read_text(encoding="utf-8"))):
        write_video(media / "videos" / f"{video_id}.mp4", seed)
        (media / "subtitles").mkdir(parents=True, exist_ok=True)
        (media / "subtitles" / f"{video_id}.srt").write_text(
            srt(["Let us begin.", "Watch this closely.", "That is all."]), encoding="utf-8")


def videosimpleqa_media(media: Path, dataset: Path) -> None:
    """`videos/<date>.mp4` for every distinct video of VideoSimpleQA.json."""
    dates = sorted({record["date"] for record in json.loads(dataset.read_text(encoding="utf-8"))})
    for seed, date in enumerate(dates):
        write_video(media / "videos" / f"{date}.mp4", seed)


def mmsap_media(media: Path, folder: Path) -> None:
    """The subsets' files and every image they name, side by side in `media` (`mmsap:DIR --media DIR`)."""
    media.mkdir(parents=True, exist_ok=True)
    seed = 0
    for subset in sorted(folder.glob("*.json")):
        (media / subset.name).write_text(subset.read_text(encoding="utf-8"), encoding="utf-8")
        for record in json.loads(subset.read_text(encoding="utf-8")):
            seed += 1
            write_image(media / record["image"], seed)
