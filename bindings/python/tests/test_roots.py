"""The binding's surface: operations, exceptions with two bases, policy,
revocation of a held file object, the GIL released during blocking work."""

from __future__ import annotations

import os
import threading
import time

import pytest

import mcp_roots
from mcp_roots import Roots, RootSet


def live(t: str, *dirs: str, **policy) -> Roots:
    roots = Roots(**policy)
    report = roots.replace([f"file://{t}/{d}" for d in dirs])
    assert report.rejected == []
    return roots


def test_read_and_write_round_trip(tree):
    roots = live(tree, "a")
    assert roots.read_text(f"{tree}/a/x.txt") == "hello"
    assert roots.read_bytes(f"file://{tree}/a/sub/y.txt") == b"y"
    roots.write_text(f"{tree}/a/new.txt", "né")
    assert open(f"{tree}/a/new.txt", encoding="utf-8").read() == "né"
    roots.write_bytes(f"{tree}/a/new.txt", b"\x00\xff")
    assert roots.read_bytes(f"{tree}/a/new.txt") == b"\x00\xff"
    with pytest.raises(UnicodeDecodeError):
        roots.read_text(f"{tree}/a/new.txt")


@pytest.mark.parametrize(
    "path, cls, builtin",
    [
        ("{t}/a/../outside/secret.txt", mcp_roots.OutsideRootsError, PermissionError),
        ("file://{t}/a/%2e%2e/outside/secret.txt", mcp_roots.OutsideRootsError, PermissionError),
        ("{t}/a_evil/x", mcp_roots.OutsideRootsError, PermissionError),
        ("{t}/a/missing.txt", mcp_roots.NotFoundError, FileNotFoundError),
        ("{t}/a/sub", mcp_roots.NotARegularFileError, OSError),
        ("{t}/a/x.txt/y", mcp_roots.NotADirectoryRootsError, NotADirectoryError),
        ("relative/x", mcp_roots.NotAbsoluteError, ValueError),
        ("file://host/{t}/a/x.txt", mcp_roots.InvalidUriError, ValueError),
        ("file://{t}/a/%2Fx", mcp_roots.InvalidUriError, ValueError),
    ],
)
def test_refusals_are_both_classes(tree, path, cls, builtin):
    roots = live(tree, "a")
    with pytest.raises(cls) as info:
        roots.read_text(path.format(t=tree))
    err = info.value
    assert isinstance(err, mcp_roots.McpRootsError) and isinstance(err, builtin)
    assert err.reason == cls.reason
    assert err.input == path.format(t=tree)
    assert err.sentence.startswith(f"Refused ({err.reason})")
    assert err.reason in mcp_roots.REASONS


def test_every_reason_has_a_class():
    classes = {mcp_roots.error_class(r) for r in mcp_roots.REASONS}
    assert len(classes) == len(mcp_roots.REASONS) == 17
    for reason in ("outside_roots", "outside_ceiling", "root_gone", "scope_lost", "no_roots", "read_only", "hidden"):
        assert issubclass(mcp_roots.error_class(reason), PermissionError)
    assert issubclass(mcp_roots.error_class("not_found"), FileNotFoundError)
    assert issubclass(mcp_roots.error_class("already_exists"), FileExistsError)


def test_no_roots_before_the_first_replace(tree):
    with pytest.raises(mcp_roots.NoRootsError):
        Roots().read_text(f"{tree}/a/x.txt")


def test_mutations(tree):
    roots = live(tree, "a", "b")
    roots.mkdir(f"{tree}/a/d1/d2", parents=True)
    with pytest.raises(FileExistsError):
        roots.mkdir(f"{tree}/a/d1")
    assert roots.copy(f"{tree}/a/x.txt", f"{tree}/a/d1/copy.txt") == 5
    with pytest.raises(mcp_roots.AlreadyExistsError):
        roots.copy(f"{tree}/a/x.txt", f"{tree}/a/d1/copy.txt")
    roots.rename(f"{tree}/a/d1/copy.txt", f"{tree}/b/moved.txt")
    assert open(f"{tree}/b/moved.txt").read() == "hello"
    with pytest.raises(FileExistsError):
        roots.rename(f"{tree}/b/moved.txt", f"{tree}/a/x.txt")
    roots.rename(f"{tree}/b/moved.txt", f"{tree}/a/x.txt", replace=True)
    roots.remove(f"{tree}/a/x.txt")
    assert not os.path.exists(f"{tree}/a/x.txt")
    roots.remove(f"{tree}/a/d1/d2", dir=True)
    with pytest.raises(mcp_roots.OutsideRootsError):
        roots.remove(f"{tree}/outside/secret.txt")
    with pytest.raises(mcp_roots.OutsideRootsError):
        roots.rename(f"{tree}/a/sub/y.txt", f"{tree}/outside/y.txt")
    assert os.path.exists(f"{tree}/outside/secret.txt")


def test_list_walk_stat_resolve(tree):
    roots = live(tree, "a")
    names = sorted((e.name, e.file_type) for e in roots.list_dir(f"{tree}/a"))
    assert names == [("sub", "dir"), ("x.txt", "file")]
    walk = roots.walk(f"{tree}/a", max_depth=5, max_entries=100)
    assert sorted(e.path.rel for e in walk.entries) == ["sub", "sub/y.txt", "x.txt"]
    assert not walk.truncated and walk.errors == []
    cut = roots.walk(f"{tree}/a", max_depth=5, max_entries=1)
    assert cut.truncated and len(cut.entries) == 1
    shallow = roots.walk(f"{tree}/a", max_depth=1, max_entries=100)
    assert sorted(e.path.rel for e in shallow.entries) == ["sub", "x.txt"]
    st = roots.stat(f"{tree}/a/x.txt")
    assert st.is_file() and st.size == 5 and st.modified > 0
    assert roots.stat(f"{tree}/a/sub").is_dir()
    scoped = roots.resolve(f"{tree}/a/sub/./y.txt")
    assert scoped.rel == "sub/y.txt"
    assert scoped.to_uri() == f"file://{tree}/a/sub/y.txt"


def test_file_object_modes(tree):
    roots = live(tree, "a")
    with roots.open(f"{tree}/a/x.txt") as f:
        assert f.read(2) == "he" and f.read() == "llo"
        assert f.seek(1) == 1 and f.read(1) == "e"
    with roots.open(f"{tree}/a/lines.txt", "x") as f:
        f.write("one\ntwo\n")
    with pytest.raises(FileExistsError):
        roots.open(f"{tree}/a/lines.txt", "x")
    with roots.open(f"{tree}/a/lines.txt") as f:
        assert list(f) == ["one\n", "two\n"]
    with roots.open(f"{tree}/a/lines.txt", "ab") as f:
        f.write(b"three\n")
    with roots.open(f"{tree}/a/lines.txt", "r+b") as f:
        assert f.read(3) == b"one"
        f.seek(0)
        f.write(b"ONE")
    assert open(f"{tree}/a/lines.txt").read() == "ONE\ntwo\nthree\n"
    with roots.open(f"{tree}/a/lines.txt", "w") as f:
        f.write("fresh")
        assert f.path().rel == "lines.txt"
    assert open(f"{tree}/a/lines.txt").read() == "fresh"
    assert not hasattr(f, "fileno")
    with pytest.raises(ValueError):
        roots.open(f"{tree}/a/x.txt", "rw")


def test_held_file_loses_its_root(tree):
    roots = live(tree, "a", "b")
    f = roots.open(f"{tree}/a/x.txt")
    assert f.read(1) == "h"  # the buffer now holds the rest
    report = roots.replace([f"file://{tree}/b"])
    assert [(r.path, r.reason) for r in report.revoked] == [("x.txt", "scope_lost")]
    assert f.revoked == "scope_lost"
    with pytest.raises(mcp_roots.ScopeLostError) as info:
        f.read()
    assert info.value.reason == "scope_lost" and isinstance(info.value, PermissionError)
    with pytest.raises(mcp_roots.ScopeLostError):
        f.seek(0)
    f.close()


def test_writer_revoked_when_its_root_turns_read_only(tree):
    roots = Roots(read_only_ceiling=[f"{tree}/b"], ceiling=[f"{tree}/a"])
    roots.replace([f"{tree}/a"])
    w = roots.open(f"{tree}/a/w.txt", "wb")
    roots.replace([f"{tree}/b"])
    with pytest.raises(mcp_roots.ScopeLostError):
        w.write(b"x")
    with pytest.raises(mcp_roots.ReadOnlyError):
        roots.write_text(f"{tree}/b/new.txt", "x")
    assert roots.read_only is False


def test_a_fixed_set_does_not_track(tree):
    s = RootSet([f"file://{tree}/a", f"{tree}/nope"])
    assert len(s) == 1 and s.uris == [f"file://{tree}/a"]
    assert [(r.uri, r.reason) for r in s.rejected] == [(f"{tree}/nope", "not_found")]
    assert isinstance(s.rejected[0].error, mcp_roots.NotFoundError)
    with s.open(f"{tree}/a/x.txt", "rb") as f:
        assert f.read() == b"hello"
        assert f.revoked is None


def test_policy(tree):
    roots = Roots(ceiling=[f"{tree}/a"], writes="refuse", symlinks="refuse")
    # A root above the ceiling is clipped to it; one beside it is refused.
    report = roots.replace([f"{tree}", f"{tree}/b"])
    assert [(r.uri, r.reason) for r in report.rejected] == [(f"{tree}/b", "outside_ceiling")]
    assert roots.uris == [f"{tree}/a"]
    assert roots.read_only
    with pytest.raises(mcp_roots.ReadOnlyError):
        roots.write_text(f"{tree}/a/sub/n.txt", "x")
    os.symlink("y.txt", f"{tree}/a/sub/link")
    with pytest.raises(mcp_roots.SymlinkLoopError):
        roots.read_text(f"{tree}/a/sub/link")
    with pytest.raises(ValueError, match="writes must be one of"):
        Roots(writes="maybe")


def test_empty_roots_rule(tree):
    deny = Roots(ceiling=[f"{tree}/a"])
    deny.replace_undeclared()
    with pytest.raises(mcp_roots.NoRootsError):
        deny.read_text(f"{tree}/a/x.txt")
    served = Roots(ceiling=[f"{tree}/a"], empty_roots="ceiling")
    served.replace_undeclared()
    assert served.read_text(f"{tree}/a/x.txt") == "hello"
    request = served.for_request(None)
    assert request.read_text(f"{tree}/a/x.txt") == "hello"
    scoped = served.for_request([(f"file://{tree}/a/sub", "sub")])
    with pytest.raises(mcp_roots.OutsideRootsError):
        scoped.read_text(f"{tree}/a/x.txt")


def test_named_roots_and_rescan(tree):
    roots = Roots()
    roots.replace([(f"file://{tree}/a", "notes"), f"{tree}/b"])
    assert roots.uris == [f"file://{tree}/a", f"{tree}/b"]
    held = roots.open(f"{tree}/a/x.txt")
    os.rename(f"{tree}/a", f"{tree}/moved")
    report = roots.rescan()
    assert [r.reason for r in report.revoked] == ["scope_lost"]
    with pytest.raises(mcp_roots.ScopeLostError):
        held.read()
    with pytest.raises(mcp_roots.RootGoneError):
        roots.read_text(f"{tree}/a/x.txt")


def test_blocking_work_releases_the_gil(tree):
    fifo = f"{tree}/a/fifo"
    os.mkfifo(fifo)
    roots = live(tree, "a")
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.001)

    thread = threading.Thread(target=tick)
    thread.start()
    try:
        # A large atomic write (fsync) in the main thread while the other runs.
        roots.write_bytes(f"{tree}/a/big.bin", os.urandom(8 << 20))
    finally:
        stop.set()
        thread.join()
    assert ticks, "the other thread never ran while the write held the GIL"
    with pytest.raises(mcp_roots.NotARegularFileError):
        roots.read_bytes(fifo)


def test_an_undecodable_path_is_refused(tree):
    roots = live(tree, "a")
    with pytest.raises(mcp_roots.InvalidUriError):
        roots.read_bytes(os.fsdecode(f"{tree}/a/".encode() + b"\xff"))


_SHARED_REVOKED_FILE = """
import sys, threading
import mcp_roots
t = sys.argv[1]
roots = mcp_roots.Roots()
roots.replace([f"file://{t}/a", f"file://{t}/b"])
f = roots.open(f"{t}/a/x.txt", "rb")
roots.replace([f"file://{t}/b"])

def hammer():
    for _ in range(3000):
        try:
            f._raw.read(1)
        except mcp_roots.ScopeLostError:
            pass

threads = [threading.Thread(target=hammer) for _ in range(3)]
for th in threads:
    th.start()
while any(th.is_alive() for th in threads):
    assert f.revoked == "scope_lost"
print("done")
"""


def test_threads_sharing_a_revoked_file_do_not_deadlock(tree):
    """Errors are converted after the handle's lock is released: a thread
    failing on the file never waits for the GIL while holding the lock that
    another thread, holding the GIL, waits for. Run in a child process, so
    that a deadlock fails the test instead of hanging it."""
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", _SHARED_REVOKED_FILE, tree], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0 and out.stdout.strip() == "done", out.stderr
