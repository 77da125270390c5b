"""How `--workers N` starts its local workers: forked by a starter process once it has imported what
a shard runs, never with another thread alive, never with the embedded model's library loaded first.
(The runs themselves, against the benchmarks' stand-in server on 127.0.0.1, are test_workers.py's.)"""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.run.local_workers import can_fork, preload

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux only")


def run_python(code: str) -> str:
    """`code` in a fresh interpreter (this one may have imported anything); its output."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


@linux_only
def test_no_fork_while_another_thread_runs() -> None:
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not can_fork()
    finally:
        stop.set()
        thread.join()


@linux_only
def test_a_native_thread_pool_prevents_the_fork_too() -> None:
    """A thread a C library starts (numpy's BLAS pool, at import) is invisible to `threading`,
    but the kernel counts it."""
    found = run_python("import numpy, threading\n"
                       "from factprobe.eval.run.local_workers import can_fork\n"
                       "import os\n"
                       "print(threading.active_count(), len(os.listdir('/proc/self/task')) > 1, can_fork())")
    python_threads, native, forks = found.split()
    if native == "False":
        pytest.skip("numpy started no thread pool here (a single-threaded BLAS)")
    assert (python_threads, forks) == ("1", "False")


@linux_only
def test_a_fresh_run_process_may_fork() -> None:
    assert run_python("import factprobe.eval.cli.main, factprobe.eval.run.workers\n"
                      "from factprobe.eval.run.local_workers import can_fork\n"
                      "print(can_fork())") == "True"


def test_preload_imports_the_graph_library_and_the_sdk_but_never_llama_cpp() -> None:
    found = run_python(
        "import sys\n"
        "from factprobe.eval.config.run_config import RunConfig\n"
        "from factprobe.eval.run.local_workers import preload\n"
        "preload(RunConfig(strategies=['vanilla', 'refusal'], model='local', judge='openai:judge@http://127.0.0.1:9/v1'))\n"
        "print(sorted(m for m in ('langgraph.graph', 'openai', 'llama_cpp', 'numpy') if m in sys.modules))")
    assert found == "['langgraph.graph', 'openai']"


def test_an_unknown_strategy_is_refused_before_any_worker_starts() -> None:
    with pytest.raises(ValueError, match="unknown strategy 'nosuch'"):
        preload(RunConfig(strategies=["vanilla", "nosuch"], model="openai:m@http://127.0.0.1:9/v1"))
