"""notes-server over stdio against the official MCP Python SDK's default
client (2026-07-28) whose roots list is empty: the process is the session.

    python stdio_check.py [PATH/TO/notes-server]

Starts `notes-server --ceiling <tmp>/ceiling --ceiling-without-roots` over
stdio with the SDK's client in its default mode, declaring roots (a
callback) but sharing no folder, as a client with no folder open does:

- it negotiates 2026-07-28;
- the first calls, with an empty list, are served the ceiling (every note
  under it), not refused with `no_roots`;
- once the client shares Notes, only Notes serves; a note is held open;
- the client un-shares everything: nothing is shared (`no_roots`), and the
  held note is revoked (`scope_lost` once it shares Work again).

Prints one line per check and exits non-zero if any fails.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import anyio
import mcp_types as types
from mcp import Client
from mcp.client.session import ClientRequestContext
from mcp.client.stdio import StdioServerParameters

sys.path.insert(0, str(Path(__file__).resolve().parents[4] / "minimal-server" / "tests" / "python"))
import check as shared  # noqa: E402
from check import reason_of, report, text_of  # noqa: E402

CALL_BOUND = 10.0
LABEL = "stdio default"


def tree(ceiling: Path) -> None:
    for rel, text in [
        ("Notes/a.md", "# Alpha\nnotes a\n"),
        ("Work/plan.md", "# Plan\nwork plan\n"),
    ]:
        path = ceiling / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def listed(result: types.CallToolResult | None) -> list[str]:
    notes = ((result.structured_content if result else None) or {}).get("notes") or []
    return sorted(note["uri"] for note in notes)


async def call(client: Client, tool: str, args: dict) -> types.CallToolResult | None:
    try:
        with anyio.fail_after(CALL_BOUND):
            return await client.call_tool(tool, args)
    except Exception as err:  # a protocol error is a failed check, not a crash
        report(False, LABEL, f"{tool}: {type(err).__name__}: {err}")
        return None


async def run(binary: str, base: Path) -> None:
    ceiling = base / "ceiling"
    tree(ceiling)
    shared_uris: list[str] = []

    async def roots(_context: ClientRequestContext) -> types.ListRootsResult:
        return types.ListRootsResult(roots=[types.Root(uri=u) for u in shared_uris])

    params = StdioServerParameters(command=binary, args=["--ceiling", str(ceiling), "--ceiling-without-roots"])
    everything = [f"file://{ceiling}/Notes/a.md", f"file://{ceiling}/Work/plan.md"]
    async with Client(params, list_roots_callback=roots) as client:
        version = client.protocol_version
        report(version == "2026-07-28", LABEL, f"negotiated {version}")
        for attempt in ("first", "second"):
            result = await call(client, "notes_list", {})
            got = listed(result)
            report(got == everything, LABEL, f"{attempt} call with an empty roots list is served the ceiling ({len(got)} notes)",
                   "" if got == everything else f"{reason_of(result) if result else ''} {text_of(result) if result else ''}")
        shared_uris[:] = [f"file://{ceiling}/Notes"]
        result = await call(client, "notes_list", {})
        report(listed(result) == everything[:1], LABEL, "sharing Notes: only Notes serves")
        opened = await call(client, "notes_open", {"title": "Alpha"})
        handle = ((opened.structured_content if opened else None) or {}).get("handle")
        report(handle is not None, LABEL, f"a note is held open over stdio on 2026-07-28 (handle {handle})")
        shared_uris[:] = []
        result = await call(client, "notes_list", {})
        reason = reason_of(result) if result else None
        report(result is not None and result.is_error is True and reason == "no_roots", LABEL,
               f"un-sharing after sharing shares nothing -> {reason}")
        shared_uris[:] = [f"file://{ceiling}/Work"]
        lost = await call(client, "notes_read", {"handle": handle})
        reason = reason_of(lost) if lost else None
        report(reason == "scope_lost", LABEL, f"the held note, its folder no longer shared -> {reason}")


async def main() -> int:
    binary = sys.argv[1] if len(sys.argv) > 1 else "notes-server"
    with tempfile.TemporaryDirectory() as tmp:
        await run(binary, Path(tmp).resolve())
    print(f"{'FAILED' if shared.failures else 'passed'}: {shared.failures} failure(s)", flush=True)
    return 1 if shared.failures else 0


if __name__ == "__main__":
    sys.exit(anyio.run(main))
