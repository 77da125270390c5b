"""`--option-order`: options in the released order (MMWorld, WorldSense) or shuffled per repeat,
the refusal option in the shuffle too (MM-SAP); the preset sets it, the flag wins, rows record it."""

from __future__ import annotations

import json
import re

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.agents.choices import REFUSAL_OPTION, shown_choices, shuffle_key
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.core.schema import Question
from tests.fakes import ScriptedModel, last_user

KITE = Question(id="kite", question="Which colour is the invented kite?",
                choices=["Teal", "Amber", "Plum", "Ash"], answer="Plum", fields={"refusal_option": "B"})


def test_released_order_keeps_the_options_and_puts_the_refusal_option_at_its_released_letter() -> None:
    for repeat in range(4):
        shown = shown_choices(KITE, repeat, seed=5, option_order="released")
        assert shown.options == ("Teal", "Amber", "Plum", "Ash") and shown.gold_letter == "C"
        offered = shown_choices(KITE, repeat, seed=5, offers_refusal=True, option_order="released")
        assert offered.options == ("Teal", REFUSAL_OPTION, "Amber", "Plum", "Ash")
        assert offered.refusal_letter == "B" and offered.gold_letter == "D"
    plain = Question(id="p", question="?", choices=["x", "y"], answer="y")
    assert shown_choices(plain, 0, 0, True, "released").refusal_letter == "C"   # no released letter: last


def test_shuffle_all_moves_the_refusal_option_and_is_reproducible_from_its_key() -> None:
    shown = [shown_choices(KITE, repeat, seed=9, offers_refusal=True, option_order="shuffle-all")
             for repeat in range(12)]
    assert len({s.refusal_letter for s in shown}) > 1            # the refusal option is shuffled too
    assert all(s.option_of(s.refusal_letter) == REFUSAL_OPTION and s.option_of(s.gold_letter) == "Plum"
               for s in shown)
    assert shown[3] == shown_choices(KITE, 3, 9, True, "shuffle-all")
    assert shuffle_key(KITE, 3, 9) == "9/kite/3"
    # the default shuffle keeps the refusal option last
    assert {shown_choices(KITE, r, 9, True, "shuffle").refusal_letter for r in range(12)} == {"E"}
    with pytest.raises(ValueError, match="unknown option order"):
        shown_choices(KITE, 0, 0, option_order="sorted")


def test_presets_set_the_order_and_the_flag_overrides_it() -> None:
    assert RunConfig(preset="mmsap").option_order == "shuffle-all"
    assert RunConfig(preset="mmworld").option_order == "released"
    assert RunConfig(preset="worldsense").option_order == "released"
    assert RunConfig().option_order == "shuffle"
    assert RunConfig(preset="mmsap", option_order="released").option_order == "released"


def test_rows_record_the_order_and_prompts_show_it(tmp_path, monkeypatch) -> None:
    data = tmp_path / "mc.jsonl"
    data.write_text(json.dumps({"id": "kite", "question": KITE.question, "choices": KITE.choices,
                                "answer": "Plum"}) + "\n", encoding="utf-8")

    def script(messages, params) -> str:
        options = dict(re.findall(r"^([A-Z])\. (.+)$", last_user(messages), re.MULTILINE))
        return "Answer: " + {text: letter for letter, text in options.items()}["Plum"]

    model = ScriptedModel(script)
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: model)
    rows = {}
    for order in ("released", "shuffle-all"):
        out = tmp_path / order
        assert cli.main(["run", "--dataset", f"mcq:{data}", "--strategies", "vanilla", "--repeats", "3",
                         "--option-order", order, "--seed", "4", "--out", str(out)]) == 0
        rows[order] = [json.loads(line)["multiple_choice"] for line in (out / "results.jsonl").read_text().splitlines()]
    released = rows["released"]
    assert all(e["options"] == KITE.choices and e["shuffle_key"] is None for e in released)
    assert all(e["option_order"] == "released" and e["letter"] == "C" for e in released)
    shuffled = rows["shuffle-all"]
    assert sorted(e["shuffle_key"] for e in shuffled) == ["4/kite/0", "4/kite/1", "4/kite/2"]
    for entry in shuffled:   # the recorded order is the one the prompt showed
        assert [KITE.choices[i] for i in entry["shown_order"]] == entry["options"]
        assert entry["options"][ord(entry["letter"]) - ord("A")] == "Plum"
