"""Arguments in Python's terms: paths that cannot be UTF-8 are the
library's refusal with a reason, wrong types a ``TypeError`` that says what
is accepted, walk limits that cannot wrap."""

from __future__ import annotations

import asyncio
import os
import pathlib

import pytest

import mcp_roots
from mcp_roots import Roots, RootSet


def scopes(t: str):
    roots = Roots()
    roots.replace([f"file://{t}/a"])
    return [roots, RootSet([f"file://{t}/a"])]


def every_path_operation(scope, path):
    """Each operation taking a path, called with ``path`` in every slot."""
    ok = "/nowhere/x"
    return {
        "open": lambda: scope.open(path),
        "read_text": lambda: scope.read_text(path),
        "read_bytes": lambda: scope.read_bytes(path),
        "write_text": lambda: scope.write_text(path, "x"),
        "write_bytes": lambda: scope.write_bytes(path, b"x"),
        "list_dir": lambda: scope.list_dir(path),
        "walk": lambda: scope.walk(path, 1, 10),
        "stat": lambda: scope.stat(path),
        "mkdir": lambda: scope.mkdir(path),
        "remove": lambda: scope.remove(path),
        "rename src": lambda: scope.rename(path, ok),
        "rename dst": lambda: scope.rename(ok, path),
        "copy src": lambda: scope.copy(path, ok),
        "copy dst": lambda: scope.copy(ok, path),
        "resolve": lambda: scope.resolve(path),
    }


class Fs:
    def __init__(self, text: object) -> None:
        self.text = text

    def __fspath__(self) -> object:
        return self.text


@pytest.mark.parametrize(
    "name",
    ["\ud800.txt", "x\udfff", "\udcff", "sub/\ud83d"],  # lone surrogates, a surrogate escape
)
def test_a_path_that_cannot_be_utf8_is_invalid_uri(tree, name):
    for scope in scopes(tree):
        for form in (f"{tree}/a/{name}", f"file://{tree}/a/{name}", Fs(f"{tree}/a/{name}"), pathlib.PurePosixPath(f"{tree}/a/{name}")):
            for op, call in every_path_operation(scope, form).items():
                with pytest.raises(mcp_roots.InvalidUriError) as info:
                    call()
                err = info.value
                assert err.reason == "invalid_uri", op
                assert isinstance(err, ValueError)
                assert err.detail == "the path is not valid UTF-8"
                assert "\ufffd" in err.input
                assert err.sentence.startswith("Refused (invalid_uri)")


def test_refusals_turns_a_lone_surrogate_into_a_tool_error_with_its_reason(tree):
    from mcp_roots.mcp import refusals

    roots = scopes(tree)[0]

    @refusals
    async def read_file(path: str) -> str:
        return roots.read_text(path)

    result = asyncio.run(read_file(f"{tree}/a/\ud800.txt"))
    assert result.is_error
    assert result.structured_content["reason"] == "invalid_uri"


@pytest.mark.parametrize("value", [None, 3, 1.5, b"/tmp/x", bytearray(b"/tmp"), ["/tmp"], Fs(b"/tmp/x"), Fs(None)])
def test_a_path_of_another_type_is_a_type_error_saying_what_is_accepted(tree, value):
    for scope in scopes(tree):
        for op, call in every_path_operation(scope, value).items():
            with pytest.raises(TypeError) as info:
                call()
            message = str(info.value)
            assert message.startswith("path must be a str or an os.PathLike returning str, not "), (op, message)
            assert "bytes" not in message.split(", not ")[0]


def test_a_path_like_of_str_is_accepted(tree):
    for scope in scopes(tree):
        assert scope.read_text(pathlib.Path(f"{tree}/a/x.txt")) == "hello"
        assert scope.read_text(Fs(f"{tree}/a/x.txt")) == "hello"


@pytest.mark.parametrize(
    "depth, entries, error",
    [
        (-1, 10, OverflowError),
        (1, -1, OverflowError),
        (2**64, 10, OverflowError),
        (1, 2**64 + 1, OverflowError),
        (1.5, 10, TypeError),
        (1, 10.0, TypeError),
        (float("inf"), 10, TypeError),
        (1, float("nan"), TypeError),
        (None, 10, TypeError),
        ("1", 10, TypeError),
    ],
)
def test_walk_limits_that_cannot_wrap(tree, depth, entries, error):
    for scope in scopes(tree):
        with pytest.raises(error):
            scope.walk(f"{tree}/a", depth, entries)


def test_walk_limits_as_given(tree):
    os.makedirs(f"{tree}/a/sub/deeper")
    with open(f"{tree}/a/sub/deeper/z.txt", "w") as f:
        f.write("z")
    for scope in scopes(tree):
        # 0 is 1: the start's own entries are always listed, nothing below.
        for depth in (0, 1):
            one = scope.walk(f"{tree}/a", depth, 100)
            assert sorted(e.path.rel for e in one.entries) == ["sub", "x.txt"]
        assert max(e.depth for e in scope.walk(f"{tree}/a", 2**63, 100).entries) == 3
        capped = scope.walk(f"{tree}/a", 10, 1)
        assert len(capped) == 1 and capped.truncated


@pytest.mark.parametrize("roots", [None, 5, "file:///tmp", b"/tmp", [None], [5], [b"/tmp"], [("/tmp",)], [("/tmp", 5)], [("/tmp", "n", "x")]])
def test_a_root_list_of_another_type_is_a_type_error_saying_what_is_accepted(roots):
    makers = [lambda r: Roots().replace(r), lambda r: RootSet(r)]
    if roots is not None:  # for_request(None): a client without the capability
        makers.append(lambda r: Roots().for_request(r))
    for make in makers:
        with pytest.raises(TypeError) as info:
            make(roots)
        message = str(info.value)
        assert "RootArg" not in message and "variant" not in message, message
        assert " must be " in message, message


def test_roots_as_path_likes_and_pairs_and_the_surrogate_refusal(tree):
    roots = Roots()
    report = roots.replace([pathlib.Path(f"{tree}/a"), (Fs(f"file://{tree}/b"), "b"), (f"{tree}/outside", None)])
    assert report.rejected == []
    assert [r.name for r in roots.roots] == [None, "b", None]
    assert RootSet(iter([f"{tree}/a"])).read_text(f"{tree}/a/x.txt") == "hello"
    for bad in ([f"{tree}/\ud800"], [(f"file://{tree}/\udcff", "n")]):
        with pytest.raises(mcp_roots.InvalidUriError):
            Roots().replace(bad)
        with pytest.raises(mcp_roots.InvalidUriError):
            RootSet(bad)
