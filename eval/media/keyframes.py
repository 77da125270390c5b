"""Scene-change keyframes: N frames of a video, one from each of N shots found by colour changes.

Every frame is decoded (shrunk to a thumbnail) and described by its colour histogram (16 bins for each
of R, G and B); the change between consecutive frames is half the L1 distance of their histograms,
averaged over the channels (0: the same colours, 1: none in common). The video is cut where the
largest changes are, at most N-1 cuts, each a change of at least MIN_CHANGE (smaller ones are
compression noise or camera motion) and at least a minimum gap from another cut and from the ends;
with fewer cuts than that, the longest stretches are halved until there are N. The keyframe of each
stretch is its middle frame (clear of the transition itself). A video of N frames or fewer gives all.
A folder of frames is read the same way, each image as one frame (`image_changes`).

MMWorld showed its API models ten keyframes chosen by the Katna library; this is our own selection
in that spirit, not Katna's algorithm. Katna (0.9.2, its files last changed in 2021) installs, but
brings OpenCV, scikit-image and scikit-learn (some 860 MB) and its own process pool, for one step
that PyAV and numpy do here in a page.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

MIN_CHANGE = 0.15     # histogram change that counts as a cut (a colour swap between shots is 0.5 to 1)
THUMBNAIL = 64        # frames are compared as THUMBNAIL x THUMBNAIL RGB pictures
BINS = 16             # histogram bins per colour channel


def histogram(rgb: np.ndarray) -> np.ndarray:
    """The colour histogram of an RGB picture (H x W x 3, uint8): BINS per channel, each channel summing to 1."""
    pixels = rgb.reshape(-1, 3) // (256 // BINS)
    counts = np.stack([np.bincount(pixels[:, channel], minlength=BINS) for channel in range(3)])
    return counts / pixels.shape[0]


def changes_between(histograms: np.ndarray) -> np.ndarray:
    """The change from each frame to the next (len(histograms) - 1 values in 0–1)."""
    if len(histograms) < 2:
        return np.zeros(0)
    return np.abs(np.diff(histograms, axis=0)).sum(axis=2).mean(axis=1) / 2


def keyframe_indices(changes: np.ndarray, count: int) -> list[int]:
    """The frame indices of `count` keyframes of a video whose consecutive frames differ by
    `changes` (see the module doc), in playback order."""
    total = len(changes) + 1
    if total <= count:
        return list(range(total))
    gap = max(1, total // (4 * count))
    cuts: list[int] = []
    for position in np.argsort(-changes, kind="stable"):
        if len(cuts) == count - 1 or changes[position] < MIN_CHANGE:
            break
        start = int(position) + 1          # the first frame of the next shot
        if start < gap or total - start < gap or any(abs(start - cut) < gap for cut in cuts):
            continue
        cuts.append(start)
    bounds = sorted([0, *cuts, total])
    stretches = list(zip(bounds[:-1], bounds[1:]))
    while len(stretches) < count:
        longest = max(stretches, key=lambda stretch: stretch[1] - stretch[0])
        middle = (longest[0] + longest[1]) // 2
        stretches[stretches.index(longest)] = (longest[0], middle)
        stretches.append((middle, longest[1]))
    return sorted((start + end - 1) // 2 for start, end in stretches)


def image_changes(paths: list[Path]) -> np.ndarray:
    """The change between each pair of consecutive images (a folder of frames), each read as a video's
    frame is: an RGB thumbnail of THUMBNAIL x THUMBNAIL."""
    from PIL import Image

    histograms = []
    for path in paths:
        with Image.open(path) as image:
            histograms.append(histogram(np.asarray(image.convert("RGB").resize((THUMBNAIL, THUMBNAIL)))))
    return changes_between(np.array(histograms))


def scene_changes(container) -> tuple[np.ndarray, int]:  # container: av.container.InputContainer
    """The change between each pair of consecutive frames of the container's first video stream,
    and how many frames it decoded."""
    stream = container.streams.video[0]
    stream.thread_type = "AUTO"
    histograms = [histogram(frame.to_ndarray(format="rgb24", width=THUMBNAIL, height=THUMBNAIL))
                  for frame in container.decode(stream)]
    return changes_between(np.array(histograms)), len(histograms)
