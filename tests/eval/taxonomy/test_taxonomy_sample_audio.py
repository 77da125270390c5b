"""`factprobe taxonomy --sample-per FIELD N` (a seeded sample of errors per value of a field) and
`--with-media` sending the sound track to a judge that takes audio, a note when it does not.

The answering model and the judge are the OpenAI-compatible fake of tests/fakes.py (ChatServer),
started by the test on 127.0.0.1; the video with a sound track is written by the test with PyAV.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.grading.judge_loader as judge_loader
from factprobe.eval.core.schema import Question
from factprobe.eval.taxonomy.classify import TAXONOMY_SYSTEM
from factprobe.eval.taxonomy.record import SELECTION_FILE, TAXONOMY_FILE
from tests.fakes import ChatServer, ScriptedModel, write_questions

# six wrong answers in "sea", two in "desert", one in "ice"; the model names a river every time
QUESTIONS = [Question(id=f"{place}-{number}", question=f"Which {place} place number {number} is this?",
                      answer="Tarn", category=place)
             for place, count in (("sea", 6), ("desert", 2), ("ice", 1)) for number in range(count)]


def reply(body: dict) -> str:
    if body["messages"][0]["content"] == TAXONOMY_SYSTEM:
        return "Kind: audio_understanding\nReason: the sound was misheard."
    return "Answer: Danube\nConfidence: 50"


@pytest.fixture
def server() -> Iterator[ChatServer]:
    with ChatServer(reply) as chat:
        yield chat


def judge_calls(server: ChatServer) -> list[dict]:
    return [body for body in server.chats() if body["messages"][0]["content"] == TAXONOMY_SYSTEM]


def asked_about(calls: list[dict]) -> list[str]:
    return sorted(next(q.id for q in QUESTIONS if q.question in json.dumps(call)) for call in calls)


def test_a_seeded_sample_per_value_is_classified_counted_and_recorded(tmp_path: Path, server: ChatServer,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    dataset = write_questions(tmp_path / "q.jsonl", QUESTIONS)
    out, model = tmp_path / "run", f"openai:scripted@{server.url}"
    assert cli.main(["run", "--dataset", f"jsonl:{dataset}", "--strategies", "vanilla", "--model", model,
                     "--out", str(out), "--no-cache"]) == 0
    taxonomy = ["taxonomy", str(out), "--judge", model, "--preset", "worldsense", "--no-cache"]
    assert cli.main([*taxonomy, "--sample-per", "category", "2", "--seed", "7"]) == 0
    first = asked_about(judge_calls(server))
    assert len(first) == 5 and sum(name.startswith("sea") for name in first) == 2   # 2 + 2 + the only one
    assert "desert-0" in first and "desert-1" in first and "ice-0" in first
    counts = json.loads((out / "summary.json").read_text())["taxonomy"]["vanilla"]
    assert counts["n"] == 5 and counts["audio_understanding"] == 5 and counts["pending"] == 0
    assert counts["sample"] == {"field": "category", "per_value": 2, "seed": 7, "values": {
        "desert": {"errors": 2, "sampled": 2}, "ice": {"errors": 1, "sampled": 1}, "sea": {"errors": 6, "sampled": 2}}}
    recorded = json.loads((out / SELECTION_FILE).read_text())["sample"]
    assert sorted(key[0] for key in recorded["rows"]) == first
    assert "a random sample of at most 2 per category value (seed 7)" in " ".join(capsys.readouterr().out.split())

    # the same seed draws the same rows: nothing is asked again; other seeds draw other sea rows
    before = len(judge_calls(server))
    assert cli.main([*taxonomy, "--sample-per", "category", "2", "--seed", "7"]) == 0
    assert len(judge_calls(server)) == before
    draws = {tuple(first)}
    for seed in (1,):
        assert cli.main([*taxonomy, "--sample-per", "category", "2", "--seed", str(seed)]) == 0
        draws.add(tuple(sorted(key[0] for key in json.loads((out / SELECTION_FILE).read_text())["sample"]["rows"])))
    assert len(draws) > 1

    # every row again without a sample: the summary counts all nine
    assert cli.main(taxonomy) == 0
    counts = json.loads((out / "summary.json").read_text())["taxonomy"]["vanilla"]
    assert counts["n"] == 9 and "sample" not in counts

    capsys.readouterr()
    assert cli.main([*taxonomy, "--sample-per", "task_type", "2"]) == 2
    assert "--sample-per task_type: none of the 9 rows to classify has a field 'task_type'" in capsys.readouterr().err
    assert cli.main([*taxonomy, "--sample-per", "category", "two"]) == 2
    assert "N must be a whole number" in capsys.readouterr().err


class NoAudioJudge(ScriptedModel):
    """A judge that reads images but takes no audio."""

    supports_images = True
    supports_audio = False


def test_with_media_the_judge_hears_the_sound_track_or_a_note_says_it_cannot(
        tmp_path: Path, server: ChatServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("av", reason="the sound track is extracted with PyAV: pip install -e '.[media]'")
    from tests.eval.media.test_audio import wav_info, write_video_with_tone

    media = tmp_path / "media"
    (media / "videos").mkdir(parents=True)
    write_video_with_tone(media / "videos" / "clip01.mp4", hz=500.0)
    question = Question(id="q1", question="Which river is heard here?", answer="Tarn", media_id="clip01")
    dataset = write_questions(tmp_path / "q.jsonl", [question])
    out, model = tmp_path / "run", f"openai:scripted@{server.url}"
    assert cli.main(["run", "--dataset", f"jsonl:{dataset}", "--media", str(media), "--modality", "text,audio",
                     "--strategies", "vanilla", "--model", model, "--out", str(out), "--no-cache"]) == 0
    assert cli.main(["taxonomy", str(out), "--judge", model, "--preset", "worldsense", "--with-media",
                     "--no-cache"]) == 0
    calls = judge_calls(server)
    assert len(calls) == 2                                           # the text row and the audio row
    heard = [call for call in calls if isinstance(call["messages"][-1]["content"], list)]
    assert len(heard) == 1
    audio = [part for part in heard[0]["messages"][-1]["content"] if part["type"] == "input_audio"]
    import base64

    assert len(audio) == 1 and abs(wav_info(base64.b64decode(audio[0]["input_audio"]["data"]))[3] - 500.0) < 5.0
    assert "sound track the model heard" in heard[0]["messages"][-1]["content"][-1]["text"]
    entries = {e["strategy"]: e for e in map(json.loads, (out / TAXONOMY_FILE).read_text().splitlines())}
    assert entries["vanilla@audio"]["audio"] == 1 and entries["vanilla@text"]["audio"] == 0

    capsys.readouterr()
    judge = NoAudioJudge(lambda messages, params: "Kind: reasoning\nReason: x")
    monkeypatch.setattr(judge_loader, "load_model", lambda spec, **kwargs: judge)
    assert cli.main(["taxonomy", str(out), "--judge", "mute", "--preset", "worldsense", "--with-media"]) == 0
    assert "the judge mute takes no audio: the 1 rows answered with the sound track" in capsys.readouterr().out
    assert len(judge.calls) == 2 and all("audio" not in message for messages, _ in judge.calls for message in messages)
