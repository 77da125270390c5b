"""`refusal_option`: MM-SAP's refusal option among the choices with no instruction to choose it
(Table 3's "without the refusal prompt"), beside `refusal` (option and instruction).

MM-SAP-shaped questions (invented, without images) are answered by a scripted model that picks
the refusal option whenever it is offered for one question, and the right option otherwise.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.agents.benchmark_prompts import REFUSAL_CHOICE
from factprobe.agents.choices import REFUSAL_OPTION
from factprobe.agents.registry import default_strategies, get_strategy
from tests.fakes import ScriptedModel, last_user

RECORDS = [
    {"id": "tower", "subset": "KnowVisQA", "type": "Landmarks", "question": "Which invented tower is on the hill?",
     "options": {"A": "Pell Spire", "B": REFUSAL_OPTION, "C": "Tarn Mast", "D": "Quill Needle", "E": "Brom Tower"},
     "answer": "Tarn Mast"},
    {"id": "stew", "subset": "KnowVisQA", "type": "Food", "question": "Which invented stew is in the bowl?",
     "options": {"A": "Garrow pot", "B": "Misk broth", "C": "Fenn stew", "D": "Ulv soup", "E": REFUSAL_OPTION},
     "answer": "Misk broth"},
]
RIGHT = {"tower": "Tarn Mast", "stew": "Misk broth"}
INSTRUCTION_WORDS = "If you do not know"


def options_of(text: str) -> list[tuple[str, str]]:
    return re.findall(r"^([A-F])\. (.+)$", text, re.MULTILINE)


def script(messages, params) -> str:
    text = last_user(messages)
    options = options_of(text)
    letter_of = {option: letter for letter, option in options}
    if REFUSAL_OPTION in letter_of and "stew" in text:
        return f"Answer: {letter_of[REFUSAL_OPTION]}"
    right = RIGHT["stew" if "stew" in text else "tower"]
    return f"Answer: {letter_of[right]}"


@pytest.fixture
def mmsap_file(tmp_path: Path) -> Path:
    path = tmp_path / "KnowVisQA.json"
    path.write_text(json.dumps(RECORDS), encoding="utf-8")
    return path


def run(tmp_path: Path, mmsap_file: Path, monkeypatch: pytest.MonkeyPatch, *extra: str) -> tuple[ScriptedModel, Path]:
    model = ScriptedModel(script)
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: model)
    out = tmp_path / "run"
    code = cli.main(["run", "--dataset", f"mmsap:{mmsap_file}", "--strategies", "refusal_option,refusal",
                     "--repeats", "2", "--out", str(out), *extra])
    assert code == 0
    return model, out


def test_the_strategy_offers_refusal_and_runs_only_when_named() -> None:
    spec = get_strategy("refusal_option")
    assert spec.offers_refusal and not spec.samples and spec.reads == ()
    defaults = default_strategies()
    assert "vanilla" in defaults and "refusal" in defaults
    assert "refusal_option" not in defaults and "option_likelihood" not in defaults


@pytest.mark.parametrize("preset", [[], ["--preset", "mmsap"]], ids=["own prompt", "mmsap preset"])
def test_option_offered_without_the_instruction(tmp_path: Path, mmsap_file: Path,
                                               monkeypatch: pytest.MonkeyPatch, preset: list[str]) -> None:
    model, out = run(tmp_path, mmsap_file, monkeypatch, *preset)
    answer_prompts = [last_user(messages) for messages, _ in model.calls if options_of(last_user(messages))]
    with_option = [text for text in answer_prompts if REFUSAL_OPTION in [option for _, option in options_of(text)]]
    if not preset:  # the default order puts the refusal option last; the mmsap preset shuffles it in
        assert all(options_of(text)[-1][1] == REFUSAL_OPTION for text in with_option)
    bare = [text for text in with_option if INSTRUCTION_WORDS not in text]
    instructed = [text for text in with_option if INSTRUCTION_WORDS in text]
    # two questions × two repeats for each strategy; the forced re-asks show four options, no refusal
    assert len(bare) == 4 and len(instructed) == 4
    assert all(len(options_of(text)) == 5 for text in with_option)
    if preset:
        assert all(REFUSAL_CHOICE in text for text in instructed)

    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    grades = {(row["question_id"], row["strategy"], row["repeat"]): row for row in rows}
    for repeat in (0, 1):
        assert grades[("stew", "refusal_option", repeat)]["grade"] == "NOT_ATTEMPTED"
        assert grades[("stew", "refusal_option", repeat)]["forced_grade"] == "CORRECT"
        assert grades[("tower", "refusal_option", repeat)]["grade"] == "CORRECT"
    awareness = json.loads((out / "summary.json").read_text())["self_awareness"]
    assert set(awareness) >= {"refusal_option", "refusal"}
    assert awareness["refusal_option"]["answer_rate"] == pytest.approx(0.5)
