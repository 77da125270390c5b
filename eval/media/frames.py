"""Frame sampling from a video file with PyAV (FFmpeg's decoders), by one of three rules
(`--frame-sampling`):

- uniform: frame i of N is the frame at the centre of the i-th of N equal segments of the video, so
  the N frames cover it evenly and skip the very first and last frames (often black);
- vlmevalkit: the N frames at i·n/(N+1), i = 1…N, of a video of n frames (the positions VLMEvalKit,
  WorldSense's evaluation code, computes: N+1 equal gaps, the ends left out);
- keyframes: scene-change keyframes, one frame from each of N shots (factprobe.eval.media.keyframes;
  every frame is decoded to find them).
A video with fewer than N frames gives all of them, whatever the rule. A folder of pre-extracted
frames (Video SimpleQA's `frames_32/<id>/`: its images in name order) is sampled by the same rule at
the same positions, as if it were a video of those frames (`folder_frames`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL.Image import Image

VIDEO_SUFFIXES = (".mp4", ".webm", ".mkv", ".mov", ".avi", ".m4v")
FRAME_RULES = {
    "uniform": "uniform: the centre frame of each of --frames equal segments (all frames of a shorter video)",
    "vlmevalkit": "vlmevalkit: frames i*n/(N+1), i = 1..N, of a video of n frames, as VLMEvalKit computes them "
                  "(all frames of a shorter video)",
    "keyframes": "keyframes: scene-change keyframes, the middle frame of each of --frames shots cut at the "
                 "largest colour-histogram changes between consecutive frames (our own selection, not Katna's)",
}
VIDEO_SAMPLING = FRAME_RULES["uniform"]
INSTALL_HINT = 'pip install -e ".[media]"   (installs av, PyAV)'


class VideoError(ValueError):
    """A video that cannot be read or holds no video stream."""


def uniform_indices(total: int, count: int) -> list[int]:
    """`count` frame indices out of `total`: the centres of `count` equal segments (all when fewer)."""
    if total <= count:
        return list(range(total))
    return [int((i + 0.5) * total / count) for i in range(count)]


def interior_indices(total: int, count: int) -> list[int]:
    """`count` frame indices out of `total` at i·total/(count+1), i = 1…count (all when fewer)."""
    if total <= count:
        return list(range(total))
    step = total / (count + 1)          # computed as VLMEvalKit does, so the rounding is the same
    return [int(i * step) for i in range(1, count + 1)]


POSITIONS = {"uniform": uniform_indices, "vlmevalkit": interior_indices}
FOLDER_SAMPLING = ("a folder of frames (its images sorted by name) as a video of those frames: --frames of them "
                   "at the --frame-sampling positions, all when it holds no more")


def folder_frames(files: list[Path], count: int, rule: str = "uniform") -> list[Path]:
    """The `count` images of a folder of frames (`files`, in playback order) that `rule` picks from a
    video of as many frames: the same positions; all of them when there are no more."""
    if len(files) <= count:
        return files
    if rule == "keyframes":
        from factprobe.eval.media.keyframes import image_changes, keyframe_indices

        return [files[index] for index in keyframe_indices(image_changes(files), count)]
    return [files[index] for index in POSITIONS[rule](len(files), count)]


def _open(path: Path):  # -> av.container.InputContainer
    try:
        import av
    except ImportError:
        raise VideoError(f"{path}: reading videos needs PyAV, which is not installed: {INSTALL_HINT}") from None
    try:
        container = av.open(str(path))
    except (av.FFmpegError, OSError) as exc:
        raise VideoError(f"{path}: not a readable video ({exc})") from None
    if not container.streams.video:
        container.close()
        raise VideoError(f"{path}: holds no video stream")
    return container


def count_frames(path: Path) -> int:
    """Frames of the first video stream: the container's count, else its packets counted (no decoding)."""
    with _open(path) as container:
        stream = container.streams.video[0]
        if stream.frames:
            return int(stream.frames)
        return sum(1 for packet in container.demux(stream) if packet.size)


def _decode_picks(path: Path, indices: list[int]) -> tuple[list[Image], int]:
    """The frames at `indices` (sorted) as RGB images, and how many frames were decoded."""
    wanted, picked, decoded = set(indices), [], 0
    last = max(indices, default=-1)
    with _open(path) as container:
        stream = container.streams.video[0]
        stream.thread_type = "AUTO"
        for position, frame in enumerate(container.decode(stream)):
            decoded = position + 1
            if position in wanted:
                picked.append(frame.to_image())
            if position >= last:
                break
    return picked, decoded


def keyframe_positions(path: Path, count: int) -> tuple[list[int], int]:
    """The scene-change keyframes of the video (factprobe.eval.media.keyframes) and its decoded frame count."""
    from factprobe.eval.media.keyframes import keyframe_indices, scene_changes

    with _open(path) as container:
        changes, decoded = scene_changes(container)
    if not decoded:
        raise VideoError(f"{path}: no frame could be decoded")
    return keyframe_indices(changes, count), decoded


def frame_times(path: Path, count: int, rule: str = "uniform") -> list[float]:
    """The playback times in seconds (from the first frame) of the frames `sample_frames` picks,
    read from the packets' presentation stamps."""
    with _open(path) as container:
        stream = container.streams.video[0]
        stamps = sorted(packet.pts for packet in container.demux(stream) if packet.size and packet.pts is not None)
        base = stream.time_base
    if not stamps or base is None:
        raise VideoError(f"{path}: its frames carry no timestamps")
    if rule == "keyframes":
        indices = [index for index in keyframe_positions(path, count)[0] if index < len(stamps)]
    else:
        total = count_frames(path)
        indices = POSITIONS[rule](total if total <= len(stamps) else len(stamps), count)
    return [float((stamps[index] - stamps[0]) * base) for index in indices]


def sample_frames(path: Path, count: int, rule: str = "uniform") -> list[Image]:
    """`count` frames picked by `rule` (see the module doc), in playback order, as RGB images.

    The frame count comes from the container or its packets; when decoding yields fewer frames than
    that count, the indices are recomputed over the frames actually decoded."""
    if rule == "keyframes":
        indices, total = keyframe_positions(path, count)
        frames, _ = _decode_picks(path, indices)
    else:
        positions = POSITIONS[rule]
        total = count_frames(path)
        frames, decoded = _decode_picks(path, positions(total, count))
        if len(frames) < min(count, total) and decoded < total:
            frames, decoded = _decode_picks(path, positions(decoded, count))
    if not frames:
        raise VideoError(f"{path}: no frame could be decoded")
    return frames
