"""WorldVQA, MM-SAP, MMWorld and WorldSense files in their released shapes, with every field the
papers group by kept as a Question field and counted by `factprobe datasets describe`.

Every file is written by the test with invented content: the WorldVQA TSV with base64 images of
three formats made with Pillow (one row holding a list of images, one Chinese row, a question with
double quotes), MM-SAP with the refusal option at several positions, MMWorld with a three-option
question and all four flags, WorldSense with multi-label audio classes.
"""

from __future__ import annotations

import base64
import csv
import io
import json
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
from factprobe.eval.core.errors import DatasetError
from factprobe.eval.datasets.describe import describe_dataset
from factprobe.eval.datasets.registry import load_dataset
from factprobe.eval.store.media_cache import MediaStore

PIL = pytest.importorskip("PIL", reason="WorldVQA's embedded images are identified with Pillow")
from PIL import Image  # noqa: E402

REFUSAL = "Sorry, I can't help with it"


def image_base64(image_format: str, colour: tuple[int, int, int]) -> str:
    out = io.BytesIO()
    Image.new("RGB", (12, 9), colour).save(out, format=image_format)
    return base64.b64encode(out.getvalue()).decode("ascii")


def write_worldvqa(tmp_path: Path, rows: list[dict]) -> Path:
    path = tmp_path / "WorldVQA.tsv"
    columns = ["index", "image", "question", "answer", "category", "difficulty", "language"]
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, columns, delimiter="\t", lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return path


WORLDVQA_ROWS = [
    {"index": 10, "image": image_base64("PNG", (200, 10, 10)), "question": "Which lichen grows on this rock?",
     "answer": "Map lichen", "category": "Nature & Environment", "difficulty": "hard", "language": "non-zh"},
    {"index": 11, "image": image_base64("JPEG", (10, 200, 10)), "question": "这座桥叫什么名字？",
     "answer": "样例桥", "category": "Locations & Architecture", "difficulty": "easy", "language": "zh"},
    {"index": 12, "image": str([image_base64("GIF", (10, 10, 200)), image_base64("PNG", (90, 90, 90))]),
     "question": 'Which console shows the "Play" logo here?', "answer": "Invented Station",
     "category": "Entertainment, Media & Gaming", "difficulty": "easy", "language": "non-zh"},
]


def test_worldvqa_tsv_keeps_images_in_the_store_and_its_groupings(tmp_path, capsys) -> None:
    path = write_worldvqa(tmp_path, WORLDVQA_ROWS)
    dataset = load_dataset(f"worldvqa:{path}")
    first, chinese, several = dataset.questions
    assert [q.id for q in dataset.questions] == ["worldvqa-10", "worldvqa-11", "worldvqa-12"]
    assert chinese.question == "这座桥叫什么名字？" and several.question == 'Which console shows the "Play" logo here?'
    assert first.fields == {"category": "Nature & Environment", "difficulty": "hard", "language": "non-zh"}
    assert first.category == "Nature & Environment"
    store = MediaStore()
    suffixes = [Path(ref).suffix for q in dataset.questions for ref in q.media]
    assert suffixes == [".png", ".jpg", ".gif", ".png"]
    kept = store.original_path(first.media[0]).read_bytes()
    assert kept == base64.b64decode(WORLDVQA_ROWS[0]["image"])           # the released bytes, unchanged
    with Image.open(store.original_path(several.media[0])) as image:
        assert image.format == "GIF"

    described = describe_dataset(dataset)["fields"]
    assert described["difficulty"] == {"easy": 2, "hard": 1}
    assert described["language"] == {"non-zh": 2, "zh": 1}
    assert cli.main(["datasets", "describe", f"worldvqa:{path}"]) == 0
    assert "field difficulty" in capsys.readouterr().out


@pytest.mark.parametrize("change, message", [
    ({"image": "not base64 at all!"}, "line 3: field `image`: not valid base64"),
    ({"image": base64.b64encode(b"plain words, no picture").decode()}, "line 3: field `image`: decodes to"),
    ({"answer": "  "}, "line 3: field `answer`: empty"),
])
def test_worldvqa_bad_rows_name_line_and_field(tmp_path, change, message) -> None:
    path = write_worldvqa(tmp_path, [WORLDVQA_ROWS[0], {**WORLDVQA_ROWS[1], **change}])
    with pytest.raises(DatasetError, match=message):
        load_dataset(f"worldvqa:{path}")


def test_worldvqa_without_an_image_column_names_it(tmp_path) -> None:
    path = tmp_path / "other.tsv"
    path.write_text("index\tquestion\tanswer\n0\tQ?\tA\n", encoding="utf-8")
    with pytest.raises(DatasetError, match="line 1: field `image`: no such column"):
        load_dataset(f"worldvqa:{path}")


MMSAP = [
    {"id": "b-1", "subset": "BasicVisQA", "type": "Counting", "image": "b1.png",
     "question": "How many kites are in the sky?",
     "options": {"A": "Two", "B": "Five", "C": REFUSAL, "D": "Seven", "E": "Nine"}, "answer": "B"},
    {"id": "k-1", "subset": "KnowVisQA", "type": "Food", "image": "k1.png",
     "question": "Which invented pastry is on the plate?",
     "options": {"A": REFUSAL.replace("'", "\u2019"), "B": "Flarn roll", "C": "Tesk cake", "D": "Vib tart",
                 "E": "Mop bun"}, "answer": "Tesk cake"},
    {"id": "y-1", "subset": "BeyondVisQA", "type": "Temporal Unpredictability", "image": "y1.png",
     "question": "What will the cyclist eat tomorrow?",
     "options": ["Soup", "Rice", "Bread", "Salad", REFUSAL], "answer": "E"},
]


def test_mmsap_subsets_refusal_option_and_unanswerable_beyond(tmp_path) -> None:
    path = tmp_path / "mmsap.json"
    path.write_text(json.dumps(MMSAP), encoding="utf-8")
    basic, know, beyond = load_dataset(f"mmsap:{path}").questions
    assert basic.choices == ["Two", "Five", "Seven", "Nine"] and basic.answer == "Five" and basic.answerable
    assert know.answer == "Tesk cake" and REFUSAL not in "".join(know.choices)
    assert beyond.answerable is False and beyond.answer is None and beyond.choices == ["Soup", "Rice", "Bread", "Salad"]
    assert [q.fields["refusal_option"] for q in (basic, know, beyond)] == ["C", "A", "E"]
    assert beyond.fields == {"subset": "BeyondVisQA", "type": "Temporal Unpredictability", "refusal_option": "E"}
    assert basic.media == ["b1.png"] and basic.category == "BasicVisQA"


def test_mmsap_folder_takes_the_subset_from_each_file_name(tmp_path) -> None:
    folder = tmp_path / "MM-SAP"
    folder.mkdir()
    for record in MMSAP:
        subset = record["subset"]
        rows = [{k: v for k, v in record.items() if k not in ("subset", "id")}]
        (folder / f"{subset}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    dataset = load_dataset(f"mmsap:{folder}")
    assert sorted(q.id for q in dataset.questions) == ["mmsap-BasicVisQA-1", "mmsap-BeyondVisQA-1",
                                                       "mmsap-KnowVisQA-1"]
    assert describe_dataset(dataset)["fields"]["subset"] == {"BasicVisQA": 1, "BeyondVisQA": 1, "KnowVisQA": 1}
    bad = folder / "Other.jsonl"
    bad.write_text(json.dumps(rows[0]) + "\n", encoding="utf-8")
    with pytest.raises(DatasetError, match="Other.jsonl, line 1: field `subset`"):
        load_dataset(f"mmsap:{folder}")


MMWORLD = [
    {"video_id": "lab clip 01", "video_url": "https://example.invalid/a", "discipline": "Science",
     "subdiscipline": "Biology", "captions": ["A seed sprouts in time-lapse.", "Roots spread."],
     "questions": [
         {"type": "Future Prediction", "question": "What grows next?",
          "options": {"a": "A leaf", "b": "A flower", "c": "Nothing"}, "answer": "A leaf",
          "requires_domain_knowledge": True, "requires_audio": False, "requires_visual": True,
          "question_only": False, "correct_answer_label": "a"},
         {"type": "Explanation", "question": "Why do the roots bend?",
          "options": {"a": "Gravity", "b": "Wind", "c": "Music", "d": "Heat"}, "answer": "Gravity",
          "requires_domain_knowledge": True, "requires_audio": True, "requires_visual": False,
          "question_only": True, "correct_answer_label": "a"}]},
    {"video_id": "match_07", "video_url": "https://example.invalid/b", "discipline": "Sports & Arts",
     "subdiscipline": "Football", "captions": ["A goalkeeper saves a penalty."],
     "questions": [
         {"type": "Explanation", "question": "Why does the crowd cheer?",
          "options": {"a": "A goal", "b": "A save", "c": "Rain", "d": "A song"}, "answer": "A save",
          "requires_domain_knowledge": False, "requires_audio": True, "requires_visual": True,
          "question_only": False, "correct_answer_label": "b"}]},
]


def test_mmworld_keeps_type_captions_subdiscipline_and_flags(tmp_path) -> None:
    path = tmp_path / "mmworld.json"
    path.write_text(json.dumps(MMWORLD, indent=4), encoding="utf-8")
    dataset = load_dataset(f"mmworld:{path}")
    first = dataset.questions[0]
    assert first.fields == {"discipline": "Science", "subdiscipline": "Biology", "type": "Future Prediction",
                            "requires_domain_knowledge": True, "requires_audio": False,
                            "requires_visual": True, "question_only": False}
    assert first.caption == "A seed sprouts in time-lapse. Roots spread." and first.media_id == "lab clip 01"
    assert first.choices == ["A leaf", "A flower", "Nothing"]
    fields = describe_dataset(dataset)["fields"]
    assert fields["type"] == {"Explanation": 2, "Future Prediction": 1}
    assert fields["requires_audio"] == {"true": 2, "false": 1}
    assert fields["discipline"] == {"Science": 2, "Sports & Arts": 1}


WORLDSENSE = {
    "vidA0001": {"video_id": "vidA0001", "video_duration": "75s", "duration": "1-2min", "domain": "Sports",
                 "sub_category": "Tennis", "audio_class": ["Speech", "Event"],
                 "video_caption": "Two players rally while a commentator speaks.",
                 "task0": {"task_domain": "Recognition", "task_type": "Audio Recognition",
                           "question": "What sound follows each shot?",
                           "candidates": ["A. A bell", "B. A grunt", "C. A whistle", "D. Silence"], "answer": "B"},
                 "task1": {"task_domain": "Reasoning", "task_type": "Causal Reasoning",
                           "question": "Why does the rally stop?",
                           "candidates": ["A. Rain", "B. A net ball", "C. Out", "D. A fault"], "answer": "C"}},
    "vidB0002": {"video_id": "vidB0002", "video_duration": "400s", "duration": "6-8min", "domain": "Music",
                 "sub_category": "Choir", "audio_class": "Music",
                 "video_caption": "A choir sings in a hall.",
                 "task0": {"task_domain": "Understanding", "task_type": "Audio Counting",
                           "question": "How many songs are sung?",
                           "candidates": ["A. 1", "B. 2", "C. 3", "D. 4"], "answer": "A"}},
}


def test_worldsense_keeps_task_sub_category_audio_class_and_duration(tmp_path, capsys) -> None:
    path = tmp_path / "worldsense_qa.json"
    path.write_text(json.dumps(WORLDSENSE), encoding="utf-8")
    dataset = load_dataset(f"worldsense:{path}")
    first = dataset.questions[0]
    assert first.fields == {"domain": "Sports", "sub_category": "Tennis", "duration": "1-2min",
                            "audio_class": ["Speech", "Event"], "task_domain": "Recognition",
                            "task_type": "Audio Recognition"}
    assert first.caption == "Two players rally while a commentator speaks." and first.answer == "A grunt"
    fields = describe_dataset(dataset)["fields"]
    assert fields["audio_class"] == {"Speech": 2, "Event": 2, "Music": 1}     # multi-label
    assert fields["duration"] == {"1-2min": 2, "6-8min": 1}
    assert cli.main(["datasets", "describe", f"worldsense:{path}", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["fields"]["task_type"] == {"Audio Recognition": 1, "Causal Reasoning": 1, "Audio Counting": 1}
