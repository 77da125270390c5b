"""Run every benchmark module (`bench_*.py`), or only those named: `python -m benchmarks retrieval`."""

from __future__ import annotations

import importlib
import pkgutil
import sys

from rich.console import Console

import benchmarks


def bench_modules() -> list[str]:
    """Names of the benchmark modules, sorted."""
    return sorted(info.name for info in pkgutil.iter_modules(benchmarks.__path__) if info.name.startswith("bench_"))


def main(argv: list[str]) -> int:
    console = Console()
    wanted = [name if name.startswith("bench_") else f"bench_{name}" for name in argv]
    available = bench_modules()
    unknown = [name for name in wanted if name not in available]
    if unknown:
        print(f"unknown benchmark(s) {', '.join(unknown)}; available: {', '.join(available)}", file=sys.stderr)
        return 2
    for name in wanted or available:
        console.rule(f"[bold]{name}")
        importlib.import_module(f"benchmarks.{name}").run(console)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
