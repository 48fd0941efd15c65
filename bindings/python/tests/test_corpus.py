"""The shared escape corpus through the binding: each row gets exactly the
Rust crate's outcome (``escape_corpus_outcomes.json``, kept equal to the
crate by the crate's own conformance test), denied rows change nothing and
allowed rows touch the expected file."""

from __future__ import annotations

import os
import tempfile

import pytest

import mcp_roots

from conftest import load_corpus

CASES, OUTCOMES = load_corpus()
MARKER = b"created by mcp-roots tests"


def apply(t: str, setup: list[dict]) -> None:
    for op in setup:
        if "mkdir" in op:
            os.makedirs(os.path.join(t, op["mkdir"]), exist_ok=True)
            continue
        path = os.path.join(t, next(op[k] for k in ("file", "symlink", "hardlink") if k in op))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if "file" in op:
            with open(path, "w") as f:
                f.write(op.get("content", op["file"]))
        elif "symlink" in op:
            os.symlink(op["target"].replace("{T}", t), path)
        else:
            os.link(os.path.join(t, op["target"]), path)


def snapshot(t: str) -> dict[str, object]:
    seen: dict[str, object] = {}
    for dirpath, dirs, files in os.walk(t):
        for name in dirs + files:
            p = os.path.join(dirpath, name)
            st = os.lstat(p)
            seen[os.path.relpath(p, t)] = (st.st_mode, st.st_size, st.st_mtime_ns, st.st_ino)
    return seen


def run(roots: mcp_roots.RootSet, op: str, target: str):
    if op == "read":
        with roots.open(target, "rb") as f:
            return f.read(), f.stat()
    if op == "write_new":
        with roots.open(target, "xb") as f:
            f.write(MARKER)
        return None
    if op == "list":
        return sorted(e.name for e in roots.list_dir(target))
    raise AssertionError(op)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_row_as_the_crate(case):
    with tempfile.TemporaryDirectory(prefix="mr") as t:
        t = os.path.realpath(t)
        apply(t, case["setup"])
        roots = mcp_roots.RootSet([r.replace("{T}", t) for r in case["roots"]])
        before = snapshot(t)
        target = case["input"].replace("{T}", t)
        try:
            touched = run(roots, case["op"], target)
            outcome = "allow"
        except mcp_roots.McpRootsError as err:
            touched = None
            outcome = err.reason
            assert isinstance(err, OSError | ValueError)
        assert outcome == OUTCOMES[case["id"]], case["why"]
        if outcome != "allow":
            assert snapshot(t) == before, "a refusal changed the tree"
            return
        expected = os.path.join(t, case["resolved"])
        if case["op"] == "read":
            data, st = touched
            with open(expected, "rb") as f:
                assert data == f.read()
            assert st.size == os.stat(expected).st_size
        elif case["op"] == "write_new":
            with open(expected, "rb") as f:
                assert f.read() == MARKER
        else:
            assert touched == sorted(os.listdir(expected))


def test_the_corpus_covers_every_operation_and_both_answers():
    assert {c["op"] for c in CASES} == {"read", "write_new", "list"}
    assert set(OUTCOMES) == {c["id"] for c in CASES}
    assert "allow" in OUTCOMES.values() and "outside_roots" in OUTCOMES.values()


@pytest.mark.parametrize("case", [c for c in CASES if c["op"] == "read"][:40], ids=lambda c: c["id"])
def test_live_roots_answer_as_the_fixed_set(case):
    """The same rows through live ``Roots`` (tracked files, one snapshot per call)."""
    with tempfile.TemporaryDirectory(prefix="mr") as t:
        t = os.path.realpath(t)
        apply(t, case["setup"])
        roots = mcp_roots.Roots()
        roots.replace([r.replace("{T}", t) for r in case["roots"]])
        try:
            roots.read_bytes(case["input"].replace("{T}", t))
            outcome = "allow"
        except mcp_roots.McpRootsError as err:
            outcome = err.reason
        assert outcome == OUTCOMES[case["id"]]
