"""An MCP server (official Python SDK, stdio) with three tools kept inside
the client's roots: read_file, write_file, list_dir.

    python examples/server.py
"""

from __future__ import annotations

import asyncio
from typing import Annotated

from mcp.server.mcpserver import MCPServer, Resolve

from mcp_roots import Roots
from mcp_roots.mcp import SessionRoots, refusals

wiring = SessionRoots()
server = MCPServer("mcp-roots-example", middleware=[wiring.middleware])
Shared = Annotated[Roots, Resolve(wiring.roots)]


@server.tool()
@refusals
async def read_file(path: str, roots: Shared) -> str:
    """Read a UTF-8 text file inside the shared folders."""
    return await asyncio.to_thread(roots.read_text, path)


@server.tool()
@refusals
async def write_file(path: str, text: str, roots: Shared) -> str:
    """Replace (or create) a text file inside the shared folders."""
    await asyncio.to_thread(roots.write_text, path, text)
    return f"wrote {roots.resolve(path).to_uri()}"


@server.tool()
@refusals
async def list_dir(path: str, roots: Shared) -> list[str]:
    """List a directory inside the shared folders (directories end in '/')."""
    entries = await asyncio.to_thread(roots.list_dir, path)
    return sorted(e.name + ("/" if e.is_dir() else "") for e in entries)


if __name__ == "__main__":
    server.run()
