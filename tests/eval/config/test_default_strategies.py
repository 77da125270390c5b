"""Which strategies a run runs when none are named: a preset's (they fit its benchmark), else the
default set without what the dataset cannot run (retrieval without a corpus), with a note printed
and kept in the manifest; `--strategies rag` named on a dataset without a corpus stops the run.

The model is ScriptedModel (tests/fakes.py), or for the split run the stand-in OpenAI-compatible
server of the benchmarks (benchmarks/chat_server.py) on 127.0.0.1. Datasets are invented.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.agents.registry import default_strategies, get_strategy
from factprobe.eval.config.baseline import BaselineError
from factprobe.eval.config.presets import PRESET_SETTINGS
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.datasets.registry import load_dataset
from factprobe.eval.run.checks import left_out_by_default, retrieves
from factprobe.eval.run.configs import new_config
from tests.fakes import ScriptedModel

QUESTIONS = [{"id": "q1", "question": "What is the capital of the invented land of Vell?", "answer": "Orra"},
             {"id": "q2", "question": "Who founded the invented town of Brisk?", "answer": "Ada Venn"}]


def write_questions(tmp_path: Path) -> Path:
    path = tmp_path / "questions.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in QUESTIONS), encoding="utf-8")
    return path


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> ScriptedModel:
    model = ScriptedModel(lambda messages, params: "Answer: Orra\nConfidence: 80")
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: model)
    return model


@pytest.mark.parametrize("preset", sorted(PRESET_SETTINGS))
def test_every_preset_names_strategies_its_benchmark_can_run(preset: str, tmp_path: Path) -> None:
    config = RunConfig(preset=preset)
    assert config.strategies and not any(retrieves(name) for name in config.strategies)
    assert all(get_strategy(name) for name in config.strategies)
    assert RunConfig(preset=preset, strategies=["self_refine"]).strategies == ["self_refine"]   # named: wins
    answers = tmp_path / "answers.jsonl"
    answers.write_text('{"id": "q1", "answer": "Orra"}\n', encoding="utf-8")
    assert RunConfig(preset=preset, answers=answers).strategies == ["recorded"]     # the file's answers alone
    assert not new_config({"preset": preset, "out": tmp_path / "run"}).strategies_by_default


def test_the_default_set_leaves_retrieval_out_only_where_there_is_no_corpus(tmp_path: Path) -> None:
    data = f"jsonl:{write_questions(tmp_path)}"
    assert "rag" in default_strategies()
    config = new_config({"dataset": data, "out": tmp_path / "run"})
    dataset = load_dataset(data)
    [note] = left_out_by_default(config, dataset, dataset.questions)
    assert config.strategies == [name for name in default_strategies() if name != "rag"]
    assert "rag" in note and data in note and "--retriever bm25:PATH" in note and "\n" not in note
    assert left_out_by_default(config, dataset, dataset.questions) == [note]        # a shard notes it again
    sample = new_config({"dataset": "sample", "out": tmp_path / "sample"})          # the sample has a corpus
    assert left_out_by_default(sample, load_dataset("sample"), load_dataset("sample").questions) == []
    web = new_config({"dataset": data, "retriever": "wikipedia", "out": tmp_path / "web"})
    assert left_out_by_default(web, dataset, dataset.questions) == [] and "rag" in web.strategies
    variants = new_config({"dataset": data, "modality": ["text", "caption"], "out": tmp_path / "variants"})
    assert "rag@text" in left_out_by_default(variants, dataset, dataset.questions)[0]
    assert not any(name.startswith("rag@") for name in variants.strategies)
    named = new_config({"dataset": data, "strategies": ["vanilla", "rag"], "out": tmp_path / "named"})
    assert left_out_by_default(named, dataset, dataset.questions) == [] and "rag" in named.strategies
    baseline = new_config({"dataset": data, "baseline": "rag", "out": tmp_path / "baseline"})
    with pytest.raises(BaselineError, match="--baseline rag"):
        left_out_by_default(baseline, dataset, dataset.questions)


def test_a_run_without_strategies_on_a_dataset_without_corpus_runs_and_notes_what_it_left_out(
        tmp_path: Path, scripted: ScriptedModel, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert cli.main(["run", "--dataset", f"jsonl:{write_questions(tmp_path)}", "--out", str(out),
                     "--max-error-rate", "1", "--max-undecided-rate", "1"]) == 0
    printed = capsys.readouterr().out
    assert "note: left out of the default strategies: rag" in " ".join(printed.split())
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["config"]["strategies_by_default"] and "rag" not in manifest["config"]["strategies"]
    assert len(manifest["notes"]) == 1 and "rag" in manifest["notes"][0]
    strategies = {json.loads(line)["strategy"] for line in (out / "results.jsonl").read_text().splitlines()}
    assert strategies == set(manifest["config"]["strategies"]) and "vanilla" in strategies


def test_rag_named_on_a_dataset_without_corpus_exits_2_naming_the_option(
        tmp_path: Path, scripted: ScriptedModel, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert cli.main(["run", "--dataset", f"jsonl:{write_questions(tmp_path)}", "--strategies", "vanilla,rag",
                     "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "--strategies" in err and "rag" in err and "has no corpus" in err and not scripted.calls


def test_the_flag_the_run_records_is_no_option() -> None:
    assert "strategies_by_default" in RunConfig.model_fields
    assert "strategies_by_default" not in RunConfig.option_names()
    parser = cli.build_parser()
    with pytest.raises(SystemExit):
        parser.parse_args(["run", "--strategies-by-default"])


def test_a_split_run_without_strategies_notes_the_left_out_ones_in_its_merged_manifest(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from benchmarks.chat_server import SERVED_MODEL, ChatServer

    monkeypatch.setenv("OPENAI_API_KEY", "")
    out = tmp_path / "run"
    with ChatServer(delay_s=0.0) as server:
        status = cli.main(["run", "--dataset", f"jsonl:{write_questions(tmp_path)}", "--workers", "2",
                           "--model", f"openai:{SERVED_MODEL}@{server.base_url}", "--out", str(out), "--no-cache",
                           "--max-error-rate", "1", "--max-undecided-rate", "1"])
    assert status == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert "merged_from" in manifest and "rag" not in manifest["config"]["strategies"]
    assert len(manifest["notes"]) == 1 and "rag" in manifest["notes"][0]
