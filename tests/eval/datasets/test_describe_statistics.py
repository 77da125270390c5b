"""`factprobe datasets describe`'s `statistics` block: words per question, answer and option,
option letters, distinct media and their durations, on small files in each released shape.

Every file is written by the test with invented content (MM-SAP, MMWorld, WorldSense, Video
SimpleQA, native JSON Lines); the WorldSense videos are written with PyAV at known lengths (3 s and
5 s) and one is left out, so its duration is counted as missing rather than as zero. The last test
reads the Video SimpleQA sample in ../shared and skips when that folder is absent.
"""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
from factprobe.eval.datasets.describe import describe_dataset
from factprobe.eval.datasets.question_types import question_type
from factprobe.eval.datasets.registry import load_dataset
from factprobe.eval.datasets.text_statistics import word_count

REFUSAL = "Sorry, I can't help with it"
SHARED_VSQA = Path(__file__).resolve().parents[3].parent / "shared" / "datasets" / "videosimpleqa"

try:
    import av
except ImportError:
    av = None
requires_av = pytest.mark.skipif(av is None, reason="writing and reading test videos needs PyAV (`av`): "
                                 "pip install -e '.[media]'")


def described(spec: str, *options: str, capsys: pytest.CaptureFixture[str]) -> dict:
    assert cli.main(["datasets", "describe", spec, "--json", *options]) == 0
    return json.loads(capsys.readouterr().out)["statistics"]


@pytest.mark.parametrize("text, words", [
    ("How many boats are there?", 5),
    ("  spaced   out\ttext\n", 3),
    ("Which one - the left or the right ?", 7),      # a lone dash or question mark is not a word
    ("北京大学", 4),                                   # each ideograph one word
    ("北京大学 in 2024", 6),
    ("カメラ を", 4),                                   # kana one each
    ("오늘 날씨", 2),                                   # Hangul by spaces
    ("", 0),
])
def test_words_are_whitespace_tokens_and_cjk_characters(text, words) -> None:
    assert word_count(text) == words


MMSAP = {
    "BasicVisQA": [
        {"type": "Counting", "image": "b1.png", "question": "How many red boats float here?",
         "options": ["Three", "Four", REFUSAL, "Two", "One"], "answer": "B"},
        {"type": "Colour", "image": "b2.png", "question": "What colour is the tram?",
         "options": {"A": REFUSAL, "B": "Dark green", "C": "Bright lemon yellow", "D": "Red", "E": "Blue"},
         "answer": "Red"},
    ],
    "KnowVisQA": [
        {"type": "Animals", "image": "k1.png", "question": "Which invented bird is perched on the fence?",
         "options": {"A": "Quill finch", "B": "Marsh lark", "C": "Dune owl", "D": "Reed jay", "E": REFUSAL},
         "answer": "A"},
    ],
    "BeyondVisQA": [
        {"type": "Future", "image": "y1.png", "question": "What will the dog dream tonight?",
         "options": ["Bones", "Cats", "Rain", REFUSAL, "Sleep"], "answer": "D"},
    ],
}


def test_mmsap_words_per_subset_and_released_letters_of_right_and_refusal_options(tmp_path, capsys) -> None:
    path = tmp_path / "mmsap.json"
    path.write_text(json.dumps(MMSAP), encoding="utf-8")
    stats = described(f"mmsap:{path}", capsys=capsys)
    words = stats["words"]
    assert words["question"] == {"n": 4, "mean": 6.25, "median": 6.0, "max": 8}
    assert words["answer"] == {"n": 3, "mean": 1.33, "median": 1.0, "max": 2}       # the refused question has none
    assert words["option"] == {"n": 16, "mean": 1.44, "median": 1.0, "max": 3}      # the four content options
    assert words["option_with_refusal"] == {"n": 20, "mean": 2.35, "median": 1.5, "max": 6}
    assert stats["question_types"] == {"what": 2, "how many": 1, "which": 1}
    options = stats["options"]
    assert options["options_per_question"] == {"5": 4}
    # the right option of the Beyond question is the refusal option, at its released letter
    assert options["right_letter"] == {"A": 1, "B": 1, "D": 2}
    assert options["refusal_letter"] == {"A": 1, "C": 1, "D": 1, "E": 1}
    basic = stats["per_category"]["BasicVisQA"]
    assert basic["words"]["question"]["mean"] == 5.5
    assert basic["options"]["right_letter"] == {"B": 1, "D": 1}
    assert basic["options"]["refusal_letter"] == {"A": 1, "C": 1}
    assert stats["media"]["distinct"] == 4 and stats["durations"]["n"] == 0

    assert cli.main(["datasets", "describe", f"mmsap:{path}"]) == 0
    table = capsys.readouterr().out
    assert "right option letter" in table and "D 2 (50.0 %)" in table
    assert "BeyondVisQA: refusal letter" in table


def mmworld_video(video_id: str, discipline: str, subdiscipline: str, types: list[str]) -> dict:
    return {"video_id": video_id, "video_url": "https://example.invalid/" + video_id, "discipline": discipline,
            "subdiscipline": subdiscipline, "captions": ["An invented scene."],
            "questions": [{"type": kind, "question": f"What happens in part {n} of {video_id}?",
                           "options": {"a": "It rains", "b": "It snows", "c": "Nothing"},
                           "answer": "Nothing", "correct_answer_label": "c", "requires_audio": n == 0,
                           "requires_visual": True, "question_only": False, "requires_domain_knowledge": False}
                          for n, kind in enumerate(types)]}


def test_mmworld_counts_each_video_once_per_subdiscipline(tmp_path, capsys) -> None:
    path = tmp_path / "mmworld.json"
    path.write_text(json.dumps([
        mmworld_video("clip-a", "Science", "Biology", ["Explanation", "Explanation", "Counterfactual Thinking"]),
        mmworld_video("clip-b", "Science", "Chemistry", ["Explanation"]),
        mmworld_video("clip-c", "Sports", "Football", ["Temporal Understanding", "Explanation"]),
    ]), encoding="utf-8")
    description = describe_dataset(load_dataset(f"mmworld:{path}"))
    assert description["fields"]["subdiscipline"] == {"Biology": 3, "Football": 2, "Chemistry": 1}   # questions
    media = description["statistics"]["media"]
    assert media["distinct"] == 3 and media["questions_with_media"] == 6
    assert media["per_field"]["subdiscipline"] == {"Biology": 1, "Chemistry": 1, "Football": 1}       # videos
    assert media["per_field"]["type"]["Explanation"] == 3        # videos with at least one such question
    assert media["per_field"]["requires_audio"] == {"false": 2, "true": 3}
    assert media["per_category"] == {"Science": 2, "Sports": 1}
    assert description["statistics"]["options"]["right_letter"] == {"C": 6}


def write_video(path: Path, seconds: int, rate: int = 10) -> None:
    """A black H.264 video of `seconds` seconds at `rate` frames per second."""
    import numpy as np

    path.parent.mkdir(parents=True, exist_ok=True)
    with av.open(str(path), "w") as container:
        stream = container.add_stream("libx264", rate=rate)
        stream.width, stream.height, stream.pix_fmt = 32, 32, "yuv420p"
        for _ in range(seconds * rate):
            frame = av.VideoFrame.from_ndarray(np.zeros((32, 32, 3), dtype=np.uint8), format="rgb24")
            for packet in stream.encode(frame):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)


def worldsense_video(domain: str, bucket: str, tasks: int) -> dict:
    video = {"domain": domain, "sub_category": domain + " clips", "duration": bucket, "audio_class": ["Speech"],
             "video_caption": "An invented clip."}
    for n in range(tasks):
        video[f"task{n}"] = {"task_domain": "Recognition", "task_type": "Audio Recognition",
                             "question": f"What is heard in moment {n}?",
                             "candidates": ["A. A bell", "B. A horn", "C. A drum", "D. Silence"], "answer": "B"}
    return video


@requires_av
def test_worldsense_durations_from_the_videos_each_once_and_a_missing_one_counted(tmp_path, capsys) -> None:
    path = tmp_path / "worldsense_qa.json"
    path.write_text(json.dumps({"w1": worldsense_video("Sports", "<1min", 3),
                                "w2": worldsense_video("Music", "<1min", 1),
                                "w3": worldsense_video("Music", "1-2min", 2)}), encoding="utf-8")
    write_video(tmp_path / "videos" / "w1.mp4", 3)
    write_video(tmp_path / "videos" / "w2.mp4", 5)
    without = described(f"worldsense:{path}", capsys=capsys)["durations"]
    assert without["n"] == 0 and sum(without["without_duration"].values()) == 3   # buckets are not seconds

    plots = tmp_path / "plots"
    durations = described(f"worldsense:{path}", "--media", str(tmp_path), "--plot", str(plots),
                          capsys=capsys)["durations"]
    assert durations["n"] == 2 and durations["sources"] == {"video file": 2}
    assert (durations["mean_s"], durations["median_s"], durations["min_s"], durations["max_s"]) == (4.0, 4.0, 3.0, 5.0)
    assert durations["without_duration"] == {"media not found": 1} and "w3" in durations["examples"][0]
    assert sum(durations["histogram"]["counts"]) == 2
    assert (plots / "durations.png").stat().st_size > 0 and (plots / "durations.svg").is_file()


def test_native_rows_give_durations_in_seconds_and_a_bucket_is_not_one(tmp_path, capsys) -> None:
    rows = [{"id": "n1", "question": "What is shown first?", "answer": "A cat", "media_id": "v1",
             "fields": {"duration": 60}},
            {"id": "n2", "question": "What is shown last?", "answer": "A dog", "media_id": "v1",
             "fields": {"duration": 60}},
            {"id": "n3", "question": "Who speaks?", "answer": "Nobody", "media_id": "v2",
             "fields": {"duration": "1:30"}},
            {"id": "n4", "question": "Who sings?", "answer": "A choir", "media_id": "v3",
             "fields": {"duration": "2-4min"}}]
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    durations = described(f"jsonl:{path}", capsys=capsys)["durations"]
    assert durations["n"] == 2 and durations["mean_s"] == 75.0       # v1 once, not once per question
    assert durations["sources"] == {"record's duration field": 2}
    assert list(durations["without_duration"].values()) == [1]


def test_videosimpleqa_distinct_videos_and_lengths_without_media(tmp_path, capsys) -> None:
    records = [{"date": date, "QA_Pair_1_Question": "Which invented team plays here?", "QA_Pair_1_Answer": "The Owls",
                "QA_Pair_2_Question": "Where do the Owls train?", "QA_Pair_2_Answer": "Brindle Park",
                "Multi_hop_Question": question, "Multi_hop_Answer": "Brindle Park"}
               for date, question in (("2031-01-01", "Where does the team in the video train?"),
                                      ("2031-01-01", "Where does the home team train?"),
                                      ("2031-02-03", "Where is the training ground of this team?"))]
    path = tmp_path / "VideoSimpleQA.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    stats = described(f"videosimpleqa:{path}", capsys=capsys)
    assert stats["media"]["distinct"] == 2
    assert stats["words"]["question"] == {"n": 3, "mean": 7.33, "median": 8.0, "max": 8}
    assert stats["words"]["answer"] == {"n": 3, "mean": 2.0, "median": 2.0, "max": 2}
    assert stats["question_types"] == {"where": 3}                    # Fig. 5(b), by interrogative word
    assert stats["options"] is None
    assert stats["durations"]["n"] == 0
    assert "--media" in next(iter(stats["durations"]["without_duration"]))


def test_worldvqa_chinese_words_by_character_and_one_image_shown_twice_counted_once(tmp_path, capsys) -> None:
    pil = pytest.importorskip("PIL.Image", reason="WorldVQA's embedded images are identified with Pillow")
    out = io.BytesIO()
    pil.new("RGB", (8, 8), (30, 120, 60)).save(out, format="PNG")
    image = base64.b64encode(out.getvalue()).decode("ascii")
    path = tmp_path / "WorldVQA.tsv"
    path.write_text("index\timage\tquestion\tanswer\tcategory\tdifficulty\tlanguage\n"
                    f"1\t{image}\t这只鸟叫什么？\t样例雀\tNature\teasy\tzh\n"
                    f"2\t{image}\tWhich invented bird is this?\tSample finch\tNature\thard\tnon-zh\n",
                    encoding="utf-8")
    stats = described(f"worldvqa:{path}", capsys=capsys)
    assert stats["words"]["question"] == {"n": 2, "mean": 5.5, "median": 5.5, "max": 6}     # 6 characters; 5 words
    assert stats["words"]["answer"] == {"n": 2, "mean": 2.5, "median": 2.5, "max": 3}       # 3 characters; 2 words
    assert stats["media"]["distinct"] == 1
    assert stats["media"]["per_field"]["language"] == {"zh": 1, "non-zh": 1}


def test_mcq_right_letters_are_the_gold_options_positions(tmp_path, capsys) -> None:
    rows = [{"id": f"m{n}", "question": f"Which invented colour is number {n}?", "choices": ["Ochre", "Teal", "Mauve"],
             "answer": answer} for n, answer in enumerate(["A", "Teal", "c", "Teal"])]
    path = tmp_path / "mcq.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    options = described(f"mcq:{path}", capsys=capsys)["options"]
    assert options == {"questions": 4, "options_per_question": {"3": 4}, "right_letter": {"A": 1, "B": 2, "C": 1},
                       "refusal_letter": {}}


def test_a_missing_media_folder_is_refused_naming_the_option(tmp_path, capsys) -> None:
    path = tmp_path / "VideoSimpleQA.json"
    path.write_text("[]", encoding="utf-8")
    assert cli.main(["datasets", "describe", f"videosimpleqa:{path}", "--media", str(tmp_path / "nowhere")]) == 2
    assert "--media" in capsys.readouterr().err


def test_the_shared_video_simpleqa_sample_counts_each_date_once(capsys) -> None:
    files = sorted(SHARED_VSQA.glob("*.json")) if SHARED_VSQA.is_dir() else []
    if not files:
        pytest.skip(f"{SHARED_VSQA} is absent (the shared datasets folder beside the checkout)")
    records = json.loads(files[0].read_text(encoding="utf-8"))
    dates = {r["date"].strip() for r in records if r["date"].strip() and str(r["Multi_hop_Question"]).strip()}
    stats = described(f"videosimpleqa:{files[0]}", capsys=capsys)
    assert stats["media"]["distinct"] == len(dates) < stats["words"]["question"]["n"]
    assert 3 < stats["words"]["question"]["mean"] < 60 and stats["words"]["answer"]["mean"] >= 1


@pytest.mark.parametrize(("question", "kind"), [
    ("In which year did the team in the video win its first title?", "which"),
    ("How many goals did the player score that season?", "how many"),
    ("How did the bridge collapse?", "how"),
    ("Whose portrait hangs behind the speaker?", "whose"),
    ("Name the river shown at the start.", "other"),
])
def test_question_types_are_the_first_interrogative_word(question, kind) -> None:
    assert question_type(question) == kind
