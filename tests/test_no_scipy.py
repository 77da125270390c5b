"""scipy stays off the paths where its import cost matters: `import scipy.stats` takes about 1.2 s
of CPU (eval/analysis/stats.py), so only `factprobe compare`'s Kendall's τ imports it, inside the
function that needs it; no module imports it at load time."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE_FOLDERS = ("agents", "calibration", "decomposition", "eval", "retrieval", "factprobe")


def top_level_imports(path: Path) -> set[str]:
    """Roots of the modules a file imports outside any function (what loading it imports)."""
    roots: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in tree.body:
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            roots.add(node.module.split(".")[0])
    return roots


def test_no_source_module_imports_scipy_when_it_is_loaded() -> None:
    files = [path for folder in SOURCE_FOLDERS for path in (ROOT / folder).rglob("*.py")
             if (ROOT / folder).is_dir() and not (ROOT / folder).is_symlink()]
    assert len(files) > 50
    assert [str(path.relative_to(ROOT)) for path in files if "scipy" in top_level_imports(path)] == []
