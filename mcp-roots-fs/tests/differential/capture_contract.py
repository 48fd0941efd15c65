"""What an original filesystem server advertises, captured from the real
server into a fixture: its tools (in its order, with their schemas,
annotations and titles), its resource templates and its resources, as it
sends them on each protocol era.

    python capture_contract.py NODE ORIGINAL_INDEX_JS OUT.json

Starts `NODE ORIGINAL_INDEX_JS <tmp>/root` over stdio three times, with the
official Python SDK's client in legacy mode (`initialize`, 2025-11-25), in
its default mode (2026-07-28 where the server offers it), and in legacy
mode again with `--read-only` (the tools it withholds), and sends
`tools/list`, `resources/templates/list` and `resources/list`. The server's
stdout is copied to a file on its way to the client, so the fixture holds
the JSON the server wrote (key order and all), not the SDK's models of it.
Writes OUT.json; prints one line per era.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
import tempfile
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

CALL_BOUND = 20.0
METHODS = ["tools/list", "resources/templates/list", "resources/list"]


def answers(log: Path) -> dict[str, Any]:
    """The results of the listing requests, from the server's raw output:
    the last response to each method's request (found by the order the
    client sent them in), keyed by method."""
    responses = []
    for line in log.read_text().splitlines():
        try:
            message = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(message, dict) and "id" in message and ("result" in message or "error" in message):
            responses.append(message)
    return responses


async def capture(node: str, index_js: str, mode: str, options: list[str], base: Path) -> dict[str, Any]:
    root = base / "root"
    root.mkdir(exist_ok=True)
    log = base / f"stdout-{mode}.jsonl"
    argv = [node, index_js, *options, str(root)]
    command = f"{' '.join(shlex.quote(a) for a in argv)} | tee {shlex.quote(str(log))}"
    params = StdioServerParameters(command="sh", args=["-c", command], env=dict(os.environ))
    async with Client(params, mode=mode) as client:
        with anyio.fail_after(CALL_BOUND):
            await client.list_tools()
            await client.list_resource_templates()
            await client.list_resources()
        version = client.protocol_version
        info = client.server_info
    responses = answers(log)
    # The last three responses answer the three listings, in order.
    listed = responses[-len(METHODS):]
    era: dict[str, Any] = {"protocolVersion": version}
    if info is not None:
        era["serverInfo"] = info.model_dump(by_alias=True, exclude_none=True, mode="json")
    for method, response in zip(METHODS, listed):
        era[method] = response.get("result", response.get("error"))
    text = json.dumps(era).replace(str(root), "<ROOT>")
    return json.loads(text)


async def main() -> int:
    node, index_js, out = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    fixture: dict[str, Any] = {
        "comment": "Captured from the real server by mcp-roots-fs/tests/differential/capture_contract.py; do not edit by hand.",
    }
    for mode, options in (("legacy", []), ("auto", []), ("legacy", ["--read-only"])):
        with tempfile.TemporaryDirectory() as tmp:
            era = await capture(node, index_js, mode, options, Path(tmp).resolve())
        tools = era["tools/list"].get("tools", [])
        key = " ".join([era["protocolVersion"], *options])
        print(f"{key}: {len(tools)} tools: {', '.join(t['name'] for t in tools)}", flush=True)
        fixture[key] = era
    out.write_text(json.dumps(fixture, indent=2, ensure_ascii=False) + "\n")
    print(f"wrote {out}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(anyio.run(main))
