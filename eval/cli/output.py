"""Printing for the command line: JSON that survives a closed pipe (`factprobe … --json | head`)."""

from __future__ import annotations

import json
import sys
from typing import Any

from factprobe.eval.core.format import stdout_gone


def print_json(value: Any) -> None:
    """`value` as indented JSON on stdout. When the reader has gone (a pipe into `head`), stop
    quietly: stdout is pointed at /dev/null so the interpreter's final flush raises nothing."""
    try:
        sys.stdout.write(json.dumps(value, indent=2, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        stdout_gone()
