"""The example server (examples/server.py) driven by the official SDK's
client over stdio, in its default mode (2026-07-28: the request's roots)
and in legacy mode (2025-11-25: the session's roots, listed again after
roots/list_changed); refusals are tool errors with the reason, checked on
disk."""

from __future__ import annotations

import os
import pathlib
import sys
import warnings

import pytest

pytest.importorskip("mcp")

import anyio
import mcp_types as types
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPDeprecationWarning

SERVER = pathlib.Path(__file__).resolve().parents[1] / "examples" / "server.py"
BOUND = 20


def text_of(result: types.CallToolResult) -> str:
    return "\n".join(b.text for b in result.content if isinstance(b, types.TextContent))


def params() -> StdioServerParameters:
    # Every warning in the server is an error: a deprecation the wiring
    # should have handled fails the tool call instead of scrolling by.
    env = dict(os.environ, PYTHONWARNINGS="error")
    return StdioServerParameters(command=sys.executable, args=[str(SERVER)], env=env)


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.mark.anyio
@pytest.mark.parametrize("mode, version", [("auto", "2026-07-28"), ("legacy", "2025-11-25")])
async def test_three_tools_in_both_modes(tree, mode, version):
    shared = [f"file://{tree}/a"]
    asked = anyio.Event()

    async def list_roots(_ctx) -> types.ListRootsResult:
        asked.set()
        return types.ListRootsResult(roots=[types.Root(uri=u, name="a") for u in shared])

    with anyio.fail_after(BOUND):
        async with Client(params(), mode=mode, list_roots_callback=list_roots) as client:
            assert client.protocol_version == version
            if mode == "legacy":
                # Listed after initialisation, before any tool call.
                await asked.wait()

            async def call(tool: str, **args) -> types.CallToolResult:
                return await client.call_tool(tool, args)

            read = await call("read_file", path=f"{tree}/a/x.txt")
            assert not read.is_error and text_of(read) == "hello"

            wrote = await call("write_file", path=f"{tree}/a/new.txt", text="fresh")
            assert not wrote.is_error and text_of(wrote) == f"wrote file://{tree}/a/new.txt"
            assert open(f"{tree}/a/new.txt").read() == "fresh"

            listed = await call("list_dir", path=f"file://{tree}/a")
            assert not listed.is_error and listed.structured_content == {"result": ["new.txt", "sub/", "x.txt"]}

            for escape in (f"{tree}/a/../outside/secret.txt", f"file://{tree}/a/%2e%2e/outside/secret.txt", f"{tree}/outside/secret.txt"):
                refused = await call("read_file", path=escape)
                assert refused.is_error and refused.structured_content["reason"] == "outside_roots"
                assert "secret" not in text_of(refused).replace("secret.txt", "")
                assert text_of(refused).startswith("Refused (outside_roots): ")

            before = sorted(os.listdir(f"{tree}/outside"))
            refused = await call("write_file", path=f"{tree}/a/../outside/planted.txt", text="x")
            assert refused.is_error and refused.structured_content["reason"] == "outside_roots"
            assert sorted(os.listdir(f"{tree}/outside")) == before

            # The client changes its roots.
            shared[:] = [f"file://{tree}/b"]
            if mode == "legacy":
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", MCPDeprecationWarning)
                    asked = anyio.Event()
                    await client.session.send_roots_list_changed()
                # Listed again on the notification, before any tool call.
                await asked.wait()
            refused = await call("read_file", path=f"{tree}/a/x.txt")
            assert refused.is_error and refused.structured_content["reason"] == "outside_roots"
            wrote = await call("write_file", path=f"{tree}/b/n.txt", text="b")
            assert not wrote.is_error and open(f"{tree}/b/n.txt").read() == "b"


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_client_without_roots_gets_the_policy(tree, mode):
    with anyio.fail_after(BOUND):
        async with Client(params(), mode=mode) as client:
            result = await client.call_tool("read_file", {"path": f"{tree}/a/x.txt"})
            assert result.is_error and result.structured_content["reason"] == "no_roots"
