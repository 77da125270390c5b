"""The report shows what the model saw: each row records the images (and sound track) it sent, and
report.html shows them as thumbnails (and a player), with the gold in the list and the row's
fields, options and durations written out, in a real headless Chromium.

Runs answer on the recording vision fake of tests/eval/media (an OpenAI-compatible server the test
starts on 127.0.0.1). The browser test needs Debian's chromium and Playwright for Python and skips
with the reason when either is missing (CI installs both).
"""

from __future__ import annotations

import hashlib
import io
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import factprobe.eval.cli.main as cli
from factprobe.eval.report.html import media as report_media
from factprobe.eval.report.html.media import MEDIA_FOLDER, THUMBNAIL_SIDE, media_previews
from factprobe.eval.store.media_cache import MediaStore, encode_jpeg
from tests.eval.media.conftest import run_with_media
from tests.eval.media.test_audio import write_video_with_tone
from tests.eval.media.test_frame_sampling import write_frames
from tests.eval.media.test_media import GREY_STEP, data_url_bytes, grey_level, image_parts, requires_av
from tests.eval.report.test_html_report import OfflinePage, browser  # noqa: F401 (the browser fixture)

COLOURS = {"red": (200, 30, 30), "blue": (40, 60, 200)}


class Row:
    """What media_previews reads of a row."""

    def __init__(self, **extras: Any) -> None:
        self.extras = extras

    def extra_field(self, key: str) -> Any:
        return self.extras.get(key)


def thumbnail_of(uri: str) -> Image.Image:
    return Image.open(io.BytesIO(data_url_bytes(uri)))


def test_thumbnails_are_small_made_once_and_bounded(tmp_path, monkeypatch) -> None:
    store = MediaStore(tmp_path / "store")
    big = store.put(encode_jpeg(Image.new("RGB", (1200, 800), COLOURS["red"]), 1200))
    other = store.put(encode_jpeg(Image.new("RGB", (600, 900), COLOURS["blue"]), 900))
    gone = "sha256:" + "0" * 64
    rows = [Row(images_sent=[big, other]), Row(images_sent=[big, gone, "https://example.org/x.png"]), Row()]
    previews = media_previews(rows, tmp_path / "run", store)
    assert set(previews["thumbs"]) == {big, other} and previews["missing"] == 1
    sizes = {ref: thumbnail_of(uri).size for ref, uri in previews["thumbs"].items()}
    assert sizes == {big: (THUMBNAIL_SIDE, 107), other: (107, THUMBNAIL_SIDE)}
    assert thumbnail_of(previews["thumbs"][big]).getpixel((50, 50))[0] > 150        # still red
    assert len(list((tmp_path / "run" / MEDIA_FOLDER).glob("*.jpg"))) == 2
    # the store emptied (the cache cleared): a later report still has the run's own thumbnails
    again = media_previews(rows, tmp_path / "run", MediaStore(tmp_path / "empty"))
    assert again["thumbs"] == previews["thumbs"]
    one = len(data_url_bytes(previews["thumbs"][big]))
    monkeypatch.setattr(report_media, "THUMBNAIL_BUDGET", one + 1)
    bounded = media_previews(rows, tmp_path / "run", store)
    assert list(bounded["thumbs"]) == [big] and bounded["over_budget"] == 1


def test_a_sound_track_is_copied_beside_the_report(tmp_path) -> None:
    store = MediaStore(tmp_path / "store")
    ref = store.put_audio(b"RIFF fake wav")
    previews = media_previews([Row(audio_sent=[ref])], tmp_path / "run", store)
    assert previews["audio"] == {ref: f"{MEDIA_FOLDER}/{ref.removeprefix('audio:')}.wav"}
    assert (tmp_path / "run" / previews["audio"][ref]).read_bytes() == b"RIFF fake wav"


@pytest.fixture(scope="module")
def media_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict]]:
    """A WorldVQA-shaped run: one question with two images, one with a 32-frame folder of which
    --frames 4 are sent; fields, durations and gold to show."""
    root = tmp_path_factory.mktemp("media-run")
    media = root / "media"
    write_frames(media / "frames_32" / "clip", list(range(32)))
    for name, colour in COLOURS.items():
        Image.new("RGB", (320, 200), colour).save(media / f"{name}.png")
    data = root / "questions.jsonl"
    records = [{"id": "pair", "question": "Which city do these images show?", "answer": "Paris",
                "media": ["red.png", "blue.png"], "category": "landmarks",
                "fields": {"difficulty": "hard", "language": "en"}},
               {"id": "clip", "question": "Which city is in this video?", "answer": "Rome", "media_id": "clip",
                "category": "video"}]
    data.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FACTPROBE_CACHE", str(root / "cache"))
        status, chats = run_with_media(data, media, root / "run", "--frames", "4")
    assert status == 0
    return root / "run", chats


def sent_refs(chats: list[dict]) -> list[list[str]]:
    """The media-store references of the images each request carried (the sha256 of each JPEG)."""
    return [["sha256:" + hashlib.sha256(data_url_bytes(part["image_url"]["url"])).hexdigest()
             for part in image_parts(chat["messages"][-1])] for chat in chats]


def test_each_row_records_the_images_it_sent_and_the_report_embeds_them(media_run) -> None:
    run, chats = media_run
    rows = {row["question_id"]: row for row in map(json.loads, (run / "results.jsonl").read_text().splitlines())}
    assert sorted(map(tuple, sent_refs(chats))) == sorted(tuple(row["images_sent"]) for row in rows.values())
    assert len(rows["pair"]["images_sent"]) == 2 and len(rows["clip"]["images_sent"]) == 4
    html = (run / "report.html").read_text()
    block = html.split('id="media-data">', 1)[1].split("</script>", 1)[0]
    thumbs = json.loads(block)["thumbs"]
    # the frames sampled, not the folder: the thumbnails show the grey levels of the four frames sent
    clip_request = next(parts for parts in map(lambda chat: image_parts(chat["messages"][-1]), chats) if len(parts) == 4)
    sent = [grey_level(data_url_bytes(part["image_url"]["url"])) for part in clip_request]
    shown = [grey_level(data_url_bytes(thumbs[ref])) for ref in rows["clip"]["images_sent"]]
    assert shown == sent and len(set(shown)) == 4 and max(shown) * GREY_STEP <= 255


def test_report_html_shows_the_thumbnails_gold_fields_and_durations(browser, media_run) -> None:  # noqa: F811
    run, _ = media_run
    offline = OfflinePage(browser, run / "report.html")
    page = offline.open()
    page.evaluate("document.getElementById('questions').scrollIntoView()")
    rows = page.locator("#browser-rows tr.row")
    assert rows.count() == 2
    headers = page.locator("#browser-head th").all_inner_texts()
    assert headers[:2] == ["question", "gold"]
    strips = {rows.nth(i).locator(".qid").inner_text(): rows.nth(i) for i in range(2)}
    assert strips["pair"].locator("td.gold").inner_text() == "Paris"
    thumbs = strips["pair"].locator("img.thumb")
    assert thumbs.count() == 2
    for index in range(2):
        shown = thumbs.nth(index)
        assert shown.is_visible() and shown.evaluate("i => i.complete && i.naturalWidth") == THUMBNAIL_SIDE
        assert shown.bounding_box()["height"] >= 40
    strips["pair"].click()
    detail = strips["pair"].locator("xpath=following-sibling::tr[1]")
    shown_block = detail.locator(".detail-block", has_text="shown to the model")
    assert shown_block.locator("img.thumb").count() == 2 and "2 images" in shown_block.inner_text()
    text = detail.inner_text()
    assert "difficulty: hard" in text and "language: en" in text and '{"difficulty"' not in text
    wall = detail.locator(".detail-block", has_text="wall_s").inner_text()
    assert wall.strip().endswith(" s") and len(wall.split()[-2].split(".")[-1]) <= 2
    strips["clip"].click()
    clip_detail = strips["clip"].locator("xpath=following-sibling::tr[1]")
    assert "detail" in clip_detail.get_attribute("class") and clip_detail.locator("img.thumb").count() == 4
    page.screenshot(path=str(run / "browser.png"), full_page=True)
    assert (run / "browser.png").stat().st_size > 10_000
    assert offline.errors == [] and offline.foreign == []
    offline.context.close()


@requires_av
def test_a_sound_track_sent_gets_a_player_in_the_report(browser, tmp_path) -> None:  # noqa: F811
    media = tmp_path / "media"
    (media / "videos").mkdir(parents=True)
    write_video_with_tone(media / "videos" / "clip01.mp4")
    data = tmp_path / "questions.jsonl"
    data.write_text(json.dumps({"id": "q1", "question": "Which capital is this?", "answer": "Paris",
                                "media_id": "clip01"}) + "\n", encoding="utf-8")
    with ThreadPoolExecutor(1) as worker:     # the run's event loop must not meet the browser driver's
        status, _ = worker.submit(run_with_media, data, media, tmp_path / "run", "--frames", "2",
                                  "--modality", "frames+audio").result()
    assert status == 0
    offline = OfflinePage(browser, tmp_path / "run" / "report.html")
    page = offline.open()
    page.locator("#browser-rows tr.row").first.click()
    player = page.locator("#browser-rows tr.detail audio")
    assert player.count() == 1 and player.is_visible()
    source = player.get_attribute("src")
    assert source.startswith(f"{MEDIA_FOLDER}/") and (tmp_path / "run" / source).read_bytes()[:4] == b"RIFF"
    assert page.locator("#browser-rows tr.detail img.thumb").count() == 2
    assert offline.errors == []
    offline.context.close()


def test_a_multiple_choice_row_lists_its_options_as_shown(browser, tmp_path) -> None:  # noqa: F811
    """Recorded letters graded against the options (no model, no server)."""
    data = tmp_path / "mc.jsonl"
    data.write_text(json.dumps({"id": "m1", "question": "Which colour is the sky?", "answer": "blue",
                                "choices": ["red", "blue", "green"]}) + "\n", encoding="utf-8")
    answers = tmp_path / "a.tsv"
    answers.write_text("id\tanswer\nm1\tC\n", encoding="utf-8")
    with ThreadPoolExecutor(1) as worker:     # the run's event loop must not meet the browser driver's
        status = worker.submit(cli.main, ["run", "--dataset", f"mcq:{data}", "--answers", str(answers),
                                          "--option-order", "released", "--out", str(tmp_path / "run")]).result()
    assert status == 0
    offline = OfflinePage(browser, tmp_path / "run" / "report.html")
    page = offline.open()
    page.locator("#browser-rows tr.row").first.click()
    options = page.locator("#browser-rows tr.detail .detail-block", has_text="options")
    cells = options.locator("tbody tr").evaluate_all("rows => rows.map(r => Array.from(r.cells, c => c.textContent))")
    assert cells == [["A", "red", ""], ["B", "blue", "gold"], ["C", "green", "chosen"]]
    assert "order released" in options.inner_text() and "chance 33.3%" in options.inner_text()
    assert '"shown_order"' not in page.locator("#browser-rows tr.detail").inner_text()
    assert offline.errors == []
    offline.context.close()
