"""The cyclic garbage collector during the `factprobe` command's start-up.

Start-up builds hundreds of thousands of objects that live as long as the process (modules,
classes, pydantic models of openai, langsmith and langgraph) and little cyclic garbage; the
collector's passes over them cost about 0.18 s of CPU before the first request, against 0.05 s in
a raw AsyncOpenAI script. So the command pauses the collector while it starts, and when the run is
about to answer it moves everything alive then to the permanent generation (`gc.freeze`: later
passes, during the answers too, no longer walk it) and turns the collector back on. The cyclic
garbage frozen with it is small (about 2,400 objects in a vanilla run; collecting it first would
cost 0.1 s of CPU).

Only the command's own process does this (`pause_collection` is called by the CLI entry point
when it owns the process); `end_start_up` does nothing otherwise, so the Python API and tests
leave the caller's collector alone.

The same holds at the other end: when the command has finished, the interpreter's exit runs a last
full collection over every object alive (after a run: langgraph, openai, numpy, matplotlib and the
report's rows), 0.45 to 0.5 s of CPU measured after a 2,000-question run, on one core, after the
last file is written. `end_of_process` freezes them first, so that collection has nothing to walk;
every module and file is still released by its reference count as before (open files flushed and
closed), only cyclic garbage still alive then is left to the process's end, whose finalizers
Python never promised to run at exit anyway.
"""

from __future__ import annotations

import gc

_paused = False


def pause_collection() -> None:
    """Turn the cyclic collector off until `end_start_up` or `resume_collection`; nothing when it is
    already off (someone else's choice, left as it is)."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def end_start_up() -> None:
    """Start-up is over: freeze what is alive and turn the collector back on, if it was paused."""
    global _paused
    if _paused:
        gc.freeze()
        gc.enable()
        _paused = False


def resume_collection() -> None:
    """Turn the collector back on without freezing (a command that answers nothing), if paused."""
    global _paused
    if _paused:
        gc.enable()
        _paused = False


def collection_paused() -> bool:
    """Whether start-up paused the collector and has not ended yet."""
    return _paused


def end_of_process() -> None:
    """The process is about to exit (the command's own process, its work done and its files
    closed): spare the interpreter's exit its last collection over everything alive (see the
    module's docstring)."""
    gc.freeze()
