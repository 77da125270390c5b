"""Video SimpleQA: the loader, the benchmark's F convention, and the text-only evidence summary."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.eval.analysis.metrics import grade_metrics
from factprobe.eval.core.errors import DatasetError
from factprobe.eval.core.schema import Grade
from factprobe.eval.datasets.registry import load_dataset
from factprobe.eval.media.attach import Attachment, attached
from factprobe.eval.run.steps import PostStepInput
from factprobe.eval.store.run_dir import RunDir
from factprobe.eval.video.scores import benchmark_f_score
from factprobe.eval.video.step import video_evidence
from tests.fakes import ScriptedModel, last_user

RECORDS = [
    {"date": "2011-05-04",
     "QA_Pair_1_Question": "Which bird is shown nesting in the video?", "QA_Pair_1_Answer": "White stork",
     "QA_Pair_2_Question": "On which continent does the White stork spend the winter?",
     "QA_Pair_2_Answer": "Africa",
     "Multi_hop_Question": "On which continent does the bird shown nesting in the video spend the winter?",
     "Multi_hop_Answer": "Africa"},
    {"date": "2011-05-04",
     "QA_Pair_1_Question": "Which bird is shown nesting in the video?", "QA_Pair_1_Answer": "White stork",
     "QA_Pair_2_Question": "What is the scientific genus of the White stork?", "QA_Pair_2_Answer": "Ciconia",
     "QA_Pair_3_Question": "Which family does the genus Ciconia belong to?", "QA_Pair_3_Answer": "Ciconiidae",
     "Multi_hop_Question": "Which family does the genus of the bird nesting in the video belong to?",
     "Multi_hop_Answer": "Ciconiidae"},
]


def write(tmp_path: Path, records: list[dict]) -> str:
    path = tmp_path / "vsqa.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    return f"videosimpleqa:{path}"


def test_loader_keeps_sub_qas_in_order_with_the_video_id(tmp_path) -> None:
    dataset = load_dataset(write(tmp_path, RECORDS))
    first, second = dataset.questions
    assert [hop.question for hop in second.hops] == [RECORDS[1][f"QA_Pair_{k}_Question"] for k in (1, 2, 3)]
    assert [hop.answer for hop in second.hops] == ["White stork", "Ciconia", "Ciconiidae"]
    assert second.hops[1].render(["White stork"]) == RECORDS[1]["QA_Pair_2_Question"]  # text as written
    assert first.media_id == second.media_id == "2011-05-04"
    assert first.id != second.id and first.id.startswith("vsqa-2011-05-04-1-")
    assert (first.category, second.category) == ("2_hops", "3_hops")
    assert second.answer == "Ciconiidae" and second.question == RECORDS[1]["Multi_hop_Question"]


def test_ids_follow_the_question_text_and_a_category_field_wins(tmp_path) -> None:
    before = load_dataset(write(tmp_path, RECORDS)).questions[0].id
    edited = [{**RECORDS[0], "Multi_hop_Question": "Where does the stork in the video winter?",
               "category": "Nature"}, RECORDS[1]]
    after = load_dataset(write(tmp_path, edited)).questions[0]
    assert after.id != before and after.id.rsplit("-", 1)[0] == before.rsplit("-", 1)[0]
    assert after.category == "Nature"


@pytest.mark.parametrize("change, message", [
    ({"QA_Pair_2_Question": None, "QA_Pair_2_Answer": None}, "expected 2 to 4 sub-QAs"),
    ({"QA_Pair_4_Question": "Q?", "QA_Pair_4_Answer": "A"}, "without gaps"),
    ({"QA_Pair_2_Answer": None}, "QA_Pair_2_Answer`: missing"),   # an empty one is repaired (test_released_vsqa)
])
def test_malformed_sub_qas_name_the_record_and_field(tmp_path, change, message) -> None:
    record = {key: value for key, value in {**RECORDS[0], **change}.items() if value is not None}
    with pytest.raises(DatasetError, match=message) as error:
        load_dataset(write(tmp_path, [RECORDS[1], record]))
    assert "record 2" in str(error.value)


def test_the_shared_slice_loads_with_unique_stable_ids(shared_datasets) -> None:
    spec = f"videosimpleqa:{shared_datasets / 'videosimpleqa' / 'VideoSimpleQA_sample.json'}"
    dataset = load_dataset(spec)
    questions = dataset.questions
    ids = [q.id for q in questions]
    assert len(questions) == 301 and len(set(ids)) == 301
    assert len({q.media_id for q in questions}) < 301            # several items share a video
    assert ids == [q.id for q in load_dataset(spec).questions]
    assert all(2 <= len(q.hops) <= 4 for q in questions)
    assert any("differs from Multi_hop_Answer" in note for note in dataset.notes)


def test_benchmark_f_uses_the_rounded_cga() -> None:
    scores = grade_metrics([Grade.CORRECT] * 2 + [Grade.INCORRECT, Grade.NOT_ATTEMPTED])
    assert round(100 * scores["f_score"], 1) == 57.1                 # exact: CGA 66.666…
    assert benchmark_f_score(scores["accuracy"], scores["cga"]) == pytest.approx(0.572)  # CGA 66.7
    assert benchmark_f_score(0.477, 0.510) == pytest.approx(0.493)    # GPT-4o, Table 2
    assert benchmark_f_score(0.0, None) == 0.0 and benchmark_f_score(None, None) is None


def test_evidence_step_records_what_the_job_attached(tmp_path) -> None:
    question = load_dataset(write(tmp_path, RECORDS)).questions[0]

    def step(q) -> dict:
        return asyncio.run(video_evidence(PostStepInput(q, {}, "vanilla", 0, None, None, None)))

    assert step(question) == {"media_id": "2011-05-04", "media_given": False, "caption_given": False}
    with attached(Attachment(setting="frames", images=("sha256:ab", "sha256:cd"))):
        assert step(question)["media_given"] is True
    with attached(Attachment(setting="caption", caption="A stork on a nest.")):
        assert step(question)["caption_given"] is True and step(question)["media_given"] is False
    assert step(question.model_copy(update={"media_id": None})) == {}


def test_text_only_run_reports_answers_without_video(tmp_path, monkeypatch) -> None:
    def script(messages, params) -> str:
        text = last_user(messages)
        if "nesting in the video spend" in text:
            return "Answer: Africa\nConfidence: 40"               # answered without the video
        if "Which bird is shown" in text:
            return "Answer: I don't know\nConfidence: 0"          # hop 1 declined
        if "Which family does the genus of the bird" in text:
            return "Answer: Falcons\nConfidence: 30"             # wrong, and unrelated to the gold
        return "Answer: Ciconia\nConfidence: 30"

    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: ScriptedModel(script))
    out = tmp_path / "run"
    assert cli.main(["run", "--dataset", write(tmp_path, RECORDS), "--strategies", "vanilla",
                     "--out", str(out)]) == 0
    rows = RunDir(out).read_results()
    assert all(row.media_given is False for row in rows)
    assert all(len(row.hop_probes) == row.hop_count for row in rows)
    summary = json.loads((out / "summary.json").read_text())
    evidence = summary["video_evidence"]["vanilla"]
    assert evidence["n"] == 2 and evidence["without_video"] == 2 and evidence["with_video"] == 0
    assert evidence["answered_without_video"] == 2 and evidence["correct_without_video"] == 1
    assert evidence["hop1_n"] == 2 and evidence["hop1_not_attempted_without_video"] == 2
    assert evidence["hop1_answered_without_video_rate"] == 0.0
    assert summary["strategies"]["vanilla"]["videosimpleqa_f_score"] == pytest.approx(0.5)
