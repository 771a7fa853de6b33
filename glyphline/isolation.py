"""One call in a forked child process with a hard time and memory budget.

A file that hangs inside one page, allocates without end, or crashes the interpreter costs
that call's result, never the process that asked for it (a batch run, a Dask worker). Only
where `os.fork` exists (Linux, macOS); elsewhere (Windows, Pyodide) `FORK_AVAILABLE` is False
and callers run in-process with their soft budgets.
"""
from __future__ import annotations

import functools
import os
import pickle
import selectors
import signal
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable

FORK_AVAILABLE = hasattr(os, "fork") and sys.platform not in ("emscripten", "wasi")
MiB = 1024 * 1024
READ_CHUNK_BYTES = 1 * MiB   # the child's pickled result is read in pieces while it is written
PR_SET_PDEATHSIG = 1         # linux/prctl.h: the signal a child gets when the thread that forked it dies

# how the child's run ended
RETURNED = "returned"        # the function returned; `value` holds what it returned
RAISED = "raised"            # the function raised; `detail` names the exception
TIMED_OUT = "timed-out"      # still running at the deadline: killed
DIED = "died"                # the child died without a result (a signal, os._exit, a crash in C code)


@dataclass(frozen=True)
class ChildResult:
    ending: str                  # RETURNED, RAISED, TIMED_OUT or DIED
    value: Any = None
    detail: str = ""             # what went wrong, in one line
    cpu_seconds: float = 0.0     # the child's user + system time


def call_in_child(function: Callable[[], Any], *, max_seconds: float | None = None,
                  max_memory_mib: float | None = None) -> ChildResult:
    """`function()` in a forked child: killed after `max_seconds` of wall time,
    its address space growth capped at `max_memory_mib` (allocations past it raise MemoryError
    in the child). The result comes back pickled, so it must be picklable."""
    if not FORK_AVAILABLE:
        raise RuntimeError("call_in_child needs os.fork")
    prctl, parent_pid = _linux_prctl(), os.getpid()
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:   # the child: never returns into the caller's code
        os.close(read_fd)
        _run_child(write_fd, function, max_memory_mib, prctl, parent_pid)
    os.close(write_fd)
    deadline = None if max_seconds is None else time.monotonic() + max_seconds
    chunks: list[bytes] = []
    timed_out = False
    waiting = selectors.DefaultSelector()   # not select(): a busy worker's descriptors may pass 1024
    waiting.register(read_fd, selectors.EVENT_READ)
    try:
        while True:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not waiting.select(wait):
                timed_out = True
                _kill_quietly(pid)
                break
            chunk = os.read(read_fd, READ_CHUNK_BYTES)
            if not chunk:
                break
            chunks.append(chunk)
    except BaseException:   # the caller was interrupted: the child must not outlive it
        _kill_quietly(pid)
        raise
    finally:
        waiting.close()
        os.close(read_fd)
        _, status, usage = os.wait4(pid, 0)
    cpu_seconds = round(usage.ru_utime + usage.ru_stime, 3)
    if timed_out:
        return ChildResult(TIMED_OUT, detail=f"still running after {max_seconds} s: stopped", cpu_seconds=cpu_seconds)
    if chunks:
        try:
            returned, payload = pickle.loads(b"".join(chunks))
        except Exception as exc:   # a partial write: the child died while sending
            return ChildResult(DIED, detail=f"{_ending(status)} while sending its result ({type(exc).__name__})",
                               cpu_seconds=cpu_seconds)
        return ChildResult(RETURNED if returned else RAISED, value=payload if returned else None,
                           detail="" if returned else payload, cpu_seconds=cpu_seconds)
    return ChildResult(DIED, detail=_ending(status), cpu_seconds=cpu_seconds)


def _run_child(write_fd: int, function: Callable[[], Any], max_memory_mib: float | None, prctl,
               parent_pid: int) -> None:
    code = 0
    try:
        try:
            _die_with_parent(prctl, parent_pid)
            if max_memory_mib is not None:
                _cap_memory(max_memory_mib)
            payload = pickle.dumps((True, function()), protocol=pickle.HIGHEST_PROTOCOL)
        except BaseException as exc:   # everything is reported, the child then ends
            payload = pickle.dumps((False, _describe(exc)), protocol=pickle.HIGHEST_PROTOCOL)
        view = memoryview(payload)
        while view:
            view = view[os.write(write_fd, view):]
    except BaseException:
        code = 1
    finally:
        os._exit(code)


@functools.cache
def _linux_prctl():
    """libc's prctl on Linux (looked up once, in the parent), else None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl
    except (ImportError, OSError, AttributeError):
        return None


def _die_with_parent(prctl, parent_pid: int) -> None:
    """The kernel kills the child when its parent dies (a Dask worker restarted by its nanny), so
    a hanging child never outlives the one that would have killed it."""
    if prctl is None:
        return
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent_pid:   # the parent died before prctl took effect
        os._exit(1)


def _cap_memory(max_memory_mib: float) -> None:
    """The address space may grow by `max_memory_mib` beyond what the child inherited."""
    import resource

    try:
        with open("/proc/self/statm") as f:
            inherited = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        inherited = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    limit = inherited + int(max_memory_mib * MiB)
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    try:
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ValueError, OSError):   # a system that refuses the cap (macOS): the file runs unbounded, not failed
        pass


def _ending(status: int) -> str:
    code = os.waitstatus_to_exitcode(status)
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exited with code {code}"


def _kill_quietly(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass


def _describe(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0][:160] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
