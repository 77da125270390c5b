"""Every code block of README.md runs as pasted: its bash commands in order, one test each, through the
installed `factprobe` command (the one beside `sys.executable`) in one working folder, and its Python
block in a subprocess; each must exit 0 and leave what it promises.

The set-up lines are left out (`make run|test|check|bench`, `pip install`, the activation line):
tests/test_setup.py runs the make targets and the activation line. The substitutions, and nothing else:

- `openai:MODEL@URL` becomes a scripted OpenAI-compatible server on 127.0.0.1 that this module starts
  (tests/fakes.ChatServer answering with tests/scripted_replies.reply, as model and as judge);
- a `factprobe run` that starts a run without `--model` (which means the embedded SmolLM2) gets
  `--model` naming that server: the embedded model is exercised by `make run` and the needs_llama
  tests, and here it would need the local extra and minutes per run;
- in the Python block, `model="local"` becomes the same server.

The environment stands in for a desktop: `BROWSER=true` (`factprobe view` hands the report to a no-op
and prints its path), `MPLBACKEND=Agg` (no window for the plots), a response cache of the module's own,
and a working folder with `../shared` linked beside it when the checkout has one (the one command that
reads it is skipped with the reason otherwise).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import pytest

import factprobe
from tests.fakes import ChatServer
from tests.scripted_replies import message_text, reply

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
FACTPROBE = Path(sys.executable).parent / "factprobe"
BLOCK = re.compile(r"^```(bash|python)\n(.*?)^```", re.S | re.M)
SET_UP = re.compile(r"^(make (run|test|check|bench)\b|pip install |\. \.venv/bin/activate\b)")
SERVED = "scripted"
LOCAL_MODEL = 'model="local"'
RUN_FILES = ("manifest.json", "results.jsonl", "summary.json", "report.html")
RUN_DIRECTORY = re.compile(r"^run directory: (\S+)$", re.M)


def blocks() -> list[tuple[str, str]]:
    """(language, text) of every fenced bash and python block of the README, in order."""
    return BLOCK.findall((ROOT / "README.md").read_text(encoding="utf-8"))


def commands() -> list[str]:
    """Every line of the bash blocks but the set-up ones, comments and blank lines dropped, in order."""
    lines = [line.strip() for language, text in blocks() if language == "bash" for line in text.splitlines()]
    return [line for line in lines if line and not line.startswith("#") and not SET_UP.match(line)]


def argv_of(line: str, url: str) -> list[str]:
    """The command's arguments after `factprobe`, with the placeholders filled in."""
    words = shlex.split(line, comments=True)
    assert words[0] == "factprobe", f"README: `{line}` is neither a set-up line nor a factprobe command"
    argv = [word.replace("openai:MODEL@URL", f"openai:{SERVED}@{url}") for word in words[1:]]
    left = [word for word in argv if re.search(r"\b(MODEL|URL)\b", word)]
    assert left == [], f"README: `{line}` has placeholders this test does not fill in: {left}"
    if argv[0] == "run" and "--resume" not in argv and "--model" not in argv:
        argv += ["--model", f"openai:{SERVED}@{url}"]       # instead of the embedded model (see above)
    return argv


def option(argv: list[str], name: str) -> str | None:
    return argv[argv.index(name) + 1] if name in argv else None


@dataclass
class Done:
    """A command that ran: its arguments, exit status, output and the chat requests made meanwhile."""

    argv: list[str]
    code: int
    out: str
    err: str
    requests: list[dict]


class Session:
    """The README's commands run one after the other in one working folder, each at most once."""

    def __init__(self, work: Path, server: ChatServer, env: dict[str, str]) -> None:
        self.work, self.server, self.env = work, server, env
        self.lines = commands()
        self.done: list[Done | None] = []

    def upto(self, index: int) -> Done | None:
        """Run the commands up to `index` not run yet; the one at `index` (None: skipped here)."""
        while len(self.done) <= index:
            line = self.lines[len(self.done)]
            self.done.append(None if "../shared" in line and not SHARED.is_dir() else self.run(line))
        return self.done[index]

    def run(self, line: str) -> Done:
        argv = argv_of(line, self.server.url)
        before = len(self.server.requests)
        finished = subprocess.run([str(FACTPROBE), *argv], cwd=self.work, env=self.env, capture_output=True,
                                  text=True, timeout=600)
        return Done(argv, finished.returncode, finished.stdout, finished.stderr, self.server.requests[before:])


@pytest.fixture(scope="module")
def server() -> Iterator[ChatServer]:
    with ChatServer(reply, model=SERVED) as started:
        yield started


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory, server: ChatServer) -> Session:
    assert FACTPROBE.is_file(), f"no `factprobe` command beside {sys.executable}: pip install -e ."
    top = tmp_path_factory.mktemp("readme")
    work = top / "checkout"
    work.mkdir()
    if SHARED.is_dir():
        (top / "shared").symlink_to(SHARED, target_is_directory=True)
    env = {**os.environ, "BROWSER": "true", "COLUMNS": "200",
           "FACTPROBE_CACHE": str(tmp_path_factory.mktemp("readme-cache"))}
    return Session(work, server, env)


def new_run_directory(done: Done, work: Path) -> Path:
    """The folder a run command wrote: its `--out`, or the one it printed."""
    out = option(done.argv, "--out")
    if out is None:
        printed = RUN_DIRECTORY.search(done.out)
        assert printed, f"`factprobe {' '.join(done.argv)}` printed no run directory"
        out = printed.group(1)
    return work / out


def check_run(done: Done, work: Path) -> None:
    """A run wrote its files (a new one on the scripted server); a resume without a judge asked nothing,
    one with a judge asked only for grades (none when the cache holds them) and left no row UNGRADED."""
    folder = new_run_directory(done, work)
    assert [name for name in RUN_FILES if not (folder / name).is_file()] == [], folder
    if "--resume" not in done.argv:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        assert manifest["config"]["model"].startswith(f"openai:{SERVED}@"), "the run did not use the scripted server"
    elif "--judge" in done.argv:
        asked = [text for text in map(message_text, done.requests) if "Answer to grade:" not in text]
        assert asked == [], f"grading later asked the model under test: {asked[:1]}"
        grades = {result.grade.value for result in factprobe.load_run(folder).results}
        assert "UNGRADED" not in grades and "rows are UNGRADED" not in done.out, "rows left UNGRADED by the judge"
    else:
        assert done.requests == [], "resuming a finished run asked the model"


def check(done: Done, work: Path) -> None:
    """What each kind of command promises beyond exit status 0."""
    command = done.argv[0]
    if command == "run":
        check_run(done, work)
    elif command == "report":
        assert done.requests == [], "report asked a model"
        assert (work / done.argv[1] / "report.html").is_file()
    elif command == "compare":
        assert "ΔF" in done.out and all(Path(name).name in done.out for name in done.argv[1:])
    elif command == "view":
        assert done.out.strip() == str((work / done.argv[1] / "report.html").resolve()), done.out
    elif command == "datasets" and len(done.argv) == 1:
        assert "sample" in done.out
    elif command == "strategies":
        assert all(name in done.out for name in ("vanilla", "rag", "best_of_n"))
    elif command == "datasets":
        assert done.out.strip(), "describe printed nothing"


LINES = commands()


@pytest.mark.parametrize("index", range(len(LINES)), ids=[f"{n}:{line.split('#')[0].strip()}"
                                                          for n, line in enumerate(LINES)])
def test_each_bash_command_runs_as_pasted(session: Session, index: int) -> None:
    done = session.upto(index)
    if done is None:
        pytest.skip(f"`{LINES[index]}` reads {SHARED}, absent beside this checkout")
    assert done.code == 0, f"`{LINES[index]}` exited {done.code}:\n{done.err[-2000:]}"
    check(done, session.work)


def test_the_bash_blocks_hold_what_this_module_expects() -> None:
    """The set-up lines left out are those tests/test_setup.py covers or the Development section lists,
    and the commands cover the run, resume, judge, report, compare and view this module checks."""
    skipped = [line.strip() for language, text in blocks() if language == "bash"
               for line in text.splitlines() if SET_UP.match(line.strip())]
    assert {line.split("#")[0].split()[1] for line in skipped if line.startswith("make")} == {
        "run", "test", "check", "bench"}
    heads = {shlex.split(line, comments=True)[1] for line in LINES}
    assert {"run", "report", "compare", "view", "datasets", "strategies"} <= heads
    assert any("--judge" in line and "--resume" in line for line in LINES)


def python_block() -> str:
    """The README's one Python block (a second one would go unrun: this fails until it is run too)."""
    [block] = [text for language, text in blocks() if language == "python"]
    assert block.count(LOCAL_MODEL) == 1, f"README: the Python API block should name {LOCAL_MODEL} once"
    return block


def test_the_python_block_runs_as_pasted(tmp_path: Path, server: ChatServer) -> None:
    """Only the model is replaced; the plots draw on Agg. Its run uses temperature 0.7, so it must not
    warn that repeats give identical answers (tests/eval/run/test_repeat_note.py: at 0 it does)."""
    pytest.importorskip("pandas", reason="run.to_pandas() needs the pandas extra: pip install -e '.[pandas]'")
    code = python_block().replace(LOCAL_MODEL, f'model="openai:{SERVED}@{server.url}"')
    script = tmp_path / "snippet.py"
    script.write_text(code, encoding="utf-8")
    env = {**os.environ, "MPLBACKEND": "Agg", "COLUMNS": "200"}
    finished = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=600)
    assert finished.returncode == 0, finished.stderr[-3000:]
    folder = tmp_path / "runs" / "notebook"
    assert [name for name in RUN_FILES if not (folder / name).is_file()] == []
    rows = (folder / "results.jsonl").read_text(encoding="utf-8").splitlines()
    assert {json.loads(row)["strategy"] for row in rows} == {"vanilla", "rag", "best_of_n"}
    printed = finished.stdout + finished.stderr
    assert "will give the same answer" not in printed
    assert "nothing to run" in printed, "resuming the finished run found work to do"
