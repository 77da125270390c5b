"""factprobe's public Python API; installed as the top-level `factprobe` package.

The source tree keeps the design's folders (`agents/`, `eval/`, …); setuptools maps this folder to
`factprobe` and the folders to `factprobe.agents`, `factprobe.eval`, … (see pyproject.toml).
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("factprobe")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"

__all__ = ["__version__"]
