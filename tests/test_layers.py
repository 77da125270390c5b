"""The house's shape: layers named in pyproject.toml, no import loop between files, small modules.

import-linter (run by `make test` as `lint-imports`) checks the layer contracts on the import graph.
These tests check what it does not: that the contracts name every package (a new or renamed folder
cannot slip out of them, and no layer names a package that does not exist), that no two files
import each other even through an import inside a function, and the size limits of the layout.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOP_PACKAGES = ("agents", "retrieval", "calibration", "decomposition", "eval")
MAX_MODULE_LINES = 400
MAX_LOOSE_EVAL_MODULES = 6


def source_files() -> dict[str, Path]:
    """Module name -> file, for the face and every module of the five folders."""
    found = {"factprobe": ROOT / "factprobe" / "__init__.py"}
    for top in TOP_PACKAGES:
        for path in (ROOT / top).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(["factprobe", *parts])] = path
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the factprobe modules it imports (every import, also one inside a function)."""
    files = source_files()
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
                names = [f"{base}.{alias.name}" for alias in node.names] + [base]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            for name in names:
                while name and name not in files:
                    name = name.rpartition(".")[0]
                if name.startswith("factprobe") and name != module:
                    targets.add(name)
        graph[module] = targets
    return graph


def layer_contract() -> list[list[str]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    layers = next(c for c in config["contracts"] if c["type"] == "layers")["layers"]
    return [[name.strip() for name in layer.split("|")] for layer in layers]


def test_the_graph_sees_every_layer() -> None:
    graph = import_graph()
    assert "factprobe.eval.core.schema" in graph["factprobe.eval.run.runner"]
    assert len(graph) > 150


def test_the_layer_contract_names_every_package_and_only_real_ones() -> None:
    named = {name for layer in layer_contract() for name in layer}
    packages = {f"factprobe.{top}" for top in TOP_PACKAGES if top != "eval"}
    packages |= {f"factprobe.eval.{path.parent.name}" for path in (ROOT / "eval").glob("*/__init__.py")}
    assert packages == named, (f"packages missing from the layers: {sorted(packages - named)}; "
                               f"layers naming no package: {sorted(named - packages)}")


def test_no_two_files_import_each_other_through_any_chain() -> None:
    graph = import_graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    loops: list[list[str]] = []

    def visit(module: str) -> None:  # Tarjan's strongly connected components
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in graph.get(module, ()):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                loops.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    assert not loops, f"files importing each other: {loops}"


def test_eval_keeps_few_loose_modules() -> None:
    loose = [path.name for path in (ROOT / "eval").glob("*.py") if path.name != "__init__.py"]
    assert len(loose) <= MAX_LOOSE_EVAL_MODULES, loose


def test_no_module_is_over_the_size_limit() -> None:
    long = {str(path.relative_to(ROOT)): lines for path in source_files().values()
            if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES}
    assert not long, f"modules over {MAX_MODULE_LINES} lines: {long}"


def test_every_package_says_what_it_owns_and_may_import() -> None:
    missing = []
    for top in TOP_PACKAGES:
        for init in [ROOT / top / "__init__.py", *(ROOT / top).glob("*/__init__.py")]:
            if top == "eval" and init.parent != ROOT / "eval" and init.parent.parent != ROOT / "eval":
                continue
            if init.parent.parent not in (ROOT, ROOT / "eval"):
                continue
            doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
            if "import" not in doc.lower():
                missing.append(str(init.relative_to(ROOT)))
    assert not missing, f"package docstrings that do not say what the package may import: {missing}"
