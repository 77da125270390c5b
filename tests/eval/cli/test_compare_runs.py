"""`factprobe compare A B` for two one-strategy runs whose strategies have different names (run a
only `vanilla`, run b only `refusal`, as papers compare models): the JSON pair, the HTML page's
questions whose grade differs, every run in the figures (in `<stem>_files/`), and `--where` and
`--group-by` narrowing the table, the pairs and the figures as `report` reads them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
from factprobe.eval.core.schema import Question
from tests.eval.report.test_cross_run import make_run, scripted

ANSWERS = {"cap-france": ("Which city is the capital of France?", "Paris", "capitals"),
           "cap-italy": ("Which city is the capital of Italy?", "Rome", "capitals"),
           "cap-spain": ("Which city is the capital of Spain?", "Madrid", "capitals"),
           "sym-gold": ("What is the chemical symbol for gold?", "Au", "elements"),
           "sym-silver": ("What is the chemical symbol for silver?", "Ag", "elements"),
           "sym-iron": ("What is the chemical symbol for iron?", "Fe", "elements"),
           "riv-nile": ("Which river flows through Cairo?", "Nile", "rivers"),
           "riv-seine": ("Which river flows through Paris?", "Seine", "rivers"),
           "riv-thames": ("Which river flows through London?", "Thames", "rivers")}
QUESTIONS = [Question(id=qid, question=text, answer=gold, category=category,
                      fields={"difficulty": "easy" if index % 2 == 0 else "hard"})
             for index, (qid, (text, gold, category)) in enumerate(ANSWERS.items())]
A_RIGHT = {"cap-france", "cap-italy", "sym-gold", "riv-nile", "riv-seine"}
B_RIGHT = {"cap-france", "cap-spain", "sym-gold", "sym-silver", "riv-nile"}
REPEATS = 2


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("named")
    with pytest.MonkeyPatch.context() as monkeypatch:
        a = make_run(folder, monkeypatch, "a", scripted(A_RIGHT, set(), questions=QUESTIONS), QUESTIONS, REPEATS)
        b = make_run(folder, monkeypatch, "b", scripted(B_RIGHT, {"riv-thames"}, questions=QUESTIONS), QUESTIONS,
                     REPEATS, strategies="refusal")
    return a, b


def grades(run: Path) -> dict[tuple[str, int], str]:
    rows = [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]
    return {(row["question_id"], row["repeat"]): row["grade"] for row in rows}


def compare_json(capsys, *args: str) -> dict:
    capsys.readouterr()
    assert cli.main(["compare", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def page_records(page: str) -> list[dict]:
    found = re.search(r'<script type="application/json" id="rows-data">(.*?)</script>', page, re.S)
    assert found
    return json.loads(found.group(1))


def page_table(page: str, title: str) -> tuple[list[str], list[list[str]]]:
    """The columns and rows of the page's table titled `title`."""
    block = page.split(f'<h3 class="table-title">{title}', 1)[1].split("</table>", 1)[0]
    columns = [re.sub(r"\s+", " ", c).strip() for c in re.findall(r"<th(?:\s[^>]*)?>(.*?)</th>", block, re.S)]
    rows = [re.findall(r"<td[^>]*>(.*?)</td>", row, re.S) for row in re.findall(r"<tr>(<td.*?)</tr>", block, re.S)]
    return columns, rows


def test_one_strategy_runs_pair_whatever_their_strategy_names(runs, capsys) -> None:
    a, b = runs
    data = compare_json(capsys, str(a), str(b))
    [pair] = data["pairs"]
    assert (pair["baseline_strategy"], pair["strategy"], pair["n_pairs"]) == ("vanilla", "refusal", 18)
    assert set(pair["per_category"]) == {"capitals", "elements", "rivers"}
    assert data["where"] is None and data["group_by"] == [] and "per_group" not in pair


def test_page_lists_the_differing_questions_and_draws_every_run(runs, tmp_path, capsys) -> None:
    a, b = runs
    out = tmp_path / "pages" / "cmp.html"
    assert cli.main(["compare", str(a), str(b), "--html", str(out)]) == 0
    first, second = grades(a), grades(b)
    differ = {key for key in first if first[key] != second[key]}
    assert len(differ) == 5 * REPEATS    # italy, spain, silver, seine (right/wrong), thames (wrong/declined)
    page = out.read_text()
    records = page_records(page)
    assert {(item["id"], item["repeat"]) for item in records} == differ
    assert {item["strategy"] for item in records} == {"vanilla vs refusal"}
    assert all(len(item["e"]) == 2 and None not in item["e"] for item in records)
    assert f'id="browser-count">{len(differ)} rows' in page

    assert sorted(path.name for path in out.parent.iterdir()) == ["cmp.html", "cmp_files"]
    folder = out.parent / "cmp_files"
    for name in ("delta_f", "reliability_vanilla", "per_category_vanilla"):
        assert (folder / f"{name}.png").stat().st_size > 0 and (folder / f"{name}.svg").is_file()
        assert f'data-name="{name}"' in page
    reliability = (folder / "reliability_vanilla.svg").read_text()
    assert "a (n=" in reliability and "b: refusal (n=" in reliability
    radar = (folder / "per_category_vanilla.svg").read_text()
    assert all(text in radar for text in ("capitals", "elements", "rivers", "b: refusal", "F per category"))


def test_where_and_group_by_narrow_the_table_the_pairs_and_the_figures(runs, tmp_path, capsys) -> None:
    a, b = runs
    whole = compare_json(capsys, str(a), str(b))["pairs"][0]
    data = compare_json(capsys, str(a), str(b), "--where", "category!=rivers", "--group-by", "difficulty")
    [pair] = data["pairs"]
    assert (data["where"], data["group_by"], data["n_shared"]) == ("category!=rivers", ["difficulty"], 6)
    assert set(pair["per_category"]) == {"capitals", "elements"} and pair["n_pairs"] == 6 * REPEATS
    assert pair["f_score_delta"] != whole["f_score_delta"]
    assert set(pair["per_group"]) == {"easy", "hard"}
    assert sum(entry["n_pairs"] for entry in pair["per_group"].values()) == pair["n_pairs"]

    out = tmp_path / "cmp.html"
    assert cli.main(["compare", str(a), str(b), "--where", "category!=rivers", "--group-by", "difficulty",
                     "--html", str(out)]) == 0
    page = out.read_text()
    columns, rows = page_table(page, "runs compared")
    assert "group" in columns
    shown = {(row[columns.index("run")], row[columns.index("group")]): row[columns.index("n")] for row in rows}
    assert set(shown) == {(run, group) for run in ("a", "b") for group in ("all", "easy", "hard")}
    assert shown[("a", "all")] == str(6 * REPEATS)
    assert "ΔF per difficulty vs a" in page
    assert all("riv-" not in item["id"] for item in page_records(page))
    assert "F per difficulty" in (tmp_path / "cmp_files" / "per_category_vanilla.svg").read_text()


@pytest.mark.parametrize(("option", "value", "said"), [
    ("--where", "category", "--where 'category'"),
    ("--group-by", "difficulti", "did you mean"),
])
def test_a_bad_where_or_group_by_is_refused_as_report_refuses_it(runs, capsys, option, value, said) -> None:
    a, b = runs
    capsys.readouterr()
    assert cli.main(["compare", str(a), str(b), option, value]) == 2
    assert said in capsys.readouterr().err
