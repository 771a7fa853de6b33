"""glyphline.isolation: a call in a forked child, killed at its deadline, its memory capped, its crash contained."""
from __future__ import annotations

import os
import signal
import time

import pytest

from glyphline import isolation
from glyphline.isolation import call_in_child

pytestmark = pytest.mark.skipif(not isolation.FORK_AVAILABLE, reason="needs os.fork")


def test_the_value_comes_back_from_the_child():
    result = call_in_child(lambda: {"pid": os.getpid(), "text": "é" * 100_000})
    assert result.ending == isolation.RETURNED
    assert result.value["pid"] != os.getpid() and result.value["text"] == "é" * 100_000   # larger than a pipe buffer


def test_an_exception_in_the_child_is_named():
    def broken():
        raise ValueError("bad input")

    result = call_in_child(broken)
    assert (result.ending, result.detail) == (isolation.RAISED, "ValueError: bad input")


def test_a_child_that_hangs_is_killed_at_its_deadline():
    result = call_in_child(lambda: time.sleep(3600), max_seconds=0.5)
    assert result.ending == isolation.TIMED_OUT and "0.5 s" in result.detail


def test_a_child_that_dies_is_a_result_and_the_caller_lives_on():
    result = call_in_child(lambda: os._exit(7))
    assert (result.ending, result.detail) == (isolation.DIED, "exited with code 7")
    result = call_in_child(lambda: os.kill(os.getpid(), signal.SIGKILL))
    assert (result.ending, result.detail) == (isolation.DIED, "killed by SIGKILL")


def test_the_memory_cap_turns_runaway_allocation_into_a_memory_error():
    def allocate():
        return len(bytearray(400 * isolation.MiB))

    assert call_in_child(allocate).value == 400 * isolation.MiB   # fine without a cap
    result = call_in_child(allocate, max_memory_mib=100)
    assert (result.ending, result.detail) == (isolation.RAISED, "MemoryError")


def test_the_childs_cpu_time_is_measured():
    def busy():
        deadline = time.process_time() + 0.2
        while time.process_time() < deadline:
            pass

    assert call_in_child(busy).cpu_seconds >= 0.2
