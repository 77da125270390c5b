"""Helpers shared by the evaluation tests."""

from __future__ import annotations

import json

import pytest

import factprobe.eval.cli.main as cli


def audit_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict | None, str]:
    """`factprobe audit-grader ARGS --json --no-cache`: its exit status, the JSON it printed (None
    when it printed nothing) and its standard error."""
    code = cli.main(["audit-grader", *args, "--json", "--no-cache"])
    captured = capsys.readouterr()
    return code, (json.loads(captured.out) if captured.out.strip() else None), captured.err
