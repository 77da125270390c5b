"""`factprobe datasets describe D [--json] [--media DIR] [--plot DIR]`: the dataset's counts and
statistics (factprobe.eval.datasets.describe); `--media` reads the durations of videos whose record
gives none (PyAV, header only: nothing is decoded), `--plot` draws the durations' histogram."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from factprobe.eval.cli.output import print_json
from factprobe.eval.config.options import OptionError, add_run_options, path_arg
from factprobe.eval.core.schema import Question
from factprobe.eval.datasets.describe import describe_dataset, describe_rows
from factprobe.eval.datasets.media_statistics import DurationUnknown, Probe
from factprobe.eval.datasets.registry import load_dataset
from factprobe.eval.report.tables.literal import LiteralTable

PLOT_NAME = "durations.png"


def add_describe_options(parser: argparse.ArgumentParser) -> None:
    """`--media DIR` (the run option, read here for durations) and `--plot DIR`."""
    add_run_options(parser, ["media"])
    parser.add_argument("--plot", type=path_arg, metavar="DIR",
                        help=f"describe: write the histogram of video durations to DIR/{PLOT_NAME}")


def video_seconds(path: Path) -> float:
    """A video's duration from its header: the video stream's, else the container's."""
    from factprobe.eval.media.frames import INSTALL_HINT

    try:
        import av
    except ImportError:
        raise OptionError(f"--media: reading video durations needs PyAV, which is not installed: "
                          f"{INSTALL_HINT}") from None
    try:
        container = av.open(str(path))
    except (av.FFmpegError, OSError) as exc:
        raise DurationUnknown("unreadable video", f"{path}: {exc}") from None
    with container:
        stream = container.streams.video[0] if container.streams.video else None
        if stream is not None and stream.duration and stream.time_base:
            return float(stream.duration * stream.time_base)
        if container.duration:
            return container.duration / av.time_base
    raise DurationUnknown("no duration in the video's header", str(path))


def video_probe(root: Path, base: Path) -> Probe:
    """Seconds of the video(s) `--media DIR` finds for a question, as a run would find them."""
    from factprobe.eval.media.frames import VIDEO_SUFFIXES
    from factprobe.eval.media.sources import MediaError, MediaResolver, MediaSettings

    resolver = MediaResolver(MediaSettings(root=root, base=base))

    def probe(question: Question) -> float:
        try:
            sources = resolver.sources(question)
        except MediaError as exc:
            raise DurationUnknown("media not found", str(exc)) from None
        videos = [s for s in sources if isinstance(s, Path) and s.suffix.lower() in VIDEO_SUFFIXES]
        if not videos:
            raise DurationUnknown("not a video (images, frames or a URL)",
                                  f"question {question.id}: {', '.join(map(str, sources))[:200]}")
        return sum(video_seconds(path) for path in videos)

    return probe


def plot_durations(durations: dict[str, Any] | None, folder: Path) -> Path | None:
    """The histogram of `statistics.durations` as DIR/durations.png (and .svg); None without any."""
    if not durations or not durations["n"]:
        return None
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from factprobe.eval.report.html.figures import save_figure

    figure = Figure(figsize=(6, 3.5))
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    edges, counts = durations["histogram"]["edges_s"], durations["histogram"]["counts"]
    axes.stairs(counts, edges, fill=True, alpha=0.8)
    axes.axvline(durations["mean_s"], color="black", linestyle="--", label=f"mean {durations['mean_s']} s")
    axes.set_xlabel("duration (s)")
    axes.set_ylabel("videos")
    axes.set_title(f"durations of {durations['n']} distinct media")
    axes.legend()
    figure.tight_layout()
    folder.mkdir(parents=True, exist_ok=True)
    return save_figure(figure, folder / PLOT_NAME, 120)


def cmd_describe(args: argparse.Namespace, console: Console) -> int:
    """`factprobe datasets describe D`: the dataset's description as a table or JSON; with --plot DIR,
    its durations histogram."""
    media = getattr(args, "media", None)
    if media is not None and not media.is_dir():
        raise OptionError(f"--media {media}: no such folder")
    probe = None
    if media is not None:
        from factprobe.eval.media.attach import dataset_folder

        probe = video_probe(media, dataset_folder(args.name))
    description = describe_dataset(load_dataset(args.name), probe)
    plotted = plot_durations(description["statistics"]["durations"], args.plot) if args.plot else None
    if args.json:
        print_json(description)
    else:
        table = LiteralTable(title=f"dataset {args.name}", show_header=False)
        for key, value in describe_rows(description):
            table.add_row(key, value)
        console.print(table)
    if args.plot:   # on stderr beside --json, so stdout stays one JSON document
        message = (f"durations histogram: {plotted}" if plotted else
                   "no durations to plot (no record gives one; --media DIR reads them from the videos)")
        print(message, file=sys.stderr if args.json else sys.stdout)
    return 0
