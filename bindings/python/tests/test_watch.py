"""Moves on disk: seen within a bounded wait while ``roots.watch()`` runs,
and only at ``rescan()`` without it; the guard stops the watcher from any
thread, the callback's own included, without deadlocking on the GIL."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest

import mcp_roots
from mcp_roots import Roots

# Generous: the watcher acts within about 50 ms plus a rescan; a loaded
# machine can be slower, but a move that is never seen fails the test.
DEADLINE = 10.0


def wait_for(condition, what: str) -> None:
    """Polls ``condition`` until it holds or the deadline passes."""
    end = time.monotonic() + DEADLINE
    while not condition():
        if time.monotonic() > end:
            pytest.fail(f"not within {DEADLINE} s: {what}")
        time.sleep(0.01)


def live(t: str, *dirs: str) -> Roots:
    roots = Roots()
    assert roots.replace([f"file://{t}/{d}" for d in dirs]).rejected == []
    return roots


def test_a_folder_moved_out_while_watching_revokes_the_held_file(tree):
    roots = live(tree, "a")
    events: list[mcp_roots.ScopeEvent] = []
    with roots.watch(events.append) as guard:
        held = roots.open(f"{tree}/a/sub/y.txt", "r+")
        assert held.read() == "y"
        os.rename(f"{tree}/a/sub", f"{tree}/outside/sub")
        wait_for(lambda: held.revoked == "scope_lost", "the held file revoked")
        with pytest.raises(mcp_roots.ScopeLostError):
            held.read()
        with pytest.raises(mcp_roots.ScopeLostError):
            held.write("changed")
        wait_for(lambda: any(e.kind == "handle_revoked" for e in events), "the event")
    assert guard.closed
    revoked = [e for e in events if e.kind == "handle_revoked"]
    assert revoked[0].path == "sub/y.txt" and revoked[0].reason == "scope_lost"
    assert open(f"{tree}/outside/sub/y.txt").read() == "y"


def test_a_root_renamed_while_watching_revokes_its_files(tree):
    roots = live(tree, "a", "b")
    events: list[mcp_roots.ScopeEvent] = []
    guard = roots.watch(events.append)
    try:
        held = roots.open(f"{tree}/a/x.txt", "rb")
        os.rename(f"{tree}/a", f"{tree}/moved")
        wait_for(lambda: held.revoked is not None, "the held file revoked")
        with pytest.raises(mcp_roots.ScopeLostError):
            held.read()
        with pytest.raises(mcp_roots.RootGoneError):
            roots.read_text(f"{tree}/a/x.txt")
        wait_for(lambda: any(e.kind == "root_gone" for e in events), "the root_gone event")
        assert [e.uri for e in events if e.kind == "root_gone"] == [f"file://{tree}/a"]
        # The other root still serves.
        os.makedirs(f"{tree}/b/c")
        assert roots.list_dir(f"{tree}/b")[0].name == "c"
    finally:
        guard.close()
    guard.close()  # twice does nothing


def test_without_a_watcher_a_move_is_seen_at_rescan(tree):
    roots = live(tree, "a")
    held = roots.open(f"{tree}/a/sub/y.txt")
    os.rename(f"{tree}/a/sub", f"{tree}/outside/sub")
    time.sleep(0.2)  # what a watcher would have needed
    assert held.revoked is None  # the promise: nothing is seen before rescan()
    report = roots.rescan()
    assert [(r.path, r.reason) for r in report.revoked] == [("sub/y.txt", "scope_lost")]
    with pytest.raises(mcp_roots.ScopeLostError):
        held.read()


def test_a_callback_that_raises_does_not_stop_the_watcher(tree, monkeypatch):
    roots = live(tree, "a")
    seen: list[str] = []
    reported: list[BaseException | None] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: reported.append(u.exc_value))

    def callback(event: mcp_roots.ScopeEvent) -> None:
        seen.append(event.kind)
        raise RuntimeError("the server's own bug")

    with roots.watch(callback):
        first = roots.open(f"{tree}/a/sub/y.txt")
        os.rename(f"{tree}/a/sub", f"{tree}/outside/sub")
        wait_for(lambda: first.revoked is not None, "the first file revoked")
        second = roots.open(f"{tree}/a/x.txt")
        os.makedirs(f"{tree}/outside/d")
        os.rename(f"{tree}/a/x.txt", f"{tree}/outside/d/x.txt")
        wait_for(lambda: second.revoked is not None, "the second file revoked")
    assert seen.count("handle_revoked") >= 2
    # Each exception is reported as unraisable, none stops the watcher.
    assert len(reported) == len(seen)
    assert all(isinstance(e, RuntimeError) for e in reported)


def test_watch_refuses_what_is_not_callable(tree):
    roots = live(tree, "a")
    with pytest.raises(TypeError, match="callback must be callable"):
        roots.watch("print")  # type: ignore[arg-type]


_DROPS = """
import gc, os, sys, threading, time
import mcp_roots
t, how = sys.argv[1], sys.argv[2]
roots = mcp_roots.Roots()
roots.replace([f"file://{t}/a"])
entered = threading.Event()
box = {}

def callback(event):
    entered.set()
    if how == "inside":
        box.pop("guard").close()
    elif how == "inside_drop":
        del box["guard"]
    else:
        time.sleep(0.05)  # still in the callback when the guard goes

box["guard"] = roots.watch(callback)
held = roots.open(f"{t}/a/sub/y.txt")
os.rename(f"{t}/a/sub", f"{t}/outside/sub")
if how in ("inside", "inside_drop"):
    assert entered.wait(30)
else:
    assert entered.wait(30)
    # The watcher thread is in the callback or waiting for the GIL while
    # this thread, holding the GIL, stops it.
    if how == "outside_close":
        box["guard"].close()
    else:
        del box["guard"]
        gc.collect()
deadline = time.monotonic() + 30
while held.revoked is None and time.monotonic() < deadline:
    time.sleep(0.01)
print("done", held.revoked)
"""


@pytest.mark.parametrize("how", ["inside", "inside_drop", "outside_close", "outside_drop"])
def test_stopping_the_watcher_never_deadlocks(tree, how):
    """Run in a child process, so that a deadlock fails the test instead of
    hanging it."""
    out = subprocess.run(
        [sys.executable, "-c", _DROPS, tree, how], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0 and out.stdout.strip() == "done scope_lost", out.stderr


def test_the_interpreter_exits_with_a_watcher_running(tree):
    script = (
        "import sys, mcp_roots\n"
        "roots = mcp_roots.Roots()\n"
        "roots.replace([f'file://{sys.argv[1]}/a'])\n"
        "guard = roots.watch(lambda e: None)\n"
        "print('started')\n"
    )
    out = subprocess.run([sys.executable, "-c", script, tree], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == "started", out.stderr


def test_closing_from_another_thread_while_events_arrive(tree):
    roots = live(tree, "a")
    calls: list[str] = []
    guard = roots.watch(lambda e: calls.append(e.kind))
    stop = threading.Event()

    def churn() -> None:
        i = 0
        while not stop.is_set():
            f = roots.open(f"{tree}/a/x.txt")
            os.rename(f"{tree}/a/x.txt", f"{tree}/a/x{i}.txt")
            os.rename(f"{tree}/a/x{i}.txt", f"{tree}/a/x.txt")
            f.close()
            i += 1

    thread = threading.Thread(target=churn)
    thread.start()
    try:
        time.sleep(0.2)
        closer = threading.Thread(target=guard.close)
        closer.start()
        closer.join(DEADLINE)
        assert not closer.is_alive(), "close() did not return"
    finally:
        stop.set()
        thread.join()
    assert guard.closed
    after = len(calls)
    time.sleep(0.2)
    assert len(calls) == after, "a callback ran after close() returned"
