"""MM-SAP-shaped data end to end: refusal given as the refusal option's letter, the forced re-ask
with the options kept, BeyondVisQA graded, and non-null kk / ku / sa.

The model is an OpenAI-compatible server the test starts on 127.0.0.1 (tests/eval/config/test_presets.py's
ScriptedServer); it reads the lettered options it is shown and replies with a letter only. The
questions, options and images are invented; the images are PNGs the test writes.
"""

from __future__ import annotations

import json
import re

import pytest

import factprobe.eval.cli.main as cli
from tests.eval.config.test_presets import ScriptedServer, user_text

PIL = pytest.importorskip("PIL", reason="the questions' images are encoded with Pillow")
from PIL import Image  # noqa: E402

REFUSAL = "Sorry, I can't help with it"
RECORDS = [
    {"id": "basic", "subset": "BasicVisQA", "type": "Color", "image": "basic.png",
     "question": "What colour is the invented kite?",
     "options": {"A": "Teal", "B": REFUSAL, "C": "Amber", "D": "Plum", "E": "Ash"}, "answer": "Amber"},
    {"id": "know-knew", "subset": "KnowVisQA", "type": "Landmarks", "image": "know1.png",
     "question": "Which invented tower is this?",
     "options": {"A": "Velt Spire", "B": "Orin Mast", "C": "Dune Needle", "D": REFUSAL, "E": "Kell Tower"},
     "answer": "Orin Mast"},
    {"id": "know-not", "subset": "KnowVisQA", "type": "Food", "image": "know2.png",
     "question": "Which invented pastry is this?",
     "options": {"A": REFUSAL, "B": "Flarn roll", "C": "Tesk cake", "D": "Vib tart", "E": "Mop bun"},
     "answer": "Tesk cake"},
    {"id": "beyond", "subset": "BeyondVisQA", "type": "Temporal Unpredictability", "image": "beyond.png",
     "question": "What will the invented cyclist eat tomorrow?",
     "options": {"A": "Soup", "B": "Rice", "C": "Bread", "D": "Salad", "E": REFUSAL}, "answer": "E"},
]
# what the scripted model picks: the refusal option whenever it is offered, except on `basic`;
# when forced (no refusal option), the right option on `know-knew` and a wrong one on `know-not`
FORCED = {"Which invented tower is this?": "Orin Mast", "Which invented pastry is this?": "Flarn roll",
          "What will the invented cyclist eat tomorrow?": "Soup", "What colour is the invented kite?": "Amber"}


def script(body: dict) -> str:
    text = user_text(body)
    options = dict((text_, letter) for letter, text_ in re.findall(r"^([A-E])\. (.+)$", text, re.MULTILINE))
    question = next(line for line in text.splitlines() if line.endswith("?"))
    if REFUSAL in options and "kite" not in question:
        return options[REFUSAL]
    return options[FORCED[question]]


def test_refusal_by_letter_is_reasked_with_options_and_scored(tmp_path) -> None:
    data = tmp_path / "mmsap.json"
    data.write_text(json.dumps(RECORDS), encoding="utf-8")
    for record in RECORDS:
        Image.new("RGB", (20, 20), (90, 40, 10)).save(tmp_path / record["image"])
    out = tmp_path / "run"
    with ScriptedServer(script) as server:
        status = cli.main(["run", "--dataset", f"mmsap:{data}", "--preset", "mmsap", "--repeats", "1",
                           "--model", f"openai:scripted@{server.url}", "--out", str(out)])
        chats = server.chats()
    assert status == 0
    rows = {(r["question_id"], r["strategy"]): r
            for r in map(json.loads, (out / "results.jsonl").read_text().splitlines())}
    assert {strategy for _, strategy in rows} == {"vanilla", "refusal"}
    assert rows[("know-not", "refusal")]["grade"] == "NOT_ATTEMPTED"           # the refusal letter
    assert rows[("know-knew", "refusal")]["forced_grade"] == "CORRECT"
    assert rows[("know-not", "refusal")]["forced_grade"] == "INCORRECT"
    assert rows[("beyond", "refusal")]["grade"] == "NOT_ATTEMPTED"             # graded, not UNGRADED
    assert rows[("beyond", "vanilla")]["grade"] == "INCORRECT"
    assert rows[("basic", "refusal")]["grade"] == "CORRECT"
    forced_asks = [c for c in chats if "Which invented pastry" in user_text(c) and REFUSAL not in user_text(c)]
    assert forced_asks and all(re.search(r"^[A-D]\. Tesk cake$", user_text(c), re.MULTILINE) for c in forced_asks)

    scores = json.loads((out / "summary.json").read_text())["self_awareness"]["refusal"]
    assert (scores["known_knowns"], scores["known_unknowns"], scores["unknown_knowns"]) == (1, 2, 1)
    assert scores["score_kk"] == pytest.approx(1 / 4) and scores["score_ku"] == pytest.approx(2 / 4)
    assert scores["score_sa"] == pytest.approx(3 / 4)
    per = scores["per_category"]           # Table 1's columns from the one run over the three subsets
    assert (per["BasicVisQA"]["n"], per["BasicVisQA"]["score_kk"]) == (1, 1.0)
    assert (per["KnowVisQA"]["score_kk"], per["KnowVisQA"]["score_ku"]) == (0.0, 0.5)
    assert per["KnowVisQA"]["unknown_knowns_rate"] == 0.5 and per["BeyondVisQA"]["score_ku"] == 1.0
