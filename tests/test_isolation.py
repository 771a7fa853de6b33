"""glyphline.isolation: a call in a forked child, killed at its deadline, its memory capped, its crash contained."""
from __future__ import annotations

import functools
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


# ----------------------------------------------------------------------------- a child serving many calls
# (a served call is sent pickled: module-level functions and partials only)

def _text(n: int) -> str:
    return "é" * n


def _sleep_long() -> None:
    time.sleep(3600)


def _exit_7() -> None:
    os._exit(7)


def _broken() -> None:
    raise ValueError("bad input")


def _allocate_400_mib() -> int:
    return len(bytearray(400 * isolation.MiB))


_KEPT: list = []


def _grow_70_mib() -> int:
    _KEPT.append(bytearray(70 * isolation.MiB))   # held by the child: its heap stays grown
    return os.getpid()


def _busy() -> None:
    deadline = time.process_time() + 0.2
    while time.process_time() < deadline:
        pass


def test_a_serving_child_runs_many_calls_in_one_process():
    child = isolation.ServingChild()
    try:
        pids = [child.call(os.getpid).value for _ in range(3)]
        assert len(set(pids)) == 1 and pids[0] != os.getpid() and child.forks == 1
        big = child.call(functools.partial(_text, 300_000))   # larger than a pipe buffer
        assert big.ending == isolation.RETURNED and big.value == "é" * 300_000
    finally:
        child.close()


def test_after_a_hang_or_a_death_the_next_call_gets_a_fresh_child():
    child = isolation.ServingChild()
    try:
        first = child.call(os.getpid).value
        hung = child.call(_sleep_long, max_seconds=0.5)
        assert hung.ending == isolation.TIMED_OUT and "0.5 s" in hung.detail
        second = child.call(os.getpid).value
        died = child.call(_exit_7)
        assert (died.ending, died.detail) == (isolation.DIED, "exited with code 7")
        third = child.call(os.getpid).value
        assert len({first, second, third}) == 3 and child.forks == 3
    finally:
        child.close()


def test_an_exception_costs_the_call_but_not_the_child():
    child = isolation.ServingChild()
    try:
        pid = child.call(os.getpid).value
        result = child.call(_broken)
        assert (result.ending, result.detail) == (isolation.RAISED, "ValueError: bad input")
        assert child.call(os.getpid).value == pid
    finally:
        child.close()


def test_a_serving_child_keeps_its_memory_cap_and_is_replaced_after_running_out():
    child = isolation.ServingChild(max_memory_mib=100)
    try:
        pid = child.call(os.getpid).value
        result = child.call(_allocate_400_mib)
        assert (result.ending, result.detail) == (isolation.RAISED, "MemoryError")
        assert child.call(os.getpid).value != pid   # a child that ran out of memory serves no more
        assert child.call(_allocate_400_mib).detail == "MemoryError"   # the fresh child has the same cap
    finally:
        child.close()


def test_a_child_that_grew_past_half_its_budget_is_replaced():
    child = isolation.ServingChild(max_memory_mib=100)
    try:
        grown = child.call(_grow_70_mib).value
        assert child.call(os.getpid).value != grown
        small = isolation.ServingChild(max_memory_mib=200)
        try:
            kept = small.call(_grow_70_mib).value
            assert small.call(os.getpid).value == kept   # under half of 200 MiB: it serves on
        finally:
            small.close()
    finally:
        child.close()


def test_a_served_calls_cpu_time_is_its_own():
    child = isolation.ServingChild()
    try:
        assert child.call(_busy).cpu_seconds >= 0.2
        assert child.call(os.getpid).cpu_seconds < 0.1   # not the calls before it
    finally:
        child.close()


def test_each_thread_has_its_own_serving_child():
    import threading

    here = isolation.serving_child()
    assert isolation.serving_child() is here and isolation.serving_child(50) is not here
    other = []
    thread = threading.Thread(target=lambda: other.append(isolation.serving_child()))
    thread.start()
    thread.join()
    assert other[0] is not here
