"""factprobe installs under one namespace: `factprobe.agents`, `factprobe.eval`, … and nothing else."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE_PACKAGES = ("agents", "retrieval", "calibration", "decomposition", "eval")


def test_the_face_links_each_source_folder_into_the_package():
    """`factprobe/` is the importable package in the checkout itself: its face (and `__main__`, for
    `python -m factprobe`) plus a link to each of the five folders, so an import path names a file
    an editor or grep can find."""
    for top in SOURCE_PACKAGES:
        link = ROOT / "factprobe" / top
        assert link.is_symlink() and link.resolve() == (ROOT / top).resolve(), top
    assert sorted(p.name for p in (ROOT / "factprobe").iterdir() if not p.is_symlink()
                  and p.name != "__pycache__") == ["__init__.py", "__main__.py"]


def test_the_wheel_installs_nothing_outside_the_factprobe_namespace(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(tmp_path), str(ROOT)], check=True, capture_output=True)
    wheel = next(tmp_path.glob("factprobe-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    top = {name.split("/")[0] for name in names}
    assert {t for t in top if not t.endswith(".dist-info")} == {"factprobe"}
    assert "factprobe/eval/datasets/data/sample/questions/part_a.jsonl" in names
    assert "factprobe/eval/grading/data/grading_cases.jsonl" in names
    on_disk = {"factprobe/" + "/".join(init.relative_to(ROOT).parts)
               for top in SOURCE_PACKAGES for init in (ROOT / top).rglob("__init__.py")}
    assert on_disk <= set(names), f"packages missing from the wheel: {sorted(on_disk - set(names))}"


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
