"""Uniform frame sampling from a video file with PyAV (FFmpeg's decoders).

Frame i of N is the frame at the centre of the i-th of N equal segments of the video, so the N
frames cover it evenly and skip the very first and last frames (often black). A video with fewer
than N frames gives all of them.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL.Image import Image

VIDEO_SUFFIXES = (".mp4", ".webm", ".mkv", ".mov", ".avi", ".m4v")
VIDEO_SAMPLING = "uniform: the centre frame of each of --frames equal segments (all frames of a shorter video)"
INSTALL_HINT = 'pip install -e ".[media]"   (installs av, PyAV)'


class VideoError(ValueError):
    """A video that cannot be read or holds no video stream."""


def uniform_indices(total: int, count: int) -> list[int]:
    """`count` frame indices out of `total`: the centres of `count` equal segments (all when fewer)."""
    if total <= count:
        return list(range(total))
    return [int((i + 0.5) * total / count) for i in range(count)]


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


def frame_times(path: Path, count: int) -> list[float]:
    """The playback times in seconds (from the first frame) of the frames `sample_frames` picks,
    read from the packets' presentation stamps without decoding."""
    with _open(path) as container:
        stream = container.streams.video[0]
        stamps = sorted(packet.pts for packet in container.demux(stream) if packet.size and packet.pts is not None)
        base = stream.time_base
    if not stamps or base is None:
        raise VideoError(f"{path}: its frames carry no timestamps")
    total = count_frames(path)
    indices = uniform_indices(total if total <= len(stamps) else len(stamps), count)
    return [float((stamps[index] - stamps[0]) * base) for index in indices]


def sample_frames(path: Path, count: int) -> list[Image]:
    """`count` frames sampled uniformly (see the module doc), in playback order, as RGB images.

    The frame count comes from the container or its packets; when decoding yields fewer frames than
    that count, the indices are recomputed over the frames actually decoded."""
    total = count_frames(path)
    frames, decoded = _decode_picks(path, uniform_indices(total, count))
    if len(frames) < min(count, total) and decoded < total:
        frames, decoded = _decode_picks(path, uniform_indices(decoded, count))
    if not frames:
        raise VideoError(f"{path}: no frame could be decoded")
    return frames
