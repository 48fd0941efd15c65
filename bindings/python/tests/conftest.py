"""Shared fixtures: a fresh directory tree per test and the shared escape
corpus of the repository (testkit/data)."""

from __future__ import annotations

import json
import os
import pathlib
import tempfile

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]
DATA = pathlib.Path(os.environ.get("MCP_ROOTS_CORPUS_DIR", REPO / "testkit" / "data"))


@pytest.fixture
def tree():
    """A fresh directory with ``a/x.txt``, ``a/sub/y.txt``, ``b/`` and
    ``outside/secret.txt``; yields its resolved path."""
    with tempfile.TemporaryDirectory(prefix="mr") as t:
        t = os.path.realpath(t)
        for d in ("a/sub", "b", "outside"):
            os.makedirs(os.path.join(t, d))
        for f, text in (("a/x.txt", "hello"), ("a/sub/y.txt", "y"), ("outside/secret.txt", "secret")):
            with open(os.path.join(t, f), "w") as fh:
                fh.write(text)
        yield t


def load_corpus():
    with open(DATA / "escape_corpus.json") as f:
        cases = json.load(f)
    with open(DATA / "escape_corpus_outcomes.json") as f:
        outcomes = json.load(f)
    return cases, outcomes
