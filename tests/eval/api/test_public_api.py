"""The public face: a plugin that uses only names `factprobe` exports (a strategy, a summary section,
a table, a post step, a confidence method and a loader) runs through `factprobe run --plugin` and
`factprobe.run(plugins=...)` on a scripted model, and the plugin files the documentation shows run as written."""

from __future__ import annotations

import json
import re
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import factprobe
import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.agents.registry import STRATEGIES
from factprobe.eval.analysis.summary import SECTIONS, STRATEGY_METRICS
from factprobe.eval.datasets.registry import LOADERS
from factprobe.eval.report.build import PLOTS, TABLES
from factprobe.eval.run.confidence import METHODS
from factprobe.eval.run.steps import POST_STEPS
from tests.fakes import ScriptedModel, last_user

REGISTRIES = (STRATEGIES, SECTIONS, STRATEGY_METRICS, TABLES, PLOTS, POST_STEPS, METHODS, LOADERS)
ROOT = Path(__file__).parents[3]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SCORES_TITLE = "Strategies vs vanilla"

PLUGIN = textwrap.dedent('''
    """A plugin that uses only the names `factprobe` exports."""
    import factprobe


    @factprobe.loader("pipes", "question|answer per line")
    def load(path):
        pairs = [line.split("|") for line in path.read_text(encoding="utf-8").splitlines() if line]
        return factprobe.Dataset("pipes", [factprobe.Question(id=f"p{number}", question=question, answer=answer)
                                           for number, (question, answer) in enumerate(pairs, 1)])


    @factprobe.strategy("loud", "vanilla, asked to answer in capitals", reads=())
    def build(context):
        def messages(question, passages=None):
            found = factprobe.vanilla_messages(question, passages)
            found[-1] = {**found[-1], "content": found[-1]["content"] + " Answer in capitals."}
            return found
        return factprobe.answer_graph(context, messages)


    @factprobe.post_step("answer_chars", enabled=lambda config: "loud" in config.strategies)
    async def answer_chars(data: factprobe.PostStepInput) -> dict:
        return {"answer_chars": len(data.state.get("answer") or "")}


    @factprobe.confidence_method("shouting")
    def shouting(data: factprobe.MethodInput) -> dict:
        answer = data.state.get("answer") or ""
        return {"shouting": 100.0 if answer.isupper() else 0.0}


    @factprobe.summary_section("chars")
    def chars(data: factprobe.SummaryInput) -> dict:
        return {name: sum(row.extra_field("answer_chars") for row in rows) for name, rows in data.by_strategy.items()}


    @factprobe.report_table(order=1)
    def chars_table(summary, console) -> None:
        console.print(f"answer characters: {summary['chars']}")
''')

CAPITALS = {"France": "Paris", "Japan": "Tokyo", "Peru": "Lima"}


def capital_script(messages, params) -> str:
    """The right capital, in capitals when the prompt asks for them."""
    text = last_user(messages)
    city = next((city for country, city in CAPITALS.items() if country in text), "I don't know")
    return f"Answer: {city.upper() if 'capitals' in text else city}\nConfidence: 80"


@pytest.fixture(autouse=True)
def isolated(monkeypatch: pytest.MonkeyPatch) -> Iterator[ScriptedModel]:
    """Every registry filled with factprobe's own items, then copied, so a plugin's registrations
    end with the test; the scripted model instead of a real one."""
    for registry in REGISTRIES:
        registry.load()
        monkeypatch.setattr(registry, "_items", dict(registry._items))
    before = set(sys.modules)
    model = ScriptedModel(capital_script)
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: model)
    yield model
    for name in set(sys.modules) - before:
        if name.startswith("factprobe_plugin_"):
            del sys.modules[name]


@pytest.fixture
def plugin(tmp_path: Path) -> Path:
    path = tmp_path / "public_plugin.py"
    path.write_text(PLUGIN, encoding="utf-8")
    return path


@pytest.fixture
def pipes(tmp_path: Path) -> Path:
    path = tmp_path / "capitals.txt"
    path.write_text("".join(f"What is the capital of {country}?|{city}\n" for country, city in CAPITALS.items()),
                    encoding="utf-8")
    return path


def rows_of(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]


def check_plugin_effects(out: Path, summary: dict) -> None:
    """Each extension of PLUGIN did what it says, beside factprobe's own."""
    rows = rows_of(out)
    assert {row["question_id"] for row in rows} == {"p1", "p2", "p3"}          # the loader's ids
    assert {row["strategy"] for row in rows} == {"vanilla", "loud"}
    for row in rows:
        loud = row["strategy"] == "loud"
        assert row["answer"] == (row["gold"].upper() if loud else row["gold"])  # the strategy's prompt
        assert row["grade"] == "CORRECT"
        assert row["answer_chars"] == len(row["answer"])                        # the post step
        assert row["confidences"]["shouting"] == (100.0 if loud else 0.0)      # the confidence method
        assert row["confidences"]["verbal"] == 80
    lengths = sum(len(city) for city in CAPITALS.values())
    assert summary["chars"] == {"vanilla": lengths, "loud": lengths}          # the section
    assert list(summary)[-1] == "chars"               # default order: after every built-in section
    assert "shouting" in summary["calibration"]["loud"]
    assert summary["gains"]["loud"]["f_score_delta"] == 0.0


def test_a_plugin_of_public_names_runs_from_the_command_line(plugin: Path, pipes: Path, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cli"
    assert cli.main(["run", "--plugin", str(plugin), "--dataset", f"pipes:{pipes}", "--strategies", "vanilla,loud",
                     "--confidence", "verbal,shouting", "--out", str(out), "--verbose"]) == 0
    printed = capsys.readouterr().out
    check_plugin_effects(out, json.loads((out / "summary.json").read_text(encoding="utf-8")))
    assert "answer characters: {'vanilla': 14, 'loud': 14}" in printed                # the table …
    assert printed.index("answer characters") < printed.index(SCORES_TITLE)         # … first: order=1
    # `report` loads the manifest's plugin again: the section and the table come back
    assert cli.main(["report", str(out)]) == 0
    assert "answer characters: {'vanilla': 14, 'loud': 14}" in capsys.readouterr().out


def test_a_plugin_of_public_names_runs_from_python(plugin: Path, pipes: Path, tmp_path: Path) -> None:
    run = factprobe.run(dataset=f"pipes:{pipes}", strategies=["vanilla", "loud"], plugins=[str(plugin)],
                        confidence=["verbal", "shouting"], out=tmp_path / "api", quiet=True)
    check_plugin_effects(tmp_path / "api", run.summary)
    assert {row.extra_field("answer_chars") for row in run.results} == {4, 5}


def test_the_public_face_exports_what_a_plugin_needs_and_each_name_resolves() -> None:
    needed = {"run", "arun", "load_run", "sweep", "Run", "RunFailed", "strategy", "graph_strategy",
              "summary_section", "strategy_metric", "report_table", "report_plot", "post_step",
              "confidence_method", "loader", "Question", "Result", "Grade", "QAState", "StrategyContext",
              "RunResources", "SummaryInput", "PostStepInput", "MethodInput", "Dataset", "answer_graph",
              "vanilla_messages"}
    assert needed <= set(dir(factprobe))
    for name in dir(factprobe):
        assert getattr(factprobe, name) is not None, name
    with pytest.raises(AttributeError, match="no attribute 'SECTIONS'"):
        factprobe.SECTIONS  # noqa: B018 - a registry is private


def readme_plugins() -> dict[str, str]:
    """The documentation's Python blocks that are plugin files: those whose first line names the file."""
    blocks = [block for document in DOCUMENTS
              for block in re.findall(r"```python\n(.*?)```", document.read_text(encoding="utf-8"), flags=re.S)]
    return {match.group(1): block for block in blocks if (match := re.match(r"# (\w+\.py)\b", block))}


def test_the_readme_plugin_files_run_as_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The documentation's files, unchanged, through `--plugin` on its own example format (a TSV)."""
    files = readme_plugins()
    assert set(files) == {"terse.py", "my_extensions.py"}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    data = tmp_path / "capitals.tsv"
    data.write_text("".join(f"What is the capital of {country}?\t{city}\n" for country, city in CAPITALS.items()),
                    encoding="utf-8")
    out = tmp_path / "readme"
    plugins = ",".join(str(tmp_path / name) for name in sorted(files))
    assert cli.main(["run", "--plugin", plugins, "--dataset", f"tsv:{data}", "--strategies", "vanilla,terse",
                     "--confidence", "verbal,brevity", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    rows = rows_of(out)
    assert {row["question_id"] for row in rows} == {"tsv-1", "tsv-2", "tsv-3"}
    assert {row["strategy"] for row in rows} == {"vanilla", "terse"}
    assert all(row["answer_words"] == 1 and row["confidences"]["brevity"] == 80.0 for row in rows)
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["long_answers"] == {"vanilla": [], "terse": []}
    assert summary["strategies"]["terse"]["answer_words_mean"] == 1.0
    assert printed.index("terse: 1.0 words per answer") < printed.index(SCORES_TITLE)
    assert cli.main(["datasets", "--plugin", str(tmp_path / "my_extensions.py")]) == 0
    assert "tsv        one question<TAB>answer per line" in capsys.readouterr().out
    bad = tmp_path / "bad.tsv"
    bad.write_text("no tab here\n", encoding="utf-8")
    assert cli.main(["run", "--plugin", plugins, "--dataset", f"tsv:{bad}", "--out", str(tmp_path / "bad")]) == 2
    assert "bad.tsv, line 1: expected question<TAB>answer" in capsys.readouterr().err
