"""A benchmark's working folder for tests/test_reproducing_runs.py: the release-shaped dataset files,
the media under `media/`, and the files the rows of docs/benchmarks.md call the user's own (prompts,
labelled cases, an entity-counts file, id lists, sweep grids). All content is invented."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Callable

from tests import release_media
from tests.fakes import write_jsonl
from tests.release_media import RELEASES


def worldvqa(work: Path, url: str) -> None:
    shutil.copy(RELEASES / "WorldVQA.tsv", work)
    (work / "worldvqa_prompt.txt").write_text(
        "Answer the question about the image in detail.\n{question}\nEnd with a line Confidence: N%.\n",
        encoding="utf-8")
    (work / "worldvqa_judge.txt").write_text(
        "Decide whether the answer matches the reference.\nQuestion: {question}\nReference: {gold}\n"
        "Answer: {answer}\nReply with one line: Label: Correct / Incorrect / Unattempted\n", encoding="utf-8")
    write_jsonl(work / "cases.jsonl", [
        {"question": "Which invented lighthouse is shown?", "gold": ["Varn Light"], "answer": "Varn Light",
         "label": "CORRECT"},
        {"question": "Which invented fern is this?", "gold": ["Silver Quill"], "answer": "Copper Quill",
         "label": "INCORRECT"},
        {"question": "Which invented bridge is shown?", "gold": ["Pell Crossing"], "answer": "I cannot tell.",
         "label": "NOT_ATTEMPTED"},
        {"question": "Which invented car model is this?", "gold": ["Tarro 9"], "answer": "It is the Tarro 9.",
         "label": "CORRECT"}])
    (work / "entry_counts_400m.json").write_text(json.dumps(
        {"Varn Light": 120, "Silver Quill": 4, "Odile Marsk": 50, "Tarro 9": 900, "Pell Crossing": 30}),
        encoding="utf-8")


def mmworld(work: Path, url: str) -> None:
    for name in ("mmworld.json", "synthetic.json"):
        shutil.copy(RELEASES / name, work)
        release_media.mmworld_media(work / "media", RELEASES / name)
    options = ["Brell", "Tovium", "Carnex", "Dalite"]
    write_jsonl(work / "mc_cases.jsonl", [
        {"question": "Which invented metal is the lightest?", "options": options, "gold": "B",
         "answer": "Tovium is the lightest.", "label": "CORRECT"},
        {"question": "Which invented metal is the lightest?", "options": options, "gold": "Tovium",
         "answer": "Carnex, I believe.", "label": "INCORRECT"},
        {"question": "Which invented metal is the heaviest?", "options": options, "gold": "D",
         "answer": "Dalite.", "label": "CORRECT"}])


def mmsap(work: Path, url: str) -> None:
    release_media.mmsap_media(work / "media", RELEASES / "mmsap")
    for subset in (RELEASES / "mmsap").glob("*.json"):
        shutil.copy(subset, work)


def worldsense(work: Path, url: str) -> None:
    shutil.copy(RELEASES / "worldsense_qa.json", work)
    release_media.worldsense_media(work / "media", RELEASES / "worldsense_qa.json")
    for number in (1, 2, 3):
        (work / f"prompt{number}.txt").write_text(
            f"Prompt {number}. Watch the clip.\n{{question}}\n{{options}}\nReply with one letter.\n", encoding="utf-8")
    (work / "subtitles_prompt.txt").write_text(
        "The frames come with the subtitles shown at their times.\n{question}\n{options}\nReply with one letter.\n",
        encoding="utf-8")


def videosimpleqa(work: Path, url: str) -> None:
    from factprobe.eval.datasets.registry import load_dataset

    data = RELEASES / "VideoSimpleQA.json"
    shutil.copy(data, work)
    release_media.videosimpleqa_media(work / "media", data)
    ids = [question.id for question in load_dataset(f"videosimpleqa:{data}").questions]
    (work / "random200.txt").write_text("".join(f"{qid}\n" for qid in ids[:3]), encoding="utf-8")
    common = ('dataset = "videosimpleqa:VideoSimpleQA.json"\nmedia = "media"\npreset = "videosimpleqa"\n'
              'strategies = [["vanilla"]]\n')
    (work / "judges.toml").write_text(
        f'[sweep]\n{common}out = "runs"\nmodel = ["openai:A@{url}", "openai:B@{url}", "openai:C@{url}"]\n'
        f'judge = ["openai:J1@{url}", "openai:J2@{url}"]\n', encoding="utf-8")
    (work / "sizes.toml").write_text(
        f'[sweep]\n{common}out = "runs/sizes"\nmodel = ["openai:SMALL@{url}", "openai:LARGE@{url}"]\n',
        encoding="utf-8")
    (work / "frames.toml").write_text(
        f'[sweep]\n{common}out = "runs/frames"\nmodel = "openai:MODEL@{url}"\nframes = [4, 8, 16, 32]\n',
        encoding="utf-8")


BENCHMARKS: dict[str, Callable[[Path, str], None]] = {
    "W": worldvqa, "M": mmworld, "S": mmsap, "K": worldsense, "V": videosimpleqa}


def write_user_files(prefix: str, work: Path, url: str) -> None:
    """The files of benchmark `prefix` (a row id's letter) in `work`, its media in `work/media`."""
    BENCHMARKS[prefix](work, url)
