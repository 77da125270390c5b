"""Nothing written where it should not be, nothing left behind: `--out ''` is refused, two
`factprobe report` processes on one directory take turns, and temporaries left by a killed process
(`.manifest.json.<pid>.tmp`, an index's `*.tmp-<pid>-*`) are removed by a later run. Scripted
model, no network."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.eval.core.schema import Question
from factprobe.retrieval.index_cache import cached_index, index_root
from tests.fakes import ScriptedModel, write_questions

REPO = Path(__file__).resolve().parents[3]
QUESTIONS = [Question(id=f"c{n}", question=f"Which colour is number {n}?", answer="blue", category="c")
             for n in range(3)]


def dead_pid() -> int:
    """The id of a process that has just ended (not reused within the test)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


@pytest.fixture
def finished_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    model = ScriptedModel(lambda messages, params: "Answer: blue\nConfidence: 70")
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: model)
    data, out = write_questions(tmp_path / "q.jsonl", QUESTIONS), tmp_path / "run"
    assert cli.main(["run", "--dataset", f"jsonl:{data}", "--strategies", "vanilla", "--out", str(out)]) == 0
    return out


def test_an_empty_out_is_refused_and_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stopped:
        cli.main(["run", "--out", "", "--strategies", "vanilla"])
    assert stopped.value.code == 2
    assert "--out: must not be empty" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["sweep", "grid.toml", "--out", " "])
    assert list(tmp_path.iterdir()) == []


def test_two_reports_at_once_both_succeed(finished_run: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    command = [sys.executable, "-m", "factprobe.eval.cli.main", "report", str(finished_run)]
    both = [subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            for _ in range(2)]
    errors = [process.communicate(timeout=120)[1] for process in both]
    assert [process.returncode for process in both] == [0, 0], errors
    assert json.loads((finished_run / "summary.json").read_text())["strategies"]["vanilla"]["n"] == 3
    assert not [path.name for path in finished_run.iterdir() if "tmp" in path.name]


def test_a_later_run_removes_temporaries_of_killed_processes(finished_run: Path) -> None:
    dead, alive = dead_pid(), os.getppid()
    stale = [finished_run / f".manifest.json.{dead}.tmp", finished_run / f".summary.json.{dead}-7-0123456789ab.tmp"]
    live = finished_run / f".summary.json.{alive}-7-0123456789ab.tmp"       # its writer may still be at work
    for path in (*stale, live):
        path.write_text("{half")
    assert cli.main(["run", "--resume", "--out", str(finished_run)]) == 0
    assert not any(path.exists() for path in stale) and live.exists()


def test_an_index_save_removes_folders_of_killed_processes(tmp_path: Path) -> None:
    folder = index_root(tmp_path) / "bm25"
    dead = dead_pid()
    stale = [folder / f"abc.tmp-{dead}-140000", folder / f".abc.{dead}-140000-0123456789ab.tmp"]
    for path in stale:
        (path / "part").mkdir(parents=True)
    saved = cached_index("bm25", "fresh", lambda: {"n": 1}, cache_dir=tmp_path,
                         save=lambda index, path: (path / "index.json").write_text(json.dumps(index)))
    assert saved == {"n": 1} and (folder / "fresh" / "index.json").is_file()
    assert not any(path.exists() for path in stale)
