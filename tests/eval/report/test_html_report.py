"""report.html and `compare --html` in a real headless Chromium: what a reader sees and can do.

The browser tests need Debian's chromium (/usr/bin/chromium) and Playwright for Python; they skip
with the reason when either is missing. The page must never touch the network.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.eval.analysis.summary import latest_rows
from factprobe.eval.core.format import pct
from factprobe.eval.core.schema import Grade, Hop, Passage, Question
from factprobe.eval.report.html import view
from factprobe.eval.report.html.rows import script_json
from factprobe.eval.store.run_dir import RunDir
from factprobe.retrieval import index_cache
from tests.fakes import ScriptedModel, last_user, write_questions

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
SCRIPT_ANSWER = "</script><b>not bold</b>"


def passage(pid: str, text: str) -> Passage:
    return Passage(id=pid, title=pid, text=text)


QUESTIONS = [
    Question(id="paris", question="Which city is the capital of France?", answer="Paris", category="geography",
             corpus=[passage("p-fr", "Paris is the capital of France."), passage("p-x", "Cheese is food.")]),
    Question(id="rome", question="Which city is the capital of Italy?", answer="Rome", category="geography",
             corpus=[passage("p-it", "Rome is the capital of Italy."), passage("p-y", "Pasta is food.")]),
    Question(id="gold", question="What is the chemical symbol for gold?", answer="Au", category="science",
             corpus=[passage("p-au", "Gold has the symbol Au."), passage("p-z", "Silver is Ag.")]),
    Question(id="tag", question="Which markup tag ends an inline script block?", answer="script",
             category="computing", corpus=[passage("p-tag", "HTML closes scripts with a tag.")]),
    Question(id="lake", question="In which country is the lake that feeds the Rhone?", answer="Switzerland",
             category="geography", hops=[Hop(question="Which lake feeds the Rhone?", answer="Lake Geneva"),
                                         Hop(question="In which country is #1?", answer="Switzerland")],
             corpus=[passage("p-ge", "Lake Geneva lies in Switzerland and France.")]),
    Question(id="never", question="What will the winning lottery number be next year?", answer=None,
             answerable=False, category="unanswerable", corpus=[passage("p-lot", "Lotteries are random.")]),
]

# question id fragment -> (closed-book answer, answer with passages)
ANSWERS = {
    "France": ("Paris", "Paris"),          # both right
    "Italy": ("Milan", "Rome"),            # rag gains
    "gold": ("Au", "Ag"),                  # rag loses
    "markup": (SCRIPT_ANSWER, "I don't know"),
    "Rhone": ("Switzerland", "France"),    # rag loses (multi-hop)
    "lottery": ("I don't know", "I don't know"),
}


def scripted_answers(messages: list[dict[str, str]], params: Any) -> str:
    text = last_user(messages)
    with_passages = "Use these passages" in text
    for fragment, (closed, open_book) in ANSWERS.items():
        if fragment in text:
            return f"Answer: {open_book if with_passages else closed}\nConfidence: {70 if with_passages else 40}"
    return "Answer: Lake Geneva\nConfidence: 55"


def make_run(root: Path, out: Path, script: Any, strategies: str = "vanilla,rag") -> Path:
    """A finished run directory, made by `factprobe run` on a scripted model."""
    dataset = root / "questions.jsonl"
    write_questions(dataset, QUESTIONS)
    model = ScriptedModel(script)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pipeline, "load_model", lambda spec, **kwargs: model)
        patch.setenv("FACTPROBE_CACHE", str(root / "cache"))
        index_cache.forget_memory()
        # In a worker thread: the runner's event loop must not meet the browser driver's.
        with ThreadPoolExecutor(1) as worker:
            status = worker.submit(cli.main, ["run", "--dataset", f"jsonl:{dataset}", "--strategies",
                                              strategies, "--out", str(out), "--no-cache"]).result()
    assert status == 0
    return out


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("html-run")
    return make_run(root, root / "run", scripted_answers)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed "
                                   "(pip install playwright); the HTML report tests need a real browser")
    if not Path(CHROMIUM).is_file() and not shutil.which("chromium"):
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium); the HTML report tests need it")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM if Path(CHROMIUM).is_file()
                                              else shutil.which("chromium"), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


class OfflinePage:
    """A page opened on a local HTML file that records any request other than the file itself."""

    def __init__(self, browser: Any, path: Path) -> None:
        self.uri = path.resolve().as_uri()
        self.context = browser.new_context(viewport={"width": 1300, "height": 900})
        self.foreign: list[str] = []
        self.errors: list[str] = []
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.on("request", self._seen)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def _seen(self, request: Any) -> None:
        if request.url != self.uri:
            self.foreign.append(request.url)

    def _route(self, route: Any) -> None:
        if route.request.url == self.uri:
            route.continue_()
        else:
            self.foreign.append(route.request.url)
            route.abort()

    def open(self) -> Any:
        self.page.goto(self.uri)
        return self.page


@pytest.fixture
def report(browser: Any, run_dir: Path) -> Iterator[Any]:
    offline = OfflinePage(browser, run_dir / "report.html")
    page = offline.open()
    yield page
    assert offline.errors == [], f"script errors on the page: {offline.errors}"
    assert offline.foreign == [], f"the page requested {offline.foreign}"
    offline.context.close()


def html_table(page: Any, title_start: str) -> tuple[list[str], list[list[str]]]:
    """The header texts and cell texts of the table whose title starts with `title_start`."""
    block = page.locator(".table-block", has=page.locator("h3.table-title", has_text=title_start)).first
    headers = [text.strip() for text in block.locator("thead th").all_inner_texts()]
    rows = block.locator("tbody tr").evaluate_all(
        "rows => rows.map(r => Array.from(r.cells, c => c.textContent.trim()))")
    return headers, rows


def visible_rows(page: Any) -> list[tuple[str, str]]:
    """(question id, strategy) of every row the browser shows on the current page."""
    return [tuple(pair) for pair in page.locator("#browser-rows tr.row").evaluate_all(
        "rows => rows.map(r => [r.querySelector('.qid').textContent, r.querySelector('td.strategy').firstChild.textContent])")]


def all_visible_rows(page: Any) -> list[tuple[str, str]]:
    """visible_rows over every page of the browser."""
    seen = visible_rows(page)
    while page.locator("#next-page").is_enabled():
        page.click("#next-page")
        seen += visible_rows(page)
    return seen


def wait_for_count(page: Any, pattern: str) -> None:
    page.wait_for_function("p => new RegExp(p).test(document.getElementById('browser-count').textContent)",
                           arg=pattern)


def latest(run_dir: Path) -> list[Any]:
    return latest_rows(RunDir(run_dir).read_results())


@pytest.mark.needs_browser
def test_the_comparison_table_shows_the_values_of_summary_json(report, run_dir):
    summary = json.loads((run_dir / "summary.json").read_text())
    headers, rows = html_table(report, "Strategies vs")
    by_strategy = {row[0]: dict(zip(headers, row)) for row in rows}
    assert set(by_strategy) == set(summary["strategies"])
    for name, scores in summary["strategies"].items():
        shown = by_strategy[name]
        assert shown["CO"] == pct(scores["accuracy"])
        assert shown["IN"] == pct(scores["incorrect_rate"])
        assert shown["NA"] == pct(scores["not_attempted_rate"])
        assert shown["CGA"] == pct(scores["cga"])
        f_text, *span = shown["F"].split()          # F, then its range while rows are UNGRADED
        assert f_text == pct(scores["f_score"])
        low, high = scores["f_score_range"]["low"], scores["f_score_range"]["high"]
        assert span == ([f"[{pct(low)}–{pct(high)}]"] if scores["ungraded"] else [])
    delta = summary["gains"]["rag"]["f_score_delta"]
    assert by_strategy["rag"][next(h for h in headers if h.startswith("ΔF"))].startswith(f"{100 * delta:+.1f}")


@pytest.mark.needs_browser
def test_every_table_and_every_plot_is_on_the_page(report, run_dir):
    titles = report.locator("h3.table-title").all_inner_texts()
    for start in ("Strategies vs", "Per category", "Self-awareness", "Calibration", "Per-hop"):
        assert any(title.startswith(start) for title in titles), f"no table titled {start}…: {titles}"
    category_headers, category_rows = html_table(report, "Per category")
    summary = json.loads((run_dir / "summary.json").read_text())
    assert len(category_rows) == sum(len(c) for c in summary["per_category"].values())
    svgs = sorted(path.stem for path in run_dir.glob("*.svg"))
    assert svgs and sorted(report.locator("#figures figure").evaluate_all(
        "figures => figures.filter(f => f.querySelector('svg')).map(f => f.dataset.name)")) == svgs
    closed = report.locator("#config details:not([open]) summary")
    while closed.count():
        closed.first.click()
    labels = report.locator("#config dt").all_inner_texts()
    manifest = json.loads((run_dir / "manifest.json").read_text())
    assert set(manifest["config"]) - {"strategies", "baseline"} <= set(labels)
    assert f"jsonl:{run_dir.parent / 'questions.jsonl'}" in report.locator("#config").inner_text()


@pytest.mark.needs_browser
def test_clicking_a_header_sorts_the_table(report):
    block = report.locator(".table-block", has=report.locator("h3", has_text="Per category")).first
    block.locator("thead th", has_text="category").click()
    categories = block.locator("tbody tr td:nth-child(2)").all_inner_texts()
    assert categories == sorted(categories)
    block.locator("thead th", has_text="category").click()
    assert block.locator("tbody tr td:nth-child(2)").all_inner_texts() == sorted(categories, reverse=True)


@pytest.mark.needs_browser
def test_expanding_a_row_shows_its_answer_grade_and_trace(report, run_dir):
    row = next(r for r in latest(run_dir) if r.question_id == "rome" and r.strategy == "rag")
    report.select_option("#filter-strategy", "rag")
    report.fill("#search", "capital of Italy")
    wait_for_count(report, "of 1 \\(")
    report.locator("#browser-rows tr.row").first.click()
    detail = report.locator("#browser-rows tr.detail")
    text = detail.inner_text()
    steps = detail.locator(".step-name").all_inner_texts()
    assert [re.sub(r"^\d+\. ", "", step) for step in steps] == [step["step"] for step in row.trace]
    assert "Rome" in text and "CORRECT" in text and row.grade_note in text
    assert all(pid in text for pid in row.retrieved_ids)
    generate = next(step for step in row.trace if step["step"] == "generate")
    assert f"{generate['prompt_tokens']} + {generate['completion_tokens']} tokens" in text
    report.locator("#browser-rows tr.row").first.click()
    assert report.locator("#browser-rows tr.detail").count() == 0


@pytest.mark.needs_browser
def test_a_multi_hop_row_shows_its_per_hop_probes(report, run_dir):
    row = next(r for r in latest(run_dir) if r.question_id == "lake" and r.strategy == "vanilla")
    report.select_option("#filter-hops", "2")
    report.select_option("#filter-strategy", "vanilla")
    wait_for_count(report, "of 1 \\(")
    report.locator("#browser-rows tr.row").first.click()
    probes = report.locator("#browser-rows tr.detail .detail-block", has_text="per-hop probes")
    assert probes.locator("tbody tr").count() == len(row.hop_probes) == 2
    assert "Which lake feeds the Rhone?" in probes.inner_text()


@pytest.mark.needs_browser
def test_filters_change_the_visible_rows(report, run_dir):
    rows = latest(run_dir)
    assert len(all_visible_rows(report)) == len(rows)
    report.select_option("#filter-strategy", "rag")
    assert sorted(all_visible_rows(report)) == sorted((r.question_id, "rag") for r in rows if r.strategy == "rag")
    report.select_option("#filter-strategy", "")
    report.select_option("#filter-grade", "CORRECT")
    assert sorted(all_visible_rows(report)) == sorted((r.question_id, r.strategy) for r in rows
                                                      if r.grade is Grade.CORRECT)
    report.select_option("#filter-grade", "")
    report.select_option("#filter-category", "science")
    assert {qid for qid, _ in all_visible_rows(report)} == {"gold"}
    report.select_option("#filter-category", "")
    base = {r.question_id: r.grade is Grade.CORRECT for r in rows if r.strategy == "vanilla"}
    rag = {r.question_id: r.grade is Grade.CORRECT for r in rows if r.strategy == "rag"}
    report.select_option("#filter-vs", "gained")
    assert all_visible_rows(report) == [(q, "rag") for q in rag if rag[q] and not base[q]] == [("rome", "rag")]
    report.select_option("#filter-vs", "lost")
    lost = [(q, "rag") for q in rag if base[q] and not rag[q]]
    assert {("gold", "rag"), ("lake", "rag")} <= set(lost)
    assert all_visible_rows(report) == lost


@pytest.mark.needs_browser
def test_search_shows_only_matching_questions(report):
    report.fill("#search", "lottery")
    wait_for_count(report, "of 2 \\(")
    assert {qid for qid, _ in visible_rows(report)} == {"never"}
    report.fill("#search", "no such words anywhere")
    wait_for_count(report, "no rows match")
    assert visible_rows(report) == []


@pytest.mark.needs_browser
def test_an_answer_holding_a_script_end_tag_is_shown_as_text(report, run_dir):
    assert SCRIPT_ANSWER in (run_dir / "results.jsonl").read_text()
    assert SCRIPT_ANSWER not in (run_dir / "report.html").read_text()
    report.fill("#search", "markup")
    report.select_option("#filter-strategy", "vanilla")
    wait_for_count(report, "of 1 \\(")
    assert report.locator("#browser-rows td.answer").inner_text() == SCRIPT_ANSWER
    assert report.locator("#browser-rows b").count() == 0


@pytest.mark.needs_browser
def test_compare_html_shows_both_runs_and_the_questions_whose_grade_differs(browser, run_dir, tmp_path):
    def stubborn(messages, params):  # always the closed-book answer: rag never gains or loses
        return scripted_answers([{"role": "user", "content": last_user(messages).replace(
            "Use these passages", "")}], params)

    other = make_run(tmp_path, tmp_path / "other", stubborn)
    out = tmp_path / "compare.html"
    assert cli.main(["compare", str(run_dir), str(other), "--html", str(out)]) == 0
    first = {row.key: row.grade for row in latest(run_dir)}
    second = {row.key: row.grade for row in latest(other)}
    differ = sorted((key[0], key[1]) for key in first if key in second and first[key] != second[key])
    assert differ  # the two scripts disagree on rag's answers
    offline = OfflinePage(browser, out)
    page = offline.open()
    headers, rows = html_table(page, "runs compared")
    assert {row[headers.index("run")] for row in rows} == {run_dir.name, other.name}
    assert sorted(all_visible_rows(page)) == differ
    assert page.locator("#browser-head th").all_inner_texts()[-2:] == [run_dir.name, other.name]
    page.locator("#browser-rows tr.row").first.click()
    assert page.locator("#browser-rows tr.detail .entry").count() == 2
    assert page.locator(".side-by-side").count() >= 3
    assert offline.foreign == [] and offline.errors == []
    offline.context.close()


@pytest.mark.needs_browser
def test_ten_thousand_rows_load_quickly_with_few_dom_rows(browser, run_dir, tmp_path):
    big = tmp_path / "big"
    big.mkdir()
    shutil.copy(run_dir / "manifest.json", big / "manifest.json")
    template = latest(run_dir)
    with (big / "results.jsonl").open("w", encoding="utf-8") as handle:
        for index in range(10_000 // len(template) + 1):
            for row in template:
                copy = row.model_copy(update={"question_id": f"{row.question_id}-{index}"})
                handle.write(copy.model_dump_json() + "\n")
    count = len(latest(big))
    assert count >= 10_000
    assert cli.main(["report", str(big)]) == 0
    offline = OfflinePage(browser, big / "report.html")
    started = time.perf_counter()
    page = offline.open()
    wait_for_count(page, f"of {count}$")
    seconds = time.perf_counter() - started
    assert page.locator("#browser-rows tr").count() == 50
    page.select_option("#filter-strategy", "rag")
    wait_for_count(page, f"of {count // 2} \\(")
    assert page.locator("#browser-rows tr").count() == 50
    assert seconds < 15, f"{count} rows took {seconds:.1f} s to load"
    assert offline.foreign == [] and offline.errors == []
    offline.context.close()


def test_script_json_cannot_close_its_script_block():
    text = script_json({"answer": "</script><!-- & \u2028"})
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text) == {"answer": "</script><!-- & \u2028"}


def test_view_opens_the_report_or_prints_its_path(run_dir, monkeypatch, capsys):
    opened: list[str] = []
    monkeypatch.setattr(view.webbrowser, "open", lambda url: opened.append(url) or False)
    assert cli.main(["view", str(run_dir)]) == 0
    path = (run_dir / "report.html").resolve()
    assert opened == [path.as_uri()]
    assert str(path) in capsys.readouterr().out
    monkeypatch.setattr(view.webbrowser, "open", lambda url: True)
    assert cli.main(["view", str(run_dir)]) == 0
    assert capsys.readouterr().out.strip() == str(path)
    assert cli.main(["view", str(run_dir / "missing")]) == 2


def sweep_row(cell: str, strategy: str, samples: int, f_score: float, run_dir: Path) -> dict[str, Any]:
    return {"cell": cell, "strategy": strategy, "samples": samples, "n": 10, "accuracy": f_score,
            "incorrect_rate": 1 - f_score, "not_attempted_rate": 0.0, "cga": f_score, "f_score": f_score,
            "f_score_delta": None, "ci_low": None, "ci_high": None, "p_value": None, "latency_ratio": None,
            "tokens_ratio": None, "ece": 0.1, "run_dir": str(run_dir), "baseline": "vanilla", "exit_status": 0}


@pytest.mark.needs_browser
def test_sweep_html_sorts_its_table_and_links_every_cell(browser, tmp_path):
    from factprobe.eval.report.html.sweep_page import write_sweep_html
    from factprobe.eval.run.sweep import print_table

    folder = tmp_path / "grid"
    rows = []
    for cell, samples, f_score in (("c1", 1, 0.30), ("c2", 2, 0.50), ("c3", 4, 0.40)):
        (folder / cell).mkdir(parents=True)
        (folder / cell / "report.html").write_text("<title>cell</title>", encoding="utf-8")
        rows.append(sweep_row(cell, "best_of_n", samples, f_score, folder / cell))
    page_path = write_sweep_html(rows, folder, print_table)
    offline = OfflinePage(browser, page_path)
    page = offline.open()
    block = page.locator(".table-block").first
    block.locator("thead th").filter(has_text=re.compile(r"^\s*F\s*$")).click()
    cells = block.locator("tbody tr td:nth-child(1)").all_inner_texts()
    assert cells in (["c1", "c3", "c2"], ["c2", "c3", "c1"])  # sorted by F, either direction
    links = page.locator("#runs a")
    assert links.all_inner_texts() == ["c1", "c2", "c3"]
    assert all((folder / href).is_file() for href in (links.nth(i).get_attribute("href") for i in range(3)))
    assert offline.foreign == [] and offline.errors == []
    offline.context.close()
