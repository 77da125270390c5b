"""scipy is only the tests' reference: no source module imports it, so it is no runtime dependency
(eval/analysis/stats.py gives the measured import cost that decided it)."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE_FOLDERS = ("agents", "calibration", "decomposition", "eval", "retrieval", "factprobe")


def imported_roots(path: Path) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            roots.add(node.module.split(".")[0])
    return roots


def test_no_source_module_imports_scipy() -> None:
    files = [path for folder in SOURCE_FOLDERS for path in (ROOT / folder).rglob("*.py")
             if (ROOT / folder).is_dir() and not (ROOT / folder).is_symlink()]
    assert len(files) > 50
    assert [str(path.relative_to(ROOT)) for path in files if "scipy" in imported_roots(path)] == []


def test_scipy_is_a_dev_dependency_only() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert not any(spec.startswith("scipy") for spec in project["dependencies"])
    assert any(spec.startswith("scipy") for spec in project["optional-dependencies"]["dev"])
