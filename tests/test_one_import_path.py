"""One import path: from the checkout root, where each source folder is also importable by its bare
name (`eval`, `agents`, …), only `factprobe.<folder>` imports; the bare name fails with one line
saying which to import, so no module is ever loaded twice under two names (two `Question` classes
that fail each other's isinstance)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# one module of each source folder
MODULES = {"eval": "eval.core.schema", "agents": "agents.registry", "retrieval": "retrieval.base",
           "calibration": "calibration.metrics", "decomposition": "decomposition.decomposer"}

PROBE = """
import importlib, json, sys
found = {}
for name in sys.argv[1:]:
    try:
        importlib.import_module(name)
        found[name] = "imported"
    except ImportError as exc:
        found[name] = str(exc)
from factprobe.eval.core.schema import Question
found["Question"] = Question.__module__
found["loaded"] = sorted(m for m in sys.modules if m.split(".")[0] in ("eval", "agents", "retrieval", "calibration",
                                                                       "decomposition"))
print(json.dumps(found))
"""


def test_the_bare_folder_names_refuse_to_import_and_factprobe_names_work() -> None:
    assert all((ROOT / module.replace(".", "/")).with_suffix(".py").is_file() for module in MODULES.values())
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", PROBE, *MODULES.values(), *(f"factprobe.{m}" for m in MODULES.values())],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout.splitlines()[-1])
    for top, module in MODULES.items():
        assert found[module].startswith(f"import factprobe.{top}, not {top}:"), found[module]
        assert found[f"factprobe.{module}"] == "imported"
    assert found["Question"] == "factprobe.eval.core.schema"
    assert found["loaded"] == []       # a refused import leaves nothing half-loaded behind


def test_every_source_folder_carries_the_guard() -> None:
    """A new top-level folder gets the same guard (tests/test_layers.py names the five)."""
    from tests.test_layers import TOP_PACKAGES

    assert set(TOP_PACKAGES) == set(MODULES)
    for top in TOP_PACKAGES:
        text = (ROOT / top / "__init__.py").read_text(encoding="utf-8")
        assert f'if __name__ != "factprobe.{top}":' in text, top
