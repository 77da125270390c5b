"""What `factprobe run` imports before its first request: the report's libraries wait for the end."""

from __future__ import annotations

import subprocess
import sys


def test_the_run_path_does_not_import_the_report_or_numpy_up_front() -> None:
    probe = ("import sys, factprobe.eval.cli.main, factprobe.eval.run.pipeline, factprobe.eval.run.runner\n"
             "print(sorted(m for m in ('numpy', 'matplotlib', 'jinja2', 'factprobe.eval.report.build') "
             "if m in sys.modules))")
    imported = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert imported.stdout.strip() == "[]"
