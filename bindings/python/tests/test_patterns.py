"""Hidden and read-only patterns through the binding: refusals with their
own class and the deciding pattern, listings that omit what is hidden, the
paths around a pattern (``..``, symlinks, renames) refused too, a bad
pattern named; and the process confinement, in a child process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

import mcp_roots
from mcp_roots import Roots, RootSet

HIDE = [".env", "*.pem", "/secrets/"]
PROTECT = ["*.lock", "/vendor/"]


@pytest.fixture
def project(tree):
    a = f"{tree}/a"
    for d in ("secrets", "vendor", "sub/deep"):
        os.makedirs(f"{a}/{d}", exist_ok=True)
    for f, text in ((".env", "TOKEN=1"), ("key.pem", "pem"), ("sub/deep/x.pem", "pem"),
                    ("secrets/s.txt", "s"), ("Cargo.lock", "lock"), ("vendor/v.txt", "v")):
        with open(f"{a}/{f}", "w") as fh:
            fh.write(text)
    os.symlink(".env", f"{a}/env-link")
    os.symlink("secrets", f"{a}/secrets-link")
    os.symlink("Cargo.lock", f"{a}/lock-link")
    return a


def both(a: str):
    roots = Roots(hide=HIDE, read_only_patterns=PROTECT)
    assert roots.replace([f"file://{a}"]).rejected == []
    return [roots, RootSet([a], hide=HIDE, read_only_patterns=PROTECT)]


@pytest.mark.parametrize(
    "rel, pattern",
    [
        (".env", ".env"),
        ("key.pem", "*.pem"),
        ("sub/deep/x.pem", "*.pem"),
        ("secrets/s.txt", "/secrets/"),
        ("secrets", "/secrets/"),
        ("sub/../.env", ".env"),
        ("sub/deep/../../secrets/s.txt", "/secrets/"),
        ("env-link", ".env"),
        ("secrets-link/s.txt", "/secrets/"),
    ],
)
def test_hidden_is_refused_with_its_pattern(project, rel, pattern):
    for scope in both(project):
        with pytest.raises(mcp_roots.HiddenError) as info:
            scope.read_bytes(f"{project}/{rel}")
        err = info.value
        assert isinstance(err, PermissionError) and isinstance(err, mcp_roots.McpRootsError)
        assert err.reason == "hidden" and err.pattern == pattern
        assert err.sentence.startswith("Refused (hidden)")
        with pytest.raises(mcp_roots.HiddenError):
            scope.stat(f"{project}/{rel}")


def test_hidden_cannot_be_created_moved_in_or_out(project):
    for scope in both(project):
        with pytest.raises(mcp_roots.HiddenError):
            scope.write_text(f"{project}/sub/new.pem", "x")
        with pytest.raises(mcp_roots.HiddenError):
            scope.rename(f"{project}/sub/deep/x.pem", f"{project}/sub/x.txt")
        with pytest.raises(mcp_roots.HiddenError):
            scope.rename(f"{project}/sub", f"{project}/secrets/sub")
        with pytest.raises(mcp_roots.HiddenError):
            scope.copy(f"{project}/.env", f"{project}/sub/env.txt")
        assert not os.path.exists(f"{project}/sub/new.pem")
        assert not os.path.exists(f"{project}/sub/env.txt")
        assert os.path.exists(f"{project}/sub/deep/x.pem") and os.path.isdir(f"{project}/sub")


def test_listings_omit_what_is_hidden(project):
    for scope in both(project):
        names = {e.name for e in scope.list_dir(project)}
        assert {".env", "key.pem", "secrets"}.isdisjoint(names)
        assert {"Cargo.lock", "vendor", "sub", "env-link"} <= names
        walked = {e.path.rel for e in scope.walk(project, 10, 1000).entries}
        assert "sub/deep" in walked and "vendor/v.txt" in walked
        assert not any(r.endswith(".pem") or r.startswith("secrets/") or r == ".env" for r in walked)


def test_read_only_patterns_refuse_changes_not_reads(project):
    for scope in both(project):
        assert scope.read_text(f"{project}/Cargo.lock") == "lock"
        for change in (
            lambda: scope.write_text(f"{project}/Cargo.lock", "x"),
            lambda: scope.write_text(f"{project}/vendor/new.txt", "x"),
            lambda: scope.remove(f"{project}/vendor/v.txt"),
            lambda: scope.rename(f"{project}/vendor/v.txt", f"{project}/v.txt"),
            lambda: scope.copy(f"{project}/sub/../Cargo.lock", f"{project}/vendor/c"),
            lambda: scope.write_text(f"{project}/sub/../Cargo.lock", "x"),
            lambda: scope.open(f"{project}/Cargo.lock", "a"),
        ):
            with pytest.raises(mcp_roots.ReadOnlyError) as info:
                change()
            assert isinstance(info.value, PermissionError)
            assert info.value.pattern in PROTECT
        # Through a symlink: the read is the target's, a change is refused.
        assert scope.read_text(f"{project}/lock-link") == "lock"
        for mode in ("r+", "a", "w"):
            with pytest.raises(mcp_roots.McpRootsError) as info:
                scope.open(f"{project}/lock-link", mode)
            assert isinstance(info.value, PermissionError) or info.value.reason == "symlink_loop"
    assert open(f"{project}/Cargo.lock").read() == "lock"
    assert os.listdir(f"{project}/vendor") == ["v.txt"]


def test_a_copy_out_of_a_read_only_part_is_allowed(project):
    for i, scope in enumerate(both(project)):
        scope.copy(f"{project}/vendor/v.txt", f"{project}/sub/v{i}.txt")
        assert open(f"{project}/sub/v{i}.txt").read() == "v"


def test_roots_list_what_they_hide_and_protect(project, tree):
    roots, fixed = both(project)
    for scope in (roots, fixed):
        (info,) = scope.roots
        assert info.uri == f"file://{project}" or info.uri == project
        assert info.hides == HIDE and info.protects == PROTECT
        assert info.read_only is False
    plain = RootSet([f"{tree}/b"])
    assert plain.roots[0].hides == [] and plain.roots[0].protects == []
    assert Roots(writes="refuse", hide=[".env"]).for_request([f"{tree}/b"]).roots[0].read_only


@pytest.mark.parametrize("bad", ["[z-a]", "", "# comment", "a/../b", "./x", "!"])
def test_a_bad_pattern_is_named(tree, bad):
    for make in (
        lambda: Roots(hide=["*.pem", bad]),
        lambda: Roots(read_only_patterns=[bad]),
        lambda: RootSet([tree], hide=[bad]),
        lambda: RootSet([tree], read_only_patterns=["ok", bad]),
    ):
        with pytest.raises(mcp_roots.PatternError) as info:
            make()
        assert isinstance(info.value, ValueError)
        assert info.value.pattern == bad
        assert repr(bad) in str(info.value) or bad in str(info.value)
        assert info.value.message


def test_errors_without_a_pattern_have_none(tree):
    roots = RootSet([f"{tree}/a"], hide=[".env"])
    with pytest.raises(mcp_roots.OutsideRootsError) as info:
        roots.read_text(f"{tree}/outside/secret.txt")
    assert info.value.pattern is None


def child(code: str) -> dict:
    """Runs ``code`` in a fresh interpreter; its last stdout line is JSON."""
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_confine_best_effort_in_a_child(tree):
    got = child(f"""
        import json, mcp_roots
        roots = mcp_roots.Roots(ceiling=[{tree + '/a'!r}], read_only_ceiling=[{tree + '/b'!r}])
        report = mcp_roots.confine(roots)
        out = {{"enforcement": report["enforcement"], "text": report["text"], "dirs": report["directories"]}}
        try:
            open({tree + '/outside/secret.txt'!r}).read()
            out["outside"] = "read"
        except PermissionError:
            out["outside"] = "refused"
        try:
            open({tree + '/b/new'!r}, "w")
            out["ro"] = "written"
        except PermissionError:
            out["ro"] = "refused"
        out["inside"] = open({tree + '/a/x.txt'!r}).read()
        print(json.dumps(out))
    """)
    assert got["inside"] == "hello"
    assert got["text"].startswith("confinement ")
    assert sorted(got["dirs"]) == sorted([[f"{tree}/a", True], [f"{tree}/b", False]])
    if got["enforcement"] == "unsupported":
        pytest.skip("no Landlock on this kernel: " + got["text"])
    assert got["outside"] == "refused" and got["ro"] == "refused"


def test_confine_required_and_its_errors_in_a_child(tree):
    got = child(f"""
        import json, mcp_roots
        out = {{}}
        try:
            mcp_roots.confine(mcp_roots.Roots())
        except mcp_roots.ConfinementError as e:
            out["none"] = e.kind
        roots = mcp_roots.Roots(ceiling=[{tree + '/a'!r}])
        try:
            out["required"] = mcp_roots.confine(roots, required=True)["enforcement"]
        except mcp_roots.ConfinementError as e:
            out["required"] = e.kind
        print(json.dumps(out))
    """)
    assert got["none"] == "no_ceiling"
    # A fresh interpreter has one thread: required confines, or says why not.
    assert got["required"] in ("full", "partial", "unsupported")


def test_a_held_file_moved_into_a_hidden_part_is_revoked(project):
    roots = Roots(hide=HIDE)
    roots.replace([project])
    held = roots.open(f"{project}/vendor/v.txt")
    assert held.read(1) == "v"
    os.rename(f"{project}/vendor/v.txt", f"{project}/secrets/v.txt")
    report = roots.rescan()
    assert [(r.path, r.reason) for r in report.revoked] == [("vendor/v.txt", "hidden")]
    with pytest.raises(mcp_roots.HiddenError):
        held.read()
