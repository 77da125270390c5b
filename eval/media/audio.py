"""A video's (or an audio file's) sound track as WAV, decoded and resampled with PyAV (FFmpeg).

The track is mixed down to mono 16-bit PCM at `SAMPLE_RATE` (16 kHz: what speech models are
trained on, and a tenth of the bytes of CD audio) and cut at `max_seconds`; the WAV header is
written by the standard library's `wave`.
"""

from __future__ import annotations

import io
import wave
from pathlib import Path

from factprobe.eval.media.frames import INSTALL_HINT, VideoError

SAMPLE_RATE = 16_000
AUDIO_SUFFIXES = (".wav", ".mp3", ".flac", ".m4a", ".ogg", ".aac")
AUDIO_SAMPLING = f"the whole sound track, mono 16-bit PCM WAV at {SAMPLE_RATE} Hz, cut at --audio-seconds"


def extract_audio(path: Path, max_seconds: float) -> bytes:
    """The first audio stream of `path` as mono 16-bit WAV at SAMPLE_RATE, at most `max_seconds`
    long; VideoError when the file has no audio stream or cannot be decoded."""
    try:
        import av
    except ImportError:
        raise VideoError(f"{path}: reading audio needs PyAV, which is not installed: {INSTALL_HINT}") from None
    limit = int(max_seconds * SAMPLE_RATE) * 2          # bytes of mono 16-bit samples
    pcm = bytearray()
    try:
        with av.open(str(path)) as container:
            if not container.streams.audio:
                raise VideoError(f"{path}: holds no audio track")
            resampler = av.AudioResampler(format="s16", layout="mono", rate=SAMPLE_RATE)
            for frame in container.decode(container.streams.audio[0]):
                for out in resampler.resample(frame):
                    pcm.extend(bytes(out.planes[0])[: out.samples * 2])
                if len(pcm) >= limit:
                    break
            else:
                for out in resampler.resample(None):
                    pcm.extend(bytes(out.planes[0])[: out.samples * 2])
    except (av.FFmpegError, OSError) as exc:
        raise VideoError(f"{path}: its audio cannot be decoded ({exc})") from None
    if not pcm:
        raise VideoError(f"{path}: its audio track holds no samples")
    out_file = io.BytesIO()
    with wave.open(out_file, "wb") as writer:
        writer.setnchannels(1)
        writer.setsampwidth(2)
        writer.setframerate(SAMPLE_RATE)
        writer.writeframes(bytes(pcm[:limit]))
    return out_file.getvalue()
