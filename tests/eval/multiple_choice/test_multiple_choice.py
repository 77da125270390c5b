"""Multiple choice: shuffled lettered options, rule-then-model letter mapping, grading, loaders."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.agents.choices import REFUSAL_OPTION, presented_question, shown_choices
from factprobe.eval.core.errors import DatasetError
from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.datasets.registry import load_dataset
from factprobe.eval.multiple_choice.mapping import choice_grade, letter_by_rules, parse_mapper_reply
from factprobe.eval.store.run_dir import RunDir
from tests.fakes import ScriptedModel, last_user

PLANETS = Question(id="planet", question="Which planet has the shortest year?",
                   choices=["Venus", "Mercury", "Mars", "Earth"], answer="Mercury")


def test_order_is_fixed_by_seed_question_and_repeat_and_the_gold_letter_follows_it() -> None:
    first = shown_choices(PLANETS, repeat=0, seed=7)
    assert first == shown_choices(PLANETS, repeat=0, seed=7)
    orders = {shown_choices(PLANETS, repeat, seed=7).order for repeat in range(8)}
    assert len(orders) > 1                                   # repeats see other orders
    for repeat in range(8):
        shown = shown_choices(PLANETS, repeat, seed=7)
        assert shown.option_of(shown.gold_letter) == "Mercury"
        assert [PLANETS.choices[i] for i in shown.order] == list(shown.options)


def test_refusal_option_is_an_extra_last_choice() -> None:
    shown = shown_choices(PLANETS, 0, seed=1, offers_refusal=True)
    assert shown.options[-1] == REFUSAL_OPTION and shown.refusal_letter == "E" and shown.order[-1] == -1
    text = presented_question(PLANETS, 0, 1, offers_refusal=True)
    assert "E. Sorry, I can't help with it" in text and text.startswith(PLANETS.question)
    assert presented_question(Question(id="q", question="Plain?", answer="x"), 0, 1) == "Plain?"


@pytest.fixture
def shown():
    return shown_choices(PLANETS, 0, seed=3)


@pytest.mark.parametrize("reply, expected", [
    ("{gold}", "{gold}"), ("({low})", "{gold}"), ("{gold}.", "{gold}"), ("Answer: {low}", "{gold}"),
    ("The answer is ({gold})", "{gold}"), ("Option {gold}", "{gold}"), ("{gold}. Mercury", "{gold}"),
    ("mercury.", "{gold}"), ("{gold}. Venus", None), ("Z", None), ("I think it is {gold}", None),
    ("Pluto", None), ("", None),
])
def test_rules_map_letters_and_option_texts(shown, reply, expected) -> None:
    fill = dict(gold=shown.gold_letter, low=shown.gold_letter.lower())
    want = expected.format(**fill) if expected else None
    assert letter_by_rules(reply.format(**fill), shown) == want


def test_mapper_reply_is_read_by_the_same_rules(shown) -> None:
    gold, other = shown.gold_letter, next(letter for letter in shown.letters if letter != shown.gold_letter)
    assert parse_mapper_reply(f"{other}\n", shown) == other
    assert parse_mapper_reply(f"{gold}. Mercury\nbecause…", shown) == gold
    assert parse_mapper_reply(f"{other}. Mercury", shown) is None           # letter and text disagree
    assert parse_mapper_reply("NONE", shown) is None
    assert parse_mapper_reply("Z", shown) is None
    assert parse_mapper_reply(f"It picks {gold} because...", shown) is None


def test_grades_follow_the_letter_and_refusals() -> None:
    shown = shown_choices(PLANETS, 0, seed=3, offers_refusal=True)
    wrong = next(letter for letter in shown.letters[:-1] if letter != shown.gold_letter)
    assert choice_grade(shown.gold_letter, "x", shown) is Grade.CORRECT
    assert choice_grade(wrong, "x", shown) is Grade.INCORRECT
    assert choice_grade(shown.refusal_letter, REFUSAL_OPTION, shown) is Grade.NOT_ATTEMPTED
    assert choice_grade(None, "I don't know", shown) is Grade.NOT_ATTEMPTED
    assert choice_grade(None, "Pluto", shown) is Grade.INCORRECT


def write_lines(tmp_path: Path, records: list[dict], name: str = "mc.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


MCQ = [
    {"id": "planet", "question": PLANETS.question, "choices": PLANETS.choices, "answer": "B"},
    {"id": "metal", "question": "Which metal is liquid at room temperature?",
     "choices": ["Iron", "Mercury", "Lead"], "answer": "Mercury", "category": "chemistry"},
    {"id": "ocean", "question": "Which ocean is the largest?",
     "choices": ["Atlantic", "Indian", "Pacific", "Arctic"], "answer": "c"},
]


def test_mcq_loader_accepts_letters_and_texts_and_rejects_other_answers(tmp_path) -> None:
    questions = load_dataset(f"mcq:{write_lines(tmp_path, MCQ)}").questions
    assert [q.answer for q in questions] == ["Mercury", "Mercury", "Pacific"]
    assert questions[1].category == "chemistry" and questions[0].choices == PLANETS.choices
    bad = write_lines(tmp_path, [{**MCQ[0], "answer": "Pluto"}], "bad.jsonl")
    with pytest.raises(DatasetError, match="line 1: field `answer`"):
        load_dataset(f"mcq:{bad}")


def test_mmworld_loader_reads_the_documented_shape(tmp_path) -> None:
    video = {"video_id": "sci_vid7", "video_url": "https://example.org/v", "discipline": "Science",
             "subdiscipline": "Physics", "captions": ["A ball rolls down a slope."],
             "questions": [{"type": "Prediction", "question": "What happens next to the ball?",
                            "options": {"a": "It stops", "b": "It keeps rolling", "c": "It rises"},
                            "answer": "It keeps rolling", "requires_domain_knowledge": False,
                            "requires_audio": False, "requires_visual": True, "question_only": False,
                            "correct_answer_label": "b"}]}
    path = tmp_path / "mmworld.json"
    path.write_text(json.dumps([video]), encoding="utf-8")
    [question] = load_dataset(f"mmworld:{path}").questions
    assert question.id == "mmworld-sci_vid7-1" and question.media_id == "sci_vid7"
    assert question.choices == ["It stops", "It keeps rolling", "It rises"] and question.answer == "It keeps rolling"
    assert question.category == "Science"
    video["questions"][0]["answer"] = "It stops"          # the label is the gold; the mismatch is named
    path.write_text(json.dumps([video]), encoding="utf-8")
    dataset = load_dataset(f"mmworld:{path}")
    assert dataset.questions[0].answer == "It keeps rolling"
    assert any("record 1, question 1" in note and "'It stops'" in note for note in dataset.notes)


def test_worldsense_loader_strips_option_letters(tmp_path) -> None:
    data = {"vid01": {"video_id": "vid01", "domain": "Music", "sub_category": "Concert", "duration": "<1min",
                      "audio_class": ["Music"], "video_caption": "A choir sings.",
                      "task1": {"task_domain": "Recognition", "task_type": "Audio Recognition",
                                "question": "Which instrument plays first?",
                                "candidates": ["A. Piano", "B. Organ", "C. Violin", "D. Drum"], "answer": "B"},
                      "task0": {"task_domain": "Understanding", "task_type": "Counting",
                                "question": "How many singers are there?",
                                "candidates": ["A. 3", "B. 5", "C. 8", "D. 12"], "answer": "C"}}}
    path = tmp_path / "worldsense_qa.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    questions = load_dataset(f"worldsense:{path}").questions
    assert [q.id for q in questions] == ["worldsense-vid01-task0", "worldsense-vid01-task1"]
    assert questions[1].choices == ["Piano", "Organ", "Violin", "Drum"] and questions[1].answer == "Organ"
    assert questions[0].answer == "8" and questions[0].category == "Music" and questions[0].media_id == "vid01"


GOLD = {"planet": "Mercury", "metal": "Mercury", "ocean": "Pacific"}


def script(messages, params) -> str:
    text = last_user(messages)
    if text.startswith("A reply to a multiple-choice question"):
        return "C"                                           # the mapper: picks C, right or wrong
    options = dict(re.findall(r"^([A-Z])\. (.+)$", text, re.MULTILINE))
    letter = {v: k for k, v in options.items()}
    if "Which metal" in text:
        return "Answer: I'd say it is quicksilver, not lead\nConfidence: 40"   # rules fail: model maps
    if "Which ocean" in text and REFUSAL_OPTION in options.values():
        return f"Answer: {REFUSAL_OPTION}\nConfidence: 0"
    gold = GOLD["planet" if "planet" in text else "ocean"]
    return f"Answer: {letter[gold]}\nConfidence: 80"


def is_mapping(messages) -> bool:
    return last_user(messages).startswith("A reply to a multiple-choice question")


def test_run_grades_by_letter_and_reports_accuracy_beside_chance(tmp_path, monkeypatch, capsys) -> None:
    """Answers no rule maps are mapped by the run's judge, never by the model under test."""
    model, judge = ScriptedModel(script), ScriptedModel(script, name="judge-model")
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: model)
    monkeypatch.setattr(pipeline, "load_judge", lambda spec, **kwargs: judge)
    out = tmp_path / "run"
    assert cli.main(["run", "--dataset", f"mcq:{write_lines(tmp_path, MCQ)}", "--strategies",
                     "vanilla,refusal", "--judge", "openai:judge-model", "--grader", "rules",
                     "--out", str(out), "--verbose"]) == 0
    assert not any(is_mapping(messages) for messages, _ in model.calls)
    assert [is_mapping(messages) for messages, _ in judge.calls] == [True, True]   # metal, per strategy
    manifest = json.loads((out / "manifest.json").read_text())["multiple_choice"]
    assert manifest["mapper"]["name"] == "judge-model" and manifest["option_order"] == "shuffle"
    rows = {(r.question_id, r.strategy): r for r in RunDir(out).read_results()}
    planet = rows[("planet", "vanilla")].multiple_choice
    assert planet["options_in_prompt"] and planet["mapped_by"] == "rule"
    assert [PLANETS.choices[i] for i in planet["shown_order"]] == planet["options"]
    assert planet["options"][ord(planet["gold_letter"]) - ord("A")] == "Mercury"
    assert rows[("planet", "vanilla")].grade is Grade.CORRECT
    metal = rows[("metal", "vanilla")]
    assert metal.multiple_choice["mapped_by"] == "model"
    assert metal.multiple_choice["mapper_model"] == "judge-model"
    assert "mapped by model (judge-model)" in metal.grade_note
    assert metal.grade is (Grade.CORRECT if metal.multiple_choice["gold_letter"] == "C"
                           else Grade.INCORRECT)
    assert metal.llm_calls == 1                              # the mapping call is not strategy cost
    assert rows[("ocean", "refusal")].grade is Grade.NOT_ATTEMPTED
    assert rows[("ocean", "refusal")].multiple_choice["refusal_letter"] == "E"
    summary = json.loads((out / "summary.json").read_text())["multiple_choice"]
    assert summary["vanilla"]["n"] == 3 and summary["vanilla"]["mapped_by_rule"] == 2
    assert summary["vanilla"]["mapped_by_model"] == 1 and summary["vanilla"]["unmapped"] == 0
    assert summary["vanilla"]["chance"] == pytest.approx((1 / 4 + 1 / 3 + 1 / 4) / 3)
    assert summary["refusal"]["refused"] == 1
    assert (out / "multiple_choice.png").is_file()
    assert "Multiple choice" in capsys.readouterr().out


def free_form(messages, params) -> str:
    """Replies as free-form models give them: the option's text after a phrase no rule reads."""
    text = last_user(messages)
    if "Which planet" in text:
        return "Answer: B. Mercury" if "B. Mercury" in text else "Answer: Mercury"    # a rule maps it
    if "Which metal" in text:
        return "Answer: I believe the right one is: Mercury\nConfidence: 70"      # no rule: the gold's text
    return "Answer: I believe the right one is: the Atlantic\nConfidence: 60"       # no rule: a wrong one


@pytest.mark.parametrize("with_judge", [False, True], ids=["no judge", "judge"])
def test_every_question_is_scored_and_unmapped_replies_are_counted(tmp_path, monkeypatch, with_judge) -> None:
    """Without a judge a reply no rule maps is wrong (as the benchmarks score it) and counted as
    unmapped, so accuracy's denominator is every question; with one, the judge maps it."""
    judge = ScriptedModel(lambda m, p: "NONE", name="judge-model")
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: ScriptedModel(free_form))
    monkeypatch.setattr(pipeline, "load_judge", lambda spec, **kwargs: judge)
    out = tmp_path / "run"
    extra = ["--judge", "openai:judge-model", "--grader", "rules"] if with_judge else []
    assert cli.main(["run", "--dataset", f"mcq:{write_lines(tmp_path, MCQ)}", "--strategies", "vanilla",
                     "--option-order", "released", "--out", str(out), *extra]) == 0
    rows = {r.question_id: r for r in RunDir(out).read_results()}
    assert rows["planet"].grade is Grade.CORRECT
    assert {rows[key].grade for key in ("metal", "ocean")} == {Grade.INCORRECT}
    assert [is_mapping(messages) for messages, _ in judge.calls] == [True, True] * with_judge
    if not with_judge:
        assert "counted wrong" in rows["metal"].grade_note
        assert rows["metal"].multiple_choice["mapped_by"] is None
    summary = json.loads((out / "summary.json").read_text())
    choices = summary["multiple_choice"]["vanilla"]
    assert (choices["n"], choices["accuracy"], choices["unmapped"]) == (3, pytest.approx(1 / 3), 2)
    assert choices["mapped_by_rule"] == 1 and choices["model_asked"] == 2 * with_judge
    assert summary["strategies"]["vanilla"]["accuracy"] == pytest.approx(1 / 3)


def test_native_jsonl_gold_must_be_one_of_the_choices(tmp_path) -> None:
    """A gold outside the choices could only ever be graded INCORRECT: refused at load time."""
    from factprobe.eval.core.errors import DatasetError
    from factprobe.eval.datasets.registry import load_dataset

    path = tmp_path / "mc.jsonl"
    path.write_text('{"id": "p", "question": "Largest planet?", "answer": "jupiter", '
                    '"choices": ["Mars", "Jupiter", "Venus"]}\n', encoding="utf-8")
    with pytest.raises(DatasetError, match=r"line 1.*answer.*not one of the `choices`"):
        load_dataset(f"jsonl:{path}")


def test_a_failed_mapping_call_is_ungraded_and_asked_again_on_resume(tmp_path, monkeypatch) -> None:
    """A mapper that errors must not turn the answer into INCORRECT."""
    from factprobe.agents.models.base import ModelError

    failing = {"on": True}

    def flaky(messages, params):
        if last_user(messages).startswith("A reply to a multiple-choice question") and failing["on"]:
            raise ModelError("mapper unreachable")
        return script(messages, params)

    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: ScriptedModel(script))
    monkeypatch.setattr(pipeline, "load_judge", lambda spec, **kwargs: ScriptedModel(flaky))
    out = tmp_path / "run"
    cli.main(["run", "--dataset", f"mcq:{write_lines(tmp_path, MCQ)}", "--strategies", "vanilla",
              "--judge", "openai:judge-model", "--grader", "rules", "--out", str(out), "--max-error-rate", "1"])
    metal = [r for r in RunDir(out).read_results() if r.question_id == "metal"][-1]
    assert metal.grade is Grade.UNGRADED and "mapping the answer" in metal.grade_note
    assert "multiple_choice" in metal.post_step_errors
    failing["on"] = False
    assert cli.main(["run", "--resume", "--out", str(out), "--judge", "openai:judge-model"]) == 0
    again = [r for r in RunDir(out).read_results() if r.question_id == "metal"][-1]
    assert again.grade in (Grade.CORRECT, Grade.INCORRECT)
    assert again.multiple_choice["mapped_by"] == "model"


@pytest.mark.parametrize("strategy", ["best_of_n", "self_refine"])
def test_sampling_strategies_show_the_options_in_every_prompt(tmp_path, monkeypatch, strategy) -> None:
    model = ScriptedModel(script)
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: model)
    out = tmp_path / "run"
    assert cli.main(["run", "--dataset", f"mcq:{write_lines(tmp_path, MCQ)}", "--strategies", strategy,
                     "--samples", "2", "--rounds", "1", "--out", str(out)]) == 0
    asked = [last_user(messages) for messages, _ in model.calls
             if not last_user(messages).startswith("A reply to a multiple-choice question")]
    assert len(asked) > 3 and all("Options:\nA. " in text for text in asked)
    rows = RunDir(out).read_results()
    assert rows and all(row.multiple_choice["options_in_prompt"] for row in rows)


@pytest.mark.parametrize("mapping_reply, grade", [("NONE", Grade.INCORRECT), ("Hard to say, maybe.", Grade.UNGRADED)],
                         ids=["none of the options", "unreadable"])
def test_a_mapping_reply_that_names_no_option_is_incorrect_only_when_it_says_none(
        tmp_path, monkeypatch, mapping_reply: str, grade: Grade) -> None:
    """NONE decides (the answer chose no option: INCORRECT); any other reply without a letter decides nothing."""
    def judge_script(messages, params):
        return mapping_reply if is_mapping(messages) else script(messages, params)

    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: ScriptedModel(script))
    monkeypatch.setattr(pipeline, "load_judge", lambda spec, **kwargs: ScriptedModel(judge_script, name="judge-model"))
    out = tmp_path / "run"
    cli.main(["run", "--dataset", f"mcq:{write_lines(tmp_path, MCQ)}", "--strategies", "vanilla",
              "--judge", "openai:judge-model", "--grader", "rules", "--out", str(out), "--max-error-rate", "1"])
    metal = next(r for r in RunDir(out).read_results() if r.question_id == "metal")
    assert metal.grade is grade
    assert ("unreadable mapping reply" in metal.grade_note) == (grade is Grade.UNGRADED)
