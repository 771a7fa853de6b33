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


# ----------------------------------------------------------------------------- a child that serves many calls

RETIRE_GROWTH_SHARE = 0.5    # a served child whose address space grew past this share of its memory budget is replaced
RETIRE_GROWTH_MIB = 1024     # ... or, without a budget, past this many MiB (one huge file's arenas are not kept for good)
_HEADER_BYTES = 8            # each message on the pipes: its length, then the pickle


class ServingChild:
    """A forked child that runs many calls, one at a time, each with the budgets of
    `call_in_child`: a per-file fork costs ~20 ms of CPU (page tables, copy-on-write faults of a
    big parent), a served call almost nothing. A call that hangs, dies or runs out of memory
    costs that call and the child; the next call forks a fresh one. So does a child whose
    memory grew past RETIRE_GROWTH_SHARE of the budget (or RETIRE_GROWTH_MIB): one huge file's
    heap does not stay with the child, nor shrink the budget of the files after it.

    One caller thread at a time (the kernel ties the child's life to the forking thread);
    `serving_child` keeps one per thread and memory budget."""

    def __init__(self, max_memory_mib: float | None = None):
        if not FORK_AVAILABLE:
            raise RuntimeError("ServingChild needs os.fork")
        self.max_memory_mib = max_memory_mib
        self.pid: int | None = None
        self.request_fd = self.reply_fd = -1
        self.calls = 0             # calls served by the current child
        self.forks = 0             # children forked so far

    def call(self, function: Callable[[], Any], *, max_seconds: float | None = None) -> ChildResult:
        """`function()` in the served child (forked first when there is none): killed after `max_seconds`."""
        if self.pid is None:
            self._fork()
        request = pickle.dumps(function, protocol=pickle.HIGHEST_PROTOCOL)
        try:
            _write_message(self.request_fd, request)
        except OSError:   # the child ended between calls (its forking thread ended): a fresh one takes the call
            self._reap(kill=True)
            self._fork()
            _write_message(self.request_fd, request)
        deadline = None if max_seconds is None else time.monotonic() + max_seconds
        try:
            reply = _read_message(self.reply_fd, deadline)
        except BaseException:   # the caller was interrupted: the child must not outlive the call
            self._reap(kill=True)
            raise
        if reply is _TIMED_OUT:
            cpu_seconds = self._reap(kill=True)
            return ChildResult(TIMED_OUT, detail=f"still running after {max_seconds} s: stopped", cpu_seconds=cpu_seconds)
        if reply is None:   # the child died inside the call
            status, cpu_seconds = self._reap_status()
            return ChildResult(DIED, detail=_ending(status), cpu_seconds=cpu_seconds)
        self.calls += 1
        returned, payload, cpu_seconds, retiring = pickle.loads(reply)
        if retiring:
            self._reap(kill=False)
        return ChildResult(RETURNED if returned else RAISED, value=payload if returned else None,
                           detail="" if returned else payload, cpu_seconds=cpu_seconds)

    def close(self) -> None:
        """End the child (it ends by itself when this process does)."""
        if self.pid is not None:
            self._reap(kill=False)

    def _fork(self) -> None:
        prctl, parent_pid = _linux_prctl(), os.getpid()
        request_read, request_write = os.pipe()
        reply_read, reply_write = os.pipe()
        pid = os.fork()
        if pid == 0:   # the child: serves until its request pipe closes, never returns into the caller's code
            os.close(request_write)
            os.close(reply_read)
            _serve(request_read, reply_write, self.max_memory_mib, prctl, parent_pid)
        os.close(request_read)
        os.close(reply_write)
        self.pid, self.request_fd, self.reply_fd, self.calls = pid, request_write, reply_read, 0
        self.forks += 1

    def _reap(self, *, kill: bool) -> float:
        if kill:
            _kill_quietly(self.pid)
        return self._reap_status()[1]

    def _reap_status(self) -> tuple[int, float]:
        """Close the pipes (a live child reads their end and exits) and wait for the child."""
        for fd in (self.request_fd, self.reply_fd):
            try:
                os.close(fd)
            except OSError:
                pass
        _, status, usage = os.wait4(self.pid, 0)
        self.pid, self.request_fd, self.reply_fd = None, -1, -1
        return status, round(usage.ru_utime + usage.ru_stime, 3)


_TIMED_OUT = object()
_serving = None   # threading.local: each caller thread's served children, by memory budget


def serving_child(max_memory_mib: float | None = None) -> ServingChild:
    """This thread's ServingChild for this memory budget (made on first use)."""
    global _serving
    if _serving is None:
        import threading

        _serving = threading.local()
    children = getattr(_serving, "children", None)
    if children is None or getattr(_serving, "pid", None) != os.getpid():   # a forked copy of a thread owns none
        children = _serving.children = {}
        _serving.pid = os.getpid()
    child = children.get(max_memory_mib)
    if child is None:
        child = children[max_memory_mib] = ServingChild(max_memory_mib)
    return child


def stop_serving() -> None:
    """End this thread's served children (the next call forks afresh: e.g. after the engine was
    changed in this process, which a child forked before does not see)."""
    children = getattr(_serving, "children", None) if _serving is not None else None
    if children and getattr(_serving, "pid", None) == os.getpid():
        for child in children.values():
            child.close()
        children.clear()


def _serve(request_fd: int, reply_fd: int, max_memory_mib: float | None, prctl, parent_pid: int) -> None:
    code = 0
    try:
        _die_with_parent(prctl, parent_pid)
        start_size = _address_space_bytes()
        if max_memory_mib is not None:
            _cap_memory(max_memory_mib)
        retire_growth = (RETIRE_GROWTH_SHARE * max_memory_mib if max_memory_mib is not None else RETIRE_GROWTH_MIB) * MiB
        while True:
            request = _read_message(request_fd, None)
            if request is None:   # the parent closed the pipe: no more calls
                break
            cpu_started = time.process_time()
            out_of_memory = False
            try:
                returned, payload = True, pickle.loads(request)()
            except BaseException as exc:   # reported to the caller; the child serves on unless memory ran out
                returned, payload = False, _describe(exc)
                out_of_memory = isinstance(exc, MemoryError)   # its heap is in an unknown state: retire
            retiring = out_of_memory or _address_space_bytes() - start_size > retire_growth
            cpu_seconds = round(time.process_time() - cpu_started, 3)
            try:
                reply = pickle.dumps((returned, payload, cpu_seconds, retiring), protocol=pickle.HIGHEST_PROTOCOL)
            except BaseException as exc:   # an unpicklable value, or no memory left to pickle it
                reply = pickle.dumps((False, _describe(exc), cpu_seconds, True), protocol=pickle.HIGHEST_PROTOCOL)
                retiring = True
            _write_message(reply_fd, reply)
            if retiring:
                break
    except BaseException:
        code = 1
    finally:
        os._exit(code)


def _address_space_bytes() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):   # no /proc (macOS): the peak resident size stands in
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _write_message(fd: int, payload: bytes) -> None:
    view = memoryview(len(payload).to_bytes(_HEADER_BYTES, "little") + payload)
    while view:
        view = view[os.write(fd, view):]


def _read_message(fd: int, deadline: float | None):
    """One message from the pipe: its bytes, None at end of file (a partial message too), or
    _TIMED_OUT when the deadline passes first."""
    chunks: list[bytes] = []
    received, expected = 0, None
    waiting = selectors.DefaultSelector()   # not select(): a busy worker's descriptors may pass 1024
    waiting.register(fd, selectors.EVENT_READ)
    try:
        while expected is None or received < expected + _HEADER_BYTES:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not waiting.select(wait):
                return _TIMED_OUT
            chunk = os.read(fd, READ_CHUNK_BYTES if expected is None else
                            min(READ_CHUNK_BYTES, expected + _HEADER_BYTES - received))
            if not chunk:
                return None
            chunks.append(chunk)
            received += len(chunk)
            if expected is None and received >= _HEADER_BYTES:
                head = b"".join(chunks)
                expected = int.from_bytes(head[:_HEADER_BYTES], "little")
                chunks = [head]
    finally:
        waiting.close()
    return b"".join(chunks)[_HEADER_BYTES:]
