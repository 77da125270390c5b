"""The collector paused for the command's start-up: back on, with start-up's objects frozen, when
the run is about to answer; left alone when the caller had turned it off."""

from __future__ import annotations

import gc

import pytest

from factprobe.eval.core import startup


@pytest.fixture
def collector():
    """The collector as the test found it, restored afterwards (frozen objects thawed)."""
    was_on = gc.isenabled()
    yield
    gc.unfreeze()
    startup.resume_collection()
    (gc.enable if was_on else gc.disable)()


def test_a_paused_start_up_ends_with_the_collector_on_and_start_up_frozen(collector) -> None:
    gc.enable()
    startup.pause_collection()
    assert not gc.isenabled() and startup.collection_paused()
    startup.end_start_up()
    assert gc.isenabled() and gc.get_freeze_count() > 0 and not startup.collection_paused()


def test_a_command_that_answers_nothing_turns_it_back_on_without_freezing(collector) -> None:
    gc.enable()
    gc.unfreeze()
    startup.pause_collection()
    startup.resume_collection()
    startup.end_start_up()            # nothing left to end
    assert gc.isenabled() and gc.get_freeze_count() == 0


def test_a_collector_the_caller_turned_off_stays_off_and_nothing_is_frozen(collector) -> None:
    gc.disable()
    gc.unfreeze()
    startup.pause_collection()
    startup.end_start_up()
    assert not gc.isenabled() and gc.get_freeze_count() == 0 and not startup.collection_paused()


def test_the_end_of_the_process_leaves_nothing_for_the_last_collection_to_walk(collector) -> None:
    gc.enable()
    gc.unfreeze()
    alive = [[] for _ in range(100)]
    startup.end_of_process()
    assert gc.get_freeze_count() >= len(alive) and gc.isenabled()
