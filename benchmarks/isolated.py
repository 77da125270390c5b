"""Run a command as the child of a small launcher process, for a peak-memory figure of its own.

Linux carries a process's peak resident set size across fork and exec (ru_maxrss starts from the
parent's), so a command started straight from a benchmark process that has already loaded a model
reports that process's peak, not its own. Started here instead, its parent is this launcher (a few
MB), so ru_maxrss is the command's own. `python -m benchmarks.isolated CMD...` runs CMD with its
output discarded and prints one JSON line: wall seconds, peak MB, exit status and stderr's tail.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass


@dataclass
class ProcessCost:
    wall_s: float
    peak_mb: float


def run_isolated(command: list[str], env: dict[str, str] | None = None) -> ProcessCost:
    """Run `command` through the launcher; its own wall time and peak memory. Raises on failure."""
    launcher = subprocess.run([sys.executable, "-m", "benchmarks.isolated", *command], env=env,
                              capture_output=True, text=True, check=False)
    if launcher.returncode != 0:
        raise RuntimeError(f"launcher failed: {launcher.stderr[-2000:]}")
    measured = json.loads(launcher.stdout.strip().splitlines()[-1])
    if measured["status"] != 0:
        raise RuntimeError(f"{' '.join(command)} exited {measured['status']}: {measured['stderr']}")
    return ProcessCost(measured["wall_s"], measured["peak_mb"])


def main(command: list[str]) -> int:
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    stderr = process.stderr.read().decode(errors="replace")[-2000:] if process.stderr else ""
    print(json.dumps({"wall_s": wall, "peak_mb": usage.ru_maxrss / 1024,  # KiB on Linux
                      "status": os.waitstatus_to_exitcode(status), "stderr": stderr}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
