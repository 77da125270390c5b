"""factprobe installs under one namespace: `factprobe.agents`, `factprobe.eval`, … and nothing else."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE_PACKAGES = ("agents", "retrieval", "calibration", "decomposition", "eval")


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_every_source_package_is_listed_for_installation():
    listed = set(_pyproject()["tool"]["setuptools"]["packages"])
    on_disk = {"factprobe." + ".".join(init.parent.relative_to(ROOT).parts)
               for top in SOURCE_PACKAGES for init in (ROOT / top).rglob("__init__.py")
               if "api" not in init.parent.relative_to(ROOT).parts}
    assert on_disk <= listed, f"packages missing from pyproject.toml: {sorted(on_disk - listed)}"


def test_the_wheel_installs_nothing_outside_the_factprobe_namespace(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(tmp_path), str(ROOT)], check=True, capture_output=True)
    wheel = next(tmp_path.glob("factprobe-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    top = {name.split("/")[0] for name in names}
    assert {t for t in top if not t.endswith(".dist-info")} == {"factprobe"}
    assert "factprobe/eval/data/sample/questions/part_a.jsonl" in names
    assert not any(name.startswith("factprobe/eval/api/") for name in names)


def test_factprobe_and_the_openai_agents_sdk_import_side_by_side(tmp_path):
    """`import agents` is the OpenAI Agents SDK's (a dev dependency), and factprobe still works.

    Run from an unrelated directory, as a user would: the checkout itself is not on sys.path."""
    script = (
        "import json, agents, factprobe\n"
        "from factprobe.agents.registry import strategies\n"
        "print(json.dumps({'sdk': agents.__file__, 'has_agent': hasattr(agents, 'Agent'),\n"
        "                  'version': factprobe.__version__, 'strategies': list(strategies())}))\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True,
                          text=True, check=True)
    seen = json.loads(done.stdout)
    assert Path(seen["sdk"]).resolve() != (ROOT / "agents" / "__init__.py").resolve()
    assert "site-packages" in Path(seen["sdk"]).parts
    assert seen["has_agent"] and seen["version"]
    assert "vanilla" in seen["strategies"]
