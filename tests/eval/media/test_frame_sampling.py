"""`--frame-sampling`: which frames of a video are sent (uniform, VLMEvalKit's positions, scene-change
keyframes), the same positions in a folder of pre-extracted frames, and which rule each benchmark
preset sets.

The videos are written by the tests with PyAV: solid-colour shots of unequal lengths, so a decoded
frame tells which shot it came from. The run goes to the recording fake of
tests/eval/media/test_media.py, started by the test on 127.0.0.1.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.core.schema import Question
from factprobe.eval.media.frames import folder_frames, frame_times, interior_indices, sample_frames, uniform_indices
from factprobe.eval.media.keyframes import image_changes, keyframe_indices
from factprobe.eval.media.sources import MediaResolver, MediaSettings
from factprobe.eval.store.media_cache import MediaStore
from tests.eval.media.conftest import run_with_media
from tests.eval.media.test_media import (
    GREY_STEP,
    Image,
    data_url_bytes,
    grey_level,
    image_parts,
    requires_av,
    write_png,
)

np = pytest.importorskip("numpy")

COLOURS = {"red": (220, 30, 30), "green": (30, 200, 40), "blue": (30, 40, 220), "yellow": (230, 220, 30)}
SHOTS = [("red", 6), ("green", 30), ("blue", 6), ("yellow", 18)]   # 60 frames, shots of unequal length
RATE = 30


def write_shots(path: Path, shots: list[tuple[str, int]] = SHOTS) -> None:
    """An H.264 video of solid-colour shots, in order."""
    import av

    with av.open(str(path), "w") as container:
        stream = container.add_stream("libx264", rate=RATE)
        stream.width, stream.height, stream.pix_fmt = 64, 48, "yuv420p"
        for colour, length in shots:
            pixels = np.zeros((48, 64, 3), np.uint8) + np.array(COLOURS[colour], np.uint8)
            for _ in range(length):
                for packet in stream.encode(av.VideoFrame.from_ndarray(pixels, format="rgb24")):
                    container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)


def shot_of(image) -> str:
    """The colour a decoded frame shows (the nearest of COLOURS to its mean)."""
    mean = np.asarray(image.convert("RGB"), dtype=float).reshape(-1, 3).mean(axis=0)
    return min(COLOURS, key=lambda name: float(np.abs(mean - np.array(COLOURS[name])).sum()))


def test_vlmevalkit_positions_leave_out_both_ends_and_differ_from_segment_centres() -> None:
    assert interior_indices(30, 5) == [5, 10, 15, 20, 25]
    assert uniform_indices(30, 5) == [3, 9, 15, 21, 27]
    assert interior_indices(160, 16)[0] == 9 and interior_indices(160, 16)[-1] == 150
    assert interior_indices(3, 8) == [0, 1, 2]
    assert interior_indices(45, 32)[10] == 14     # 11 steps of 45/33 fall just short of 15, as in VLMEvalKit


def test_keyframes_of_a_still_video_are_spread_evenly_and_cuts_win_over_noise() -> None:
    assert keyframe_indices(np.zeros(39), 4) == [4, 14, 24, 34]          # 40 frames, no change: halved evenly
    changes = np.full(59, 0.02)                                           # compression noise everywhere …
    changes[[9, 44]] = 0.8                                                # … and two cuts: frames 10 and 45 start shots
    picks = keyframe_indices(changes, 3)
    assert picks == [4, 27, 52]                                           # the middle of each shot
    assert keyframe_indices(np.zeros(2), 8) == [0, 1, 2]


@requires_av
def test_keyframes_pick_one_frame_from_every_shot_where_uniform_frames_miss_one(tmp_path: Path) -> None:
    video = tmp_path / "shots.mp4"
    write_shots(video)
    assert [shot_of(image) for image in sample_frames(video, 4, "keyframes")] == ["red", "green", "blue", "yellow"]
    assert "red" not in [shot_of(image) for image in sample_frames(video, 4, "uniform")]
    two = [shot_of(image) for image in sample_frames(video, 2, "keyframes")]
    assert len(set(two)) == 2
    eight = sample_frames(video, 8, "keyframes")
    assert len(eight) == 8 and {shot_of(image) for image in eight} == set(COLOURS)
    times = frame_times(video, 4, "keyframes")                          # subtitles follow the same frames
    assert [int(t * RATE + 0.5) for t in times] == keyframe_frames(video, 4)


def keyframe_frames(video: Path, count: int) -> list[int]:
    from factprobe.eval.media.frames import keyframe_positions

    return keyframe_positions(video, count)[0]


@requires_av
def test_each_rule_is_stored_under_its_own_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from factprobe.eval.media import sources

    video = tmp_path / "shots.mp4"
    write_shots(video)
    store = MediaStore(tmp_path / "store")
    decoded: list[str] = []
    real = sources.sample_frames
    monkeypatch.setattr(sources, "sample_frames", lambda path, count, rule: decoded.append(rule) or real(path, count, rule))
    for rule in ("uniform", "vlmevalkit", "keyframes", "keyframes"):
        MediaResolver(MediaSettings(None, tmp_path, frames=4, frame_size=64, frame_sampling=rule), store).video(video)
    assert decoded == ["uniform", "vlmevalkit", "keyframes"]           # the second keyframes request is a hit


def test_the_presets_set_their_papers_frame_rule_and_an_explicit_one_wins() -> None:
    assert RunConfig().frame_sampling == "uniform"
    assert RunConfig(preset="mmworld").frame_sampling == "keyframes"
    assert RunConfig(preset="worldsense").frame_sampling == "vlmevalkit"
    assert RunConfig(preset="worldsense", frame_sampling="uniform").frame_sampling == "uniform"


@requires_av
def test_a_run_sends_the_keyframes_and_records_the_rule(tmp_path: Path) -> None:
    media = tmp_path / "media"
    media.mkdir()
    write_shots(media / "clip.mp4")
    data = tmp_path / "questions.jsonl"
    data.write_text(json.dumps({"id": "q1", "question": "Which city?", "answer": "Paris", "media_id": "clip"}) + "\n")
    out = tmp_path / "run"
    status, chats = run_with_media(data, media, out, "--frames", "4", "--frame-sampling", "keyframes")
    assert status == 0 and len(image_parts(chats[0]["messages"][-1])) == 4
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["config"]["frame_sampling"] == "keyframes"
    assert manifest["media"]["frame_sampling"] == "keyframes"
    assert "scene-change" in manifest["media"]["video_sampling"]


# -- folders of pre-extracted frames ------------------------------------------------------------

def write_frames(folder: Path, levels: list[int]) -> list[Path]:
    """A folder of frames named in playback order, frame i solid grey at levels[i] * GREY_STEP."""
    folder.mkdir(parents=True)
    paths = [folder / f"frame_{index:03d}.png" for index in range(len(levels))]
    for path, level in zip(paths, levels):
        write_png(path, level * GREY_STEP)
    return paths


@pytest.mark.parametrize("rule, positions", [("uniform", uniform_indices), ("vlmevalkit", interior_indices)])
def test_a_folder_of_frames_is_sampled_at_the_positions_a_video_of_as_many_frames_gets(
        tmp_path: Path, rule: str, positions) -> None:
    paths = write_frames(tmp_path / "frames_32" / "clip", list(range(32)))
    assert folder_frames(paths, 8, rule) == [paths[index] for index in positions(32, 8)]
    assert folder_frames(paths, 32, rule) == paths and folder_frames(paths[:5], 8, rule) == paths[:5]
    store = MediaStore(tmp_path / "store")
    resolver = MediaResolver(MediaSettings(tmp_path, tmp_path, frames=8, frame_sampling=rule), store)
    refs = resolver.refs(Question(id="q", question="?", answer="x", media_id="clip"))
    assert [grey_level(store.read(ref)) for ref in refs] == positions(32, 8)
    assert resolver.folders == {"folders": 1, "images": 32, "sent": 8}


def test_keyframes_of_a_folder_of_frames_pick_one_frame_from_every_shot(tmp_path: Path) -> None:
    folder = tmp_path / "shots"
    folder.mkdir()
    paths = []
    for colour, length in SHOTS:
        for _ in range(length):
            paths.append(folder / f"{len(paths):03d}.png")
            Image.new("RGB", (64, 48), COLOURS[colour]).save(paths[-1])
    picked = folder_frames(paths, 4, "keyframes")
    assert [shot_of(Image.open(path)) for path in picked] == ["red", "green", "blue", "yellow"]
    assert [paths.index(path) for path in picked] == keyframe_indices(image_changes(paths), 4)


def test_a_run_sends_frames_of_a_frames_32_folder_and_records_how(tmp_path: Path) -> None:
    media = tmp_path / "media"
    write_frames(media / "frames_32" / "clip", list(range(32)))
    data = tmp_path / "questions.jsonl"
    data.write_text(json.dumps({"id": "q1", "question": "Which city?", "answer": "Paris", "media_id": "clip"}) + "\n")
    levels = {}
    for frames in ("8", "32"):
        out = tmp_path / f"run{frames}"
        status, chats = run_with_media(data, media, out, "--frames", frames)
        parts = image_parts(chats[0]["messages"][-1])
        levels[frames] = [grey_level(data_url_bytes(part["image_url"]["url"])) for part in parts]
        assert status == 0
    assert levels == {"8": uniform_indices(32, 8), "32": list(range(32))}
    media_record = json.loads((tmp_path / "run8" / "manifest.json").read_text())["media"]
    assert media_record["folder_frames"] == {"folders": 1, "images": 32, "sent": 8}
    assert media_record["layouts"] == {"frames_32/<id>/": 1} and "--frame-sampling" in media_record["image_folders"]
