"""Grants through the binding: the area, a question judged before it is
asked, a file and a directory granted for the session and ended (semantics
15 of the Rust crate)."""

from __future__ import annotations

import os

import pytest

import mcp_roots
from mcp_roots import Roots


def area(t: str, **policy) -> Roots:
    return Roots(ask_within=[t], **policy)


def test_nothing_is_served_until_granted(tree):
    roots = area(tree)
    roots.replace([f"{tree}/a"])
    assert [r.reason for r in roots.rejected] == ["outside_ceiling"]
    with pytest.raises(mcp_roots.NoRootsError):
        roots.read_text(f"{tree}/a/x.txt")


def test_a_file_grant_reaches_its_one_file(tree):
    roots = area(tree)
    about = roots.may_ask(f"{tree}/a/x.txt", "change")
    assert (about.path, about.kind, about.access, about.exists) == (
        f"{tree}/a/x.txt", "file", "change", True)
    assert about == roots.may_ask(f"{tree}/a/sub/../x.txt", "change")
    grant = roots.grant(about)
    assert roots.grants == [grant]
    assert [r.grant for r in roots.roots] == ["file"]
    assert roots.read_text(f"{tree}/a/x.txt") == "hello"
    roots.write_text(f"{tree}/a/x.txt", "changed")
    assert open(f"{tree}/a/x.txt").read() == "changed"
    with pytest.raises(mcp_roots.OutsideRootsError):
        roots.read_text(f"{tree}/a/sub/y.txt")
    with pytest.raises(mcp_roots.ReadOnlyError):
        roots.remove(f"{tree}/a/x.txt")
    report = roots.end_grant(grant)
    assert report.generation == roots.generation
    assert roots.grants == []
    with pytest.raises(mcp_roots.NoRootsError):
        roots.read_text(f"{tree}/a/x.txt")


def test_the_end_of_a_grant_revokes_its_files(tree):
    roots = area(tree)
    grant = roots.grant(roots.may_ask(f"{tree}/a"))
    held = roots.open(f"{tree}/a/x.txt")
    report = roots.end_grant(grant)
    assert len(report.revoked) == 1
    with pytest.raises(mcp_roots.ScopeLostError):
        held.read()


def test_questions_refused_before_they_are_asked(tree):
    os.symlink(f"{tree}/outside", f"{tree}/a/out")
    roots = area(tree, hide=["sub/"], read_only_patterns=["x.txt"])
    for path, error in [
        (f"{tree}/a/sub/y.txt", mcp_roots.HiddenError),
        (f"{tree}/a/sub/none.txt", mcp_roots.HiddenError),
        (f"{tree}/../elsewhere", mcp_roots.OutsideRootsError),
        (f"{tree}/a/none/new.txt", mcp_roots.NotFoundError),
    ]:
        with pytest.raises(error):
            roots.may_ask(path)
    with pytest.raises(mcp_roots.ReadOnlyError):
        roots.may_ask(f"{tree}/a/x.txt", "change")
    with pytest.raises(ValueError):
        roots.may_ask(f"{tree}/a/x.txt", "write")
    without = Roots()
    with pytest.raises(mcp_roots.OutsideRootsError):
        without.may_ask(f"{tree}/a/x.txt")
