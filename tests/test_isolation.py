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


def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")   # a zombie has ended
    except FileNotFoundError:
        return True


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")
def test_a_child_does_not_outlive_the_process_that_forked_it(tmp_path):
    pid_file = tmp_path / "child.pid"

    def hang():
        pid_file.write_text(str(os.getpid()))
        time.sleep(3600)

    middle = os.fork()
    if middle == 0:   # stands in for a Dask worker that is killed while its child hangs
        try:
            call_in_child(hang)
        finally:
            os._exit(0)
    for _ in range(200):
        if pid_file.exists() and pid_file.read_text():
            break
        time.sleep(0.05)
    child = int(pid_file.read_text())
    os.kill(middle, signal.SIGKILL)
    os.waitpid(middle, 0)
    try:
        for _ in range(200):
            if _gone(child):
                break
            time.sleep(0.05)
        assert _gone(child)
    finally:
        if not _gone(child):   # the test failed: leave no sleeper behind
            os.kill(child, signal.SIGKILL)
