"""`factprobe run` on the embedded model, recording every generation call it makes.

`python -m benchmarks.local_run_recorder CALLS.json RUN_ARGS...` runs the CLI in this process with
`LocalModel._generate_sync` wrapped so each call's messages and settings are appended to a list
(the wrapper only appends; the call is unchanged), and writes that list to CALLS.json at the end.
benchmarks/raw_llama.py then replays the same calls with llama-cpp-python alone.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from factprobe.agents.models.local import LocalModel
from factprobe.eval.cli import main as cli


def main(calls_path: Path, run_args: list[str]) -> int:
    calls: list[dict[str, Any]] = []
    generate = LocalModel._generate_sync

    def recording(self: LocalModel, messages: list, params: Any) -> Any:
        calls.append({"messages": messages, "params": params.as_dict()})
        return generate(self, messages, params)

    LocalModel._generate_sync = recording  # type: ignore[method-assign]
    status = cli.main(run_args)
    calls_path.write_text(json.dumps(calls), encoding="utf-8")
    return status


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), sys.argv[2:]))
