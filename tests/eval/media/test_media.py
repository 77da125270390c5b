"""Media on the wire and the modality ablation, without a vision model.

Videos are written by the tests themselves with PyAV (solid grey frames whose level encodes the
frame's index, so a sampled frame tells which one it was). What the backends send is checked on
local HTTP servers the tests start on 127.0.0.1: a small OpenAI-compatible fake (it answers
correctly only when it receives images, and bills 85 prompt tokens per image) and the recorded
Anthropic replay of tests/fakes.py. Nothing leaves the machine. The last test runs the
embedded SmolLM2 in the text-only setting (marked `model`).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import io
import json
from pathlib import Path
from typing import Any, Iterator

import pytest

import factprobe.eval.cli.main as cli
from factprobe.agents.models.base import GenerationParams
from factprobe.agents.models.cache import request_key
from factprobe.agents.models.wire import OPENAI_DETAIL
from factprobe.agents.registry import UnknownStrategyError, get_strategy
from factprobe.eval.core.modality import expand_variants
from factprobe.eval.media.attach import Attachment
from factprobe.eval.media.frames import uniform_indices
from factprobe.eval.store.media_cache import MediaStore
from tests.conftest import requires_local_model
from tests.fakes import ChatServer, RecordedServer

PIL = pytest.importorskip("PIL", reason="attached images are encoded with Pillow: pip install -e '.[media]'")
from PIL import Image  # noqa: E402

try:
    import av
except ImportError:  # the `media` extra (and `dev`) install it
    av = None
requires_av = pytest.mark.skipif(av is None, reason="video sampling needs PyAV (`av`), which is not "
                                 "installed: pip install -e '.[media]'")

GREY_STEP = 8           # frame i of a test video is solid grey at level i * GREY_STEP
TOKENS_PER_IMAGE = 85   # what the fake server bills per image part
FAKE_MODEL = "fake-vision"


def write_grey_video(path: Path, frames: int = 30, size: tuple[int, int] = (64, 48)) -> None:
    """A short H.264 video whose frame i is solid grey at level i * GREY_STEP."""
    import numpy as np

    with av.open(str(path), "w") as container:
        stream = container.add_stream("libx264", rate=30)
        stream.width, stream.height, stream.pix_fmt = size[0], size[1], "yuv420p"
        for index in range(frames):
            pixels = np.full((size[1], size[0], 3), index * GREY_STEP, dtype=np.uint8)
            for packet in stream.encode(av.VideoFrame.from_ndarray(pixels, format="rgb24")):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)


def grey_level(jpeg: bytes) -> int:
    """The frame index a decoded grey JPEG shows."""
    from PIL import ImageStat

    with Image.open(io.BytesIO(jpeg)) as image:
        return round(ImageStat.Stat(image.convert("L")).mean[0] / GREY_STEP)


def write_png(path: Path, level: int, size: tuple[int, int] = (40, 30)) -> None:
    Image.new("RGB", size, (level, level, level)).save(path)


def vision_reply(body: dict) -> tuple[str, dict]:
    """"Paris" (confidence 80) when a message carries image parts, "I don't know" otherwise; usage
    bills 10 prompt tokens plus TOKENS_PER_IMAGE per image part."""
    images = sum(part.get("type") == "image_url" for message in body.get("messages", [])
                 if isinstance(message.get("content"), list) for part in message["content"])
    text = "Answer: Paris\nConfidence: 80%" if images else "Answer: I don't know\nConfidence: 0%"
    return text, {"prompt_tokens": 10 + TOKENS_PER_IMAGE * images, "completion_tokens": 6}


class FakeVisionServer(ChatServer):
    """The shared chat server answering as `vision_reply` does."""

    def __init__(self) -> None:
        super().__init__(vision_reply, FAKE_MODEL)


@pytest.fixture
def fake_server() -> Iterator[FakeVisionServer]:
    with FakeVisionServer() as server:
        yield server


def image_parts(message: dict) -> list[dict]:
    content = message["content"]
    return [part for part in content if part["type"] == "image_url"] if isinstance(content, list) else []


def data_url_bytes(url: str) -> bytes:
    prefix = "data:image/jpeg;base64,"
    assert url.startswith(prefix)
    return base64.b64decode(url[len(prefix):])


def stored_refs(store: MediaStore, levels: list[int]) -> list[str]:
    """Refs of small grey JPEGs put in the store, in order."""
    refs = []
    for level in levels:
        out = io.BytesIO()
        Image.new("RGB", (16, 16), (level * GREY_STEP,) * 3).save(out, format="JPEG")
        refs.append(store.put(out.getvalue()))
    return refs


# -- sampling -----------------------------------------------------------------------------------

def test_uniform_indices_are_segment_centres_and_never_more_than_the_frames() -> None:
    assert uniform_indices(30, 5) == [3, 9, 15, 21, 27]
    assert uniform_indices(30, 1) == [15]
    assert uniform_indices(3, 8) == [0, 1, 2]


@requires_av
@pytest.mark.parametrize("suffix", [".mp4", ".mkv"])  # mkv records no frame count: packets are counted
def test_sampler_returns_evenly_spaced_frames_in_playback_order(tmp_path: Path, suffix: str) -> None:
    from factprobe.eval.media.frames import count_frames, sample_frames
    from factprobe.eval.store.media_cache import encode_jpeg

    video = tmp_path / f"clip{suffix}"
    write_grey_video(video)
    assert count_frames(video) == 30
    frames = sample_frames(video, 5)
    assert [grey_level(encode_jpeg(frame, 64)) for frame in frames] == [3, 9, 15, 21, 27]


@requires_av
def test_video_frames_are_resized_encoded_once_and_cached_by_content_frames_and_size(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import factprobe.eval.media.sources as sources
    from factprobe.eval.media.sources import MediaResolver, MediaSettings

    video = tmp_path / "clip.mp4"
    write_grey_video(video, size=(640, 360))
    store = MediaStore(tmp_path / "store")
    resolver = MediaResolver(MediaSettings(None, tmp_path, frames=4, frame_size=128), store)
    refs = resolver.video(video)
    assert len(refs) == 4 and all(ref.startswith("sha256:") for ref in refs)
    jpeg = store.read(refs[0])
    assert hashlib.sha256(jpeg).hexdigest() == refs[0].removeprefix("sha256:")
    with Image.open(io.BytesIO(jpeg)) as image:
        assert image.format == "JPEG" and image.size == (128, 72)

    def no_decoding(*args: Any) -> None:
        raise AssertionError("a cached video was decoded again")

    monkeypatch.setattr(sources, "sample_frames", no_decoding)
    assert MediaResolver(MediaSettings(None, tmp_path, frames=4, frame_size=128), store).video(video) == refs
    with pytest.raises(AssertionError, match="decoded again"):  # another N is another cache entry
        MediaResolver(MediaSettings(None, tmp_path, frames=6, frame_size=128), store).video(video)


def test_a_media_folder_is_sent_in_name_order(tmp_path: Path) -> None:
    from factprobe.eval.core.schema import Question
    from factprobe.eval.media.sources import MediaResolver, MediaSettings

    folder = tmp_path / "media" / "item7"
    folder.mkdir(parents=True)
    for name, level in (("frame_02.png", 2), ("frame_01.png", 1), ("frame_10.jpg", 10), ("notes.txt", 0)):
        if name.endswith(".txt"):
            (folder / name).write_text("not an image")
        else:
            write_png(folder / name, level * GREY_STEP)
    store = MediaStore(tmp_path / "store")
    resolver = MediaResolver(MediaSettings(tmp_path / "media", tmp_path, frame_size=512), store)
    question = Question(id="q", question="?", answer="x", media_id="item7")
    refs = resolver.refs(question)
    assert [grey_level(store.read(ref)) for ref in refs] == [1, 2, 10]


# -- the wire -----------------------------------------------------------------------------------

def test_openai_backend_sends_images_as_low_detail_data_url_parts_before_the_text(
        fake_server: FakeVisionServer) -> None:
    from factprobe.agents.models.openai_backend import OpenAIModel

    store = MediaStore()
    refs = stored_refs(store, [3, 1, 7])
    messages = [{"role": "system", "content": "Answer briefly."},
                {"role": "user", "content": "Question: What city is this?", "images": refs}]
    model = OpenAIModel(FAKE_MODEL, base_url=fake_server.url)
    completion = asyncio.run(model.generate(messages, GenerationParams(max_tokens=16)))
    assert completion.text.startswith("Answer: Paris")
    assert completion.prompt_tokens == 10 + 3 * TOKENS_PER_IMAGE  # the server's usage, images included
    [body] = [request for request in fake_server.requests if "messages" in request]
    system, user = body["messages"]
    assert system == {"role": "system", "content": "Answer briefly."}  # text-only messages stay strings
    parts = user["content"]
    assert [part["type"] for part in parts] == ["image_url"] * 3 + ["text"]
    assert parts[-1]["text"] == "Question: What city is this?"
    assert {part["image_url"]["detail"] for part in parts[:3]} == {OPENAI_DETAIL} == {"low"}
    assert [grey_level(data_url_bytes(part["image_url"]["url"])) for part in parts[:3]] == [3, 1, 7]
    assert [data_url_bytes(p["image_url"]["url"]) for p in parts[:3]] == [store.read(r) for r in refs]


def test_anthropic_backend_sends_base64_image_blocks_before_the_text(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("anthropic", reason="the anthropic backend needs the `anthropic` package")
    from factprobe.agents.models.anthropic_backend import AnthropicModel

    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-not-a-real-key")
    recorded = Path(__file__).parents[2] / "fixtures" / "anthropic" / "messages_response.json"
    store = MediaStore()
    refs = stored_refs(store, [5, 2])
    messages = [{"role": "system", "content": "Answer with the name only."},
                {"role": "user", "content": "Question: Which city is shown?",
                 "images": [*refs, "https://example.org/map.png"]}]
    with RecordedServer([(200, {}, recorded.read_bytes())]) as server:
        completion = asyncio.run(AnthropicModel("claude-haiku-4-5", base_url=server.url)
                                 .generate(messages, GenerationParams(max_tokens=16)))
    assert completion.text == "Canberra"
    [request] = server.requests
    assert request["body"]["system"] == "Answer with the name only."
    [turn] = request["body"]["messages"]
    blocks = turn["content"]
    assert [block["type"] for block in blocks] == ["image", "image", "image", "text"]
    assert [block["source"]["type"] for block in blocks[:3]] == ["base64", "base64", "url"]
    assert {block["source"]["media_type"] for block in blocks[:2]} == {"image/jpeg"}
    assert [grey_level(base64.b64decode(block["source"]["data"])) for block in blocks[:2]] == [5, 2]
    assert blocks[2]["source"]["url"] == "https://example.org/map.png"
    assert blocks[3] == {"type": "text", "text": "Question: Which city is shown?"}


def test_the_cache_key_holds_each_image_hash_not_its_bytes() -> None:
    store = MediaStore()
    first, second = stored_refs(store, [1, 2])
    params = GenerationParams()

    def key(refs: list[str]) -> str:
        return request_key("openai:m", [{"role": "user", "content": "Q", "images": refs}], params)

    assert key([first]) == key([first])
    assert len({key([first]), key([second]), key([first, second]), key([second, first]), key([])}) == 5
    message = Attachment("frames", (first, second)).apply([{"role": "user", "content": "Q"}])[0]
    assert len(json.dumps(message)) < 400  # references, not base64 JPEGs, ride in the message


def test_settings_prefix_the_last_user_turn_and_name_variants() -> None:
    messages = [{"role": "system", "content": "S"}, {"role": "user", "content": "Question: Q"}]
    caption = Attachment("caption", caption="A red tram crosses a bridge.").apply(messages)
    assert caption[-1]["content"].startswith("Description of the video or image the question is about: "
                                             "A red tram crosses a bridge.")
    assert "images" not in caption[-1] and caption[0] == messages[0]
    framed = Attachment("frames", ("sha256:" + "0" * 64,)).apply(messages)
    assert framed[-1]["images"] == ["sha256:" + "0" * 64] and "The attached image shows" in framed[-1]["content"]
    assert Attachment("text").apply(messages) is messages
    assert expand_variants(["vanilla", "rag", "best_of_n@text"], ["text", "frames"]) == [
        "vanilla@text", "vanilla@frames", "rag@text", "rag@frames", "best_of_n@text"]
    assert get_strategy("vanilla@frames").name == "vanilla"
    assert get_strategy("vanilla+rag@caption").retrieves
    with pytest.raises(UnknownStrategyError, match="not an input setting"):
        get_strategy("vanilla@subtitles")    # subtitles come only with frames


# -- runs ---------------------------------------------------------------------------------------

def media_dataset(tmp_path: Path) -> tuple[Path, Path]:
    """Two questions: one about a video (30 grey frames), one about a folder of three images."""
    media = tmp_path / "media"
    (media / "stills").mkdir(parents=True)
    write_grey_video(media / "clip.mp4")
    for index, level in enumerate((20, 21, 22)):
        write_png(media / "stills" / f"{index:02d}.png", level * GREY_STEP)
    rows = [{"id": "q-video", "question": "Which city is the video about?", "answer": "Paris",
             "media_id": "clip", "caption": "A grey screen fades slowly to white."},
            {"id": "q-stills", "question": "Which city do these images show?", "answer": "Paris",
             "media_id": "stills", "caption": "Three grey squares."}]
    data = tmp_path / "questions.jsonl"
    data.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return data, media


@requires_av
def test_a_run_with_media_sends_every_frame_and_reports_modality_gains(
        tmp_path: Path, fake_server: FakeVisionServer) -> None:
    data, media = media_dataset(tmp_path)
    out = tmp_path / "run"
    status = cli.main(["run", "--dataset", f"jsonl:{data}", "--media", str(media), "--frames", "4",
                       "--modality", "text,frames,caption", "--strategies", "vanilla",
                       "--model", f"openai:{FAKE_MODEL}@{fake_server.url}", "--out", str(out)])
    assert status == 0
    chats = [request for request in fake_server.requests if "messages" in request]
    assert len(chats) == 6  # 2 questions x 3 settings, one call each
    with_images = [image_parts(chat["messages"][-1]) for chat in chats if image_parts(chat["messages"][-1])]
    levels = sorted([grey_level(data_url_bytes(part["image_url"]["url"])) for part in parts]
                    for parts in with_images)
    assert levels == [[3, 11, 18, 26], [20, 21, 22]]  # 4 frames of 30 in order; the folder's 3 images
    captions = [chat for chat in chats if "Three grey squares." in json.dumps(chat)]
    assert len(captions) == 1 and not image_parts(captions[0]["messages"][-1])

    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    by_key = {(row["question_id"], row["strategy"]): row for row in rows}
    assert {row["strategy"] for row in rows} == {"vanilla@text", "vanilla@frames", "vanilla@caption"}
    assert by_key[("q-video", "vanilla@frames")]["images"] == 4
    assert by_key[("q-video", "vanilla@frames")]["prompt_tokens"] == 10 + 4 * TOKENS_PER_IMAGE
    assert by_key[("q-stills", "vanilla@text")]["images"] == 0
    assert by_key[("q-stills", "vanilla@text")]["modality"] == "text"

    summary = json.loads((out / "summary.json").read_text())
    assert summary["baseline"] == "vanilla@text"
    gains = summary["modality_gains"]
    assert set(gains) == {"vanilla@frames", "vanilla@caption"}
    assert gains["vanilla@frames"]["reference"] == "vanilla@text"
    assert gains["vanilla@frames"]["accuracy"] == 1.0 and gains["vanilla@frames"]["baseline_accuracy"] == 0.0
    assert gains["vanilla@frames"]["n_pairs"] == 2 and gains["vanilla@caption"]["accuracy_delta"] == 0.0
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "Input settings vs the reference setting" in html and "vanilla@caption" in html

    calls = len(chats)  # resuming a finished run asks nothing again and keeps the variants
    assert cli.main(["run", "--resume", "--out", str(out), "--modality", "text,frames,caption"]) == 0
    assert len([r for r in fake_server.requests if "messages" in r]) == calls


def test_the_frames_setting_without_media_exits_2_before_any_question(
        tmp_path: Path, fake_server: FakeVisionServer, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "plain.jsonl"
    data.write_text(json.dumps({"id": "q1", "question": "Capital of France?", "answer": "Paris"}) + "\n")
    status = cli.main(["run", "--dataset", f"jsonl:{data}", "--modality", "frames", "--strategies", "vanilla",
                       "--model", f"openai:{FAKE_MODEL}@{fake_server.url}", "--out", str(tmp_path / "run")])
    assert status == 2
    assert "frames setting needs media" in capsys.readouterr().err
    assert not [request for request in fake_server.requests if "messages" in request]


@pytest.mark.needs_llama
@requires_local_model
def test_the_local_text_model_refuses_media_before_any_question(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    media = tmp_path / "media" / "stills"
    media.mkdir(parents=True)
    write_png(media / "00.png", 100)
    data = tmp_path / "questions.jsonl"
    data.write_text(json.dumps({"id": "q1", "question": "What is shown?", "answer": "grey",
                                "media_id": "stills"}) + "\n")
    out = tmp_path / "run"
    status = cli.main(["run", "--dataset", f"jsonl:{data}", "--media", str(tmp_path / "media"),
                       "--strategies", "vanilla", "--model", "local", "--out", str(out)])
    assert status == 2
    error = capsys.readouterr().err
    assert "reads text only" in error and "--media" in error and "--modality text" in error
    assert not (out / "results.jsonl").exists()


@requires_local_model
@pytest.mark.needs_llama
def test_the_local_model_runs_the_text_only_setting_end_to_end(tmp_path: Path) -> None:
    media = tmp_path / "media" / "stills"
    media.mkdir(parents=True)
    write_png(media / "00.png", 100)
    data = tmp_path / "questions.jsonl"
    rows = [{"id": "q1", "question": "What is the capital of France?", "answer": "Paris", "media_id": "stills"},
            {"id": "q2", "question": "Which planet is the largest?", "answer": "Jupiter", "media_id": "stills"}]
    data.write_text("".join(json.dumps(row) + "\n" for row in rows))
    out = tmp_path / "run"
    status = cli.main(["run", "--dataset", f"jsonl:{data}", "--media", str(tmp_path / "media"),
                       "--modality", "text", "--strategies", "vanilla", "--model", "local",
                       "--max-tokens", "24", "--out", str(out)])
    assert status == 0
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert sorted(row["question_id"] for row in rows) == ["q1", "q2"]
    assert {row["strategy"] for row in rows} == {"vanilla@text"}
    assert all(row["grade"] != "ERROR" and row["images"] == 0 and row["prompt_tokens"] > 0 for row in rows)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["strategies"]["vanilla@text"]["n"] == 2
