"""`factprobe merge` killed at any point leaves a folder that `merge` (run again) or `report` finishes:
the rows are renamed into place before the manifest, each atomically, and the report comes last.

Each kill is real: the merge runs in a child process that `os._exit`s (no cleanup, no `finally`)
at the chosen step. The shards are answered by a scripted model (no server)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.eval.core.schema import Question
from tests.fakes import ScriptedModel, write_questions

ROOT = Path(__file__).resolve().parents[3]
QUESTIONS = [Question(id=f"item-{i}", question=f"Which code name was given to item {i}?", answer=f"Tessera{i}",
                     category="places") for i in range(8)]

# the step each kill interrupts, as Python run in the child before `main(["merge", …])`
KILLS = {
    # the rows written to their temporary file, not yet renamed into place
    "before the rows' rename": "import os\nos.replace = lambda *a, **k: os._exit(137)\n",
    # the rows in place, the manifest not yet written
    "before the manifest": "from factprobe.eval.store.run_dir import RunDir\n"
                           "RunDir.write_manifest = lambda self, m: __import__('os')._exit(137)\n",
    # the manifest written to its temporary file, not yet renamed (the rows' rename was the first)
    "before the manifest's rename": "import os\nreal, calls = os.replace, []\n"
                                    "def replace(*a, **k):\n    calls.append(a)\n"
                                    "    return real(*a, **k) if len(calls) == 1 else os._exit(137)\n"
                                    "os.replace = replace\n",
    # merged and its manifest written: the report not yet
    "before the report": "import factprobe.eval.report.build as build\n"
                         "build.write_report = lambda *a, **k: __import__('os')._exit(137)\n",
}


def reply(messages, params) -> str:
    number = re.search(r"item (\d+)", messages[-1]["content"])
    return f"Answer: Tessera{number.group(1) if number else 0}\nConfidence: 70"


@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, bytes]:
    """Two shards of one run, and the rows a merge left alone writes."""
    folder = tmp_path_factory.mktemp("shards")
    dataset = write_questions(folder / "q.jsonl", QUESTIONS)
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: ScriptedModel(reply))
        for number in (1, 2):
            assert cli.main(["run", "--dataset", f"jsonl:{dataset}", "--strategies", "vanilla", "--no-cache",
                             "--shard", f"{number}/2", "--out", str(folder / f"s{number}")]) == 0
    assert cli.main(["merge", str(folder / "s1"), str(folder / "s2"), "--out", str(folder / "clean")]) == 0
    return folder / "s1", folder / "s2", (folder / "clean" / "results.jsonl").read_bytes()


def killed_merge(step: str, one: Path, two: Path, out: Path) -> None:
    code = (KILLS[step] + "from factprobe.eval.cli.main import main\n"
            f"main(['merge', {str(one)!r}, {str(two)!r}, '--out', {str(out)!r}])\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 137, done.stderr


@pytest.mark.parametrize("step", list(KILLS))
def test_a_merge_killed_at_any_step_is_finished_by_merge_or_report(step: str, shards, tmp_path: Path,
                                                                   capsys) -> None:
    one, two, clean = shards
    out = tmp_path / "merged"
    killed_merge(step, one, two, out)
    capsys.readouterr()
    if (out / "manifest.json").exists():        # merged: the report finishes it
        assert cli.main(["report", str(out)]) == 0
    else:                                       # not merged yet: `report` says so, the merge runs again
        assert cli.main(["report", str(out)]) == 2
        err = capsys.readouterr().err
        assert "Traceback" not in err and (f"{out} has no manifest.json" in err)
        assert cli.main(["merge", str(one), str(two), "--out", str(out)]) == 0
    assert (out / "results.jsonl").read_bytes() == clean
    summary = json.loads((out / "summary.json").read_text())
    assert summary["strategies"]["vanilla"]["n"] == len(QUESTIONS)
    assert not [path.name for path in out.iterdir() if path.name.endswith(".tmp")]   # the killed one's temporaries


def test_rows_without_a_manifest_name_the_merge_to_run_again(shards, tmp_path: Path, capsys) -> None:
    one, two, _ = shards
    out = tmp_path / "merged"
    killed_merge("before the manifest", one, two, out)
    capsys.readouterr()
    assert cli.main(["report", str(out)]) == 2
    assert "holds rows: a `factprobe merge` into it stopped before its end; run that merge again" in \
        capsys.readouterr().err
