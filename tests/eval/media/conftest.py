"""Helpers shared by the media tests: a `factprobe run` against the recording vision fake of
tests/eval/media/test_media.py, which the helper starts on 127.0.0.1 and stops after the run."""

from __future__ import annotations

from pathlib import Path

import factprobe.eval.cli.main as cli
from tests.eval.media.test_media import FAKE_MODEL, FakeVisionServer


def run_with_media(data: Path, media: Path, out: Path, *options: str) -> tuple[int, list[dict]]:
    """Run `vanilla` on the JSONL questions `data` with the media folder `media` and `options`;
    return the exit status and the chat requests the fake server received."""
    with FakeVisionServer() as server:
        status = cli.main(["run", "--dataset", f"jsonl:{data}", "--media", str(media), *options,
                           "--strategies", "vanilla", "--model", f"openai:{FAKE_MODEL}@{server.url}",
                           "--out", str(out)])
        return status, server.chats()
