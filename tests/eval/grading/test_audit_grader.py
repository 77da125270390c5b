"""`factprobe audit-grader`: loading labelled cases, the agreement statistics and the command."""

from __future__ import annotations

import json
import re
import socket
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

import factprobe.eval.cli.audit as audit_command
import factprobe.eval.cli.main as cli
import factprobe.eval.grading.judge_loader as judge_loader
from factprobe.eval.core import text_files
from factprobe.eval.grading.audit import CasesError, cohen_kappa, load_cases
from tests.fakes import ScriptedModel, last_user, peak_bytes_raising

# (answer, label, the grade the scripted judge gives, case type)
CASES = [
    ("Paris", "CORRECT", "CORRECT", "exact"),
    ("Paris, France", "CORRECT", "CORRECT", "exact"),
    ("the French capital city", "CORRECT", "NOT_ATTEMPTED", "paraphrase"),
    ("Lyon", "INCORRECT", "INCORRECT", "wrong"),
    ("Either Lyon or Paris", "INCORRECT", "CORRECT", "list"),
    ("Not Paris; Lyon", "INCORRECT", "INCORRECT", "negation"),
    ("I'm not sure. Maybe Lyon?", "INCORRECT", "UNGRADED", "hedge"),
    ("I don't know", "NOT_ATTEMPTED", "NOT_ATTEMPTED", "refusal"),
    ("I can't recall that", "NOT_ATTEMPTED", "INCORRECT", "refusal"),
    ("Somewhere in Europe, I can't say where", "NOT_ATTEMPTED", "NOT_ATTEMPTED", "vague"),
]
SCRIPTED = {answer: grade for answer, _, grade, _ in CASES}


def write_cases(path: Path) -> Path:
    lines = [{"question": "Which city is the capital of France?", "gold": ["Paris", "Paree"], "answer": answer,
              "label": label, "case_type": case_type} for answer, label, _, case_type in CASES]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def judge_script(messages, params) -> str:
    prompt = last_user(messages)
    answer = prompt.split("Answer to grade: ", 1)[1].split("\n", 1)[0]
    grade = SCRIPTED[answer]
    return "I cannot decide." if grade == "UNGRADED" else f"Scripted verdict.\nGrade: {grade}"


@pytest.fixture
def judge(monkeypatch: pytest.MonkeyPatch) -> ScriptedModel:
    model = ScriptedModel(judge_script)
    monkeypatch.setattr(judge_loader, "load_model", lambda spec, **kwargs: model)
    return model


def audit_json(capsys, *args: str) -> dict:
    assert cli.main(["audit-grader", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_audit_json_matches_the_labels_and_sklearn(tmp_path, judge, capsys) -> None:
    path = write_cases(tmp_path / "cases.jsonl")
    result = audit_json(capsys, str(path), "--judge", "local")
    labels = [label for _, label, _, _ in CASES]
    grades = [grade for _, _, grade, _ in CASES]
    assert {"n", "agreement", "kappa", "undecided", "confusion", "per_type"} <= set(result)
    assert result["n"] == 10 and len(judge.calls) == 10 and result["judge_calls"] == 10
    assert result["agreement"] == pytest.approx(np.mean([a == b for a, b in zip(labels, grades)]))
    assert result["agreement"] == pytest.approx(0.6)
    assert result["kappa"] == pytest.approx(cohen_kappa_score(labels, grades))
    assert result["undecided"] == 1
    assert result["confusion"]["INCORRECT"] == {"CORRECT": 1, "INCORRECT": 2, "NOT_ATTEMPTED": 0, "UNGRADED": 1}
    assert result["confusion"]["CORRECT"]["NOT_ATTEMPTED"] == 1
    assert sum(sum(row.values()) for row in result["confusion"].values()) == 10
    assert result["per_type"]["exact"] == {"n": 2, "agreement": 1.0}
    assert result["per_type"]["refusal"] == {"n": 2, "agreement": 0.5}
    assert result["per_type"]["hedge"] == {"n": 1, "agreement": 0.0}
    # over-credit: of the 7 cases labelled not-CORRECT, one ("Either Lyon or Paris") was graded CORRECT
    assert result["over_credit"] == pytest.approx(1 / 7) and result["over_credit_n"] == 1
    assert result["grader"]["grader"] == "judge:scripted"


def test_error_figures_and_f_delta_follow_from_the_confusion(tmp_path, judge, capsys) -> None:
    path = write_cases(tmp_path / "cases.jsonl")
    result = audit_json(capsys, str(path), "--judge", "local")
    labels = [label for _, label, _, _ in CASES]
    grades = [grade for _, _, grade, _ in CASES]
    decided = [(label, grade) for label, grade in zip(labels, grades) if grade != "UNGRADED"]
    assert result["decided_agreement"] == pytest.approx(np.mean([a == b for a, b in decided]))
    # of the 3 CORRECT labels, one ("the French capital city") was graded NOT_ATTEMPTED
    assert result["under_credit"] == pytest.approx(1 / 3) and result["under_credit_n"] == 1
    assert result["undecided"] == 1 and result["undecided_share"] == pytest.approx(0.1)

    def f(codes: list[str]) -> float:
        return 2 * codes.count("CORRECT") / (len(codes) + sum(code != "NOT_ATTEMPTED" for code in codes))

    resolved = [label if grade == "UNGRADED" else grade for label, grade in zip(labels, grades)]
    assert result["f_labels"] == pytest.approx(f(labels)) and result["f_grades"] == pytest.approx(f(resolved))
    assert result["f_delta"] == pytest.approx(f(resolved) - f(labels))
    # one question: the cluster bootstrap resamples it whole, so the interval is the point itself
    assert result["f_delta_ci_low"] == pytest.approx(result["f_delta"])
    assert result["f_delta_ci_high"] == pytest.approx(result["f_delta"])


def test_f_decided_is_f_of_the_grades_the_grader_gave(tmp_path, judge, capsys) -> None:
    """The 9 decided cases (the hedge is UNGRADED): 3 CORRECT, 3 INCORRECT, 3 NOT_ATTEMPTED graded,
    so F = 2·3 / (9 + 6) = 0.4; no label enters it."""
    path = write_cases(tmp_path / "cases.jsonl")
    result = audit_json(capsys, str(path), "--judge", "local")
    assert result["f_decided"] == pytest.approx(2 * 3 / (9 + 6))
    assert result["f_decided"] != pytest.approx(result["f_grades"])   # f_grades resolves the hedge by its label
    assert cli.main(["audit-grader", str(path), "--judge", "local"]) == 0
    assert "F over the decided cases alone 40.0" in " ".join(capsys.readouterr().out.split())


def test_f_delta_interval_resamples_questions(tmp_path, capsys) -> None:
    lines = [{"question": f"Which number is {n}?", "gold": str(n), "answer": answer, "label": label, "form": form}
             for n in range(1, 31)
             for answer, label, form in ((str(n), "CORRECT", "short"), (str(n + 1), "INCORRECT", "short"),
                                         ("I don't know", "CORRECT" if n % 3 else "NOT_ATTEMPTED", "paragraph"))]
    path = tmp_path / "cases.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    result = audit_json(capsys, str(path), "--grader", "rules")
    assert result["f_delta"] < 0
    assert result["f_delta_ci_low"] < result["f_delta"] < result["f_delta_ci_high"]
    assert set(result["per_form"]) == {"short", "paragraph"}
    assert result["per_form"]["short"]["n"] == 60 and result["per_form"]["paragraph"]["under_credit"] == 1.0


def test_per_case_file_holds_each_case_with_its_grade(tmp_path, judge, capsys) -> None:
    path = write_cases(tmp_path / "cases.jsonl")
    out = tmp_path / "graded" / "per_case.jsonl"
    out.parent.mkdir()
    result = audit_json(capsys, str(path), "--judge", "local", "--per-case", str(out))
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == result["n"] == 10
    assert [row["answer"] for row in rows] == [answer for answer, _, _, _ in CASES]
    assert [row["grade"] for row in rows] == [grade for _, _, grade, _ in CASES]
    assert rows[0]["gold"] == ["Paris", "Paree"] and rows[0]["case_type"] == "exact"
    assert all(row["grader"] == "judge:scripted" and row["grade_note"] for row in rows)


def test_per_case_file_that_cannot_be_written_exits_2_after_the_audit(tmp_path, capsys) -> None:
    path = write_cases(tmp_path / "cases.jsonl")
    assert cli.main(["audit-grader", str(path), "--json", "--per-case", str(tmp_path / "no" / "dir" / "x.jsonl")]) == 2
    captured = capsys.readouterr()
    assert json.loads(captured.out)["n"] == 10 and "--per-case" in captured.err


def test_audit_with_the_rule_grader_is_self_consistent(tmp_path, capsys) -> None:
    path = write_cases(tmp_path / "cases.jsonl")
    result = audit_json(capsys, str(path), "--grader", "rules")
    assert result["n"] == 10 and result["judge_calls"] == 0
    agreed = sum(result["confusion"][label][label] for label in result["confusion"])
    assert result["agreement"] == pytest.approx(agreed / 10)
    assert result["undecided"] == sum(row["UNGRADED"] for row in result["confusion"].values())
    assert result["grading"]["judge_decided"] == 0


def test_human_readable_audit_prints_the_tables(tmp_path, judge, capsys) -> None:
    path = write_cases(tmp_path / "cases.jsonl")
    assert cli.main(["audit-grader", str(path), "--judge", "local"]) == 0
    out = capsys.readouterr().out
    assert "agreement 60.0%" in out and "Cohen's kappa" in out and "over-credit 14.3%" in out
    assert "UNGRADED" in out and "per case type" in out and "negation" in out


def test_no_cases_argument_audits_the_shipped_set(tmp_path, monkeypatch, capsys) -> None:
    shipped = write_cases(tmp_path / "grading_cases.jsonl")
    monkeypatch.setattr(audit_command, "builtin_cases_path", lambda: shipped)
    assert audit_json(capsys)["n"] == 10
    assert audit_json(capsys, "--cases", "builtin")["cases"] == str(shipped)


def test_cascade_asks_the_judge_only_for_undecided_cases(tmp_path, judge, capsys) -> None:
    path = write_cases(tmp_path / "cases.jsonl")
    rules = audit_json(capsys, str(path), "--grader", "rules")
    cascade = audit_json(capsys, str(path), "--grader", "cascade", "--judge", "local")
    assert cascade["judge_calls"] == len(judge.calls) == rules["undecided"]
    assert cascade["grading"]["rules_decided"] == 10 - rules["undecided"]


@pytest.mark.parametrize("line, field", [
    ('{"question": "Q?", "gold": "A", "answer": "A", "label": "RIGHT"}', "label"),
    ('{"question": "Q?", "gold": "A", "label": "CORRECT"}', "answer"),
    ('{"question": "Q?", "gold": [], "answer": "A", "label": "CORRECT"}', "gold"),
    ('{"question": "Q?", "gold": 7, "answer": "A", "label": "CORRECT"}', "gold"),
    ('{"question": "", "gold": "A", "answer": "A", "label": "CORRECT"}', "question"),
    ('{"question": "Q?", "gold": "A", "answer": "A", "label": ', "(whole line)"),
    ('["Q?", "A"]', "(whole line)"),
])
def test_bad_input_exits_2_naming_file_line_and_field(tmp_path, capsys, line: str, field: str) -> None:
    path = tmp_path / "bad.jsonl"
    good = '{"question": "Q?", "gold": null, "answer": "I don\'t know", "label": "NOT_ATTEMPTED"}'
    path.write_text(f"{good}\n\n{line}\n", encoding="utf-8")
    assert cli.main(["audit-grader", str(path), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert str(path) in captured.err and "line 3" in captured.err and f"field `{field}`" in captured.err
    assert "Traceback" not in captured.err and captured.err.count("\n") == 1


def test_missing_file_and_cascade_without_judge_exit_2(tmp_path, capsys) -> None:
    assert cli.main(["audit-grader", str(tmp_path / "absent.jsonl")]) == 2
    assert "absent.jsonl" in capsys.readouterr().err
    path = write_cases(tmp_path / "cases.jsonl")
    assert cli.main(["audit-grader", str(path), "--grader", "cascade"]) == 2
    assert "needs a judge model" in capsys.readouterr().err


def test_null_gold_is_an_unanswerable_question(tmp_path) -> None:
    path = tmp_path / "cases.jsonl"
    path.write_text('{"question": "Q?", "gold": null, "answer": "Rex", "label": "INCORRECT"}\n', encoding="utf-8")
    [loaded] = load_cases(path)
    assert not loaded.question.answerable and loaded.question.answer is None
    assert loaded.case.case_type == "untyped"


LIMIT = 256 * 1024     # text_files.MAX_LINE_BYTES lowered, so the long line stays a few MB
HUGE = 6 * 2**20
GOOD_CASE = '{"question": "Q?", "gold": "Paris", "answer": "Paris", "label": "CORRECT"}\n'


def long_case_file(path: Path) -> Path:
    """A good case, then line 2: a case whose answer runs to HUGE bytes (24 times the lowered limit)."""
    with path.open("wb") as handle:
        handle.write(GOOD_CASE.encode() + b'{"question": "Q?", "gold": "Paris", "answer": "')
        for _ in range(HUGE // 2**16):
            handle.write(b"x" * 2**16)
        handle.write(b'", "label": "CORRECT"}\n')
    return path


def test_a_case_line_over_the_limit_exits_2_naming_file_and_line(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setattr(text_files, "MAX_LINE_BYTES", LIMIT)
    path = long_case_file(tmp_path / "cases.jsonl")
    assert cli.main(["audit-grader", str(path), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err and captured.err.count("\n") == 1
    assert f"cannot read grading cases from {path}, line 2: longer than {LIMIT:,} bytes" in captured.err


def test_the_long_case_line_is_not_read_whole(tmp_path, monkeypatch) -> None:
    """Python's allocations while loading stay far below the line's size."""
    monkeypatch.setattr(text_files, "MAX_LINE_BYTES", LIMIT)
    path = long_case_file(tmp_path / "cases.jsonl")
    peak = peak_bytes_raising(lambda: load_cases(path), CasesError, "line 2: longer than")
    assert peak < HUGE / 4, f"peak {peak:,} bytes"


def test_a_case_line_that_is_not_utf8_is_named(tmp_path) -> None:
    path = tmp_path / "cases.jsonl"
    path.write_bytes(GOOD_CASE.encode() + b'{"question": "Q?", "gold": "A", "answer": "\xe9", "label": "CORRECT"}\n')
    with pytest.raises(CasesError, match=re.escape(f"cannot read grading cases from {path}, line 2: not UTF-8")):
        load_cases(path)


def test_an_empty_or_blank_case_file_holds_no_grading_cases(tmp_path) -> None:
    for text in ("", "\n  \n\n"):
        path = tmp_path / "cases.jsonl"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(CasesError, match=re.escape(f"{path} holds no grading cases")):
            load_cases(path)


def test_a_good_case_file_loads_as_before(tmp_path) -> None:
    """Every case with its line (blank lines counted, CRLF endings read) and its fields as written."""
    path = tmp_path / "cases.jsonl"
    path.write_bytes(GOOD_CASE.encode() + b"\n" +
                     b'{"question": "Q2?", "gold": ["A", "B"], "answer": null, "label": "NOT_ATTEMPTED", '
                     b'"case_type": "refusal", "note": 1}\r\n')
    first, second = load_cases(path)
    assert (first.line, first.question.answer, first.case.label) == (1, "Paris", "CORRECT")
    assert (second.line, second.question.answer, second.question.aliases) == (3, "A", ["B"])
    assert second.fields["note"] == 1 and second.case.case_type == "refusal" and second.question.id == "case-3"


@pytest.mark.parametrize("seed", range(5))
def test_kappa_matches_sklearn(seed: int) -> None:
    rng = np.random.default_rng(seed)
    grades = ["CORRECT", "INCORRECT", "NOT_ATTEMPTED", "UNGRADED"]
    first = list(rng.choice(grades[:3], size=60))
    second = [a if rng.random() < 0.6 else str(rng.choice(grades)) for a in first]
    assert cohen_kappa(first, second) == pytest.approx(cohen_kappa_score(first, second))


def test_kappa_is_none_when_chance_agreement_is_total() -> None:
    assert cohen_kappa(["CORRECT"] * 4, ["CORRECT"] * 4) is None


def test_progress_bar_keeps_json_output_clean(tmp_path, judge, capsys) -> None:
    path = write_cases(tmp_path / "cases.jsonl")
    path.write_text(path.read_text(encoding="utf-8") * 3, encoding="utf-8")  # 30 cases: the bar is drawn
    result = audit_json(capsys, str(path), "--judge", "local")
    assert result["n"] == 30 and result["agreement"] == pytest.approx(0.6) and len(judge.calls) == 30


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize("command", ["audit-grader", "taxonomy"])
def test_a_dead_judge_stops_the_command_naming_it(tmp_path, capsys, command: str) -> None:
    """The judge is reached before anything is graded: a closed port on 127.0.0.1 exits 2 with a
    message naming the judge, instead of an audit of UNGRADED grades reported as 0% agreement."""
    judge = f"openai:x@http://127.0.0.1:{closed_port()}/v1"
    if command == "audit-grader":
        args = ["audit-grader", str(write_cases(tmp_path / "cases.jsonl")), "--judge", judge, "--no-cache"]
    else:
        run = tmp_path / "run"
        run.mkdir()
        (run / "manifest.json").write_text(json.dumps({"config": {}}), encoding="utf-8")
        args = ["taxonomy", str(run), "--judge", judge, "--no-cache"]
    assert cli.main(args) == 2
    captured = capsys.readouterr()
    assert f"--judge {judge} could not be reached" in captured.err and "Traceback" not in captured.err
    assert "agreement" not in captured.out


def test_an_audit_that_decides_no_case_is_not_a_result(tmp_path, monkeypatch, capsys) -> None:
    """A judge that answers the start-up check and then fails every call: exit 1, not 0% and 0."""
    from factprobe.agents.models.base import ModelError

    def dead(messages, params) -> str:
        raise ModelError("server went away")

    monkeypatch.setattr(judge_loader, "load_model", lambda spec, **kwargs: ScriptedModel(dead))
    path = write_cases(tmp_path / "cases.jsonl")
    assert cli.main(["audit-grader", str(path), "--judge", "scripted", "--json"]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out)["undecided"] == 10
    assert "judge:scripted decided none of the 10 cases" in captured.err and "server went away" in captured.err
