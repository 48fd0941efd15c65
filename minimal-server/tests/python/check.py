"""The minimal-server binary against the official MCP Python SDK's client.

    python check.py [PATH/TO/minimal-server]

Spawns the binary over stdio twice: with the SDK's client in its default
mode ("auto": `server/discover`, so 2026-07-28 when both sides offer it)
and in legacy mode (`initialize`, the SDK's newest handshake revision,
2025-11-25). The client declares roots (a callback listing a temporary
folder) and then:

- each read inside the folder returns its text within 2 seconds;
- reads outside it, through '..', with an encoded escape (%2F, %2e%2e),
  of a prefix sibling, through a symlink out, and of a relative path are
  tool errors (isError true) that do not show the text outside;
- after the client changes its roots (legacy: and says so with
  `notifications/roots/list_changed`), the next read sees the new list;
- a client without a roots callback (so without the roots capability) is
  refused with `no_roots` at once (the server's default policy shares
  nothing with it), not after a wait for roots that cannot come.

Prints one line per check and exits non-zero if any fails.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import warnings
from pathlib import Path

import anyio
import mcp_types as types
from mcp import Client
from mcp.client.session import ClientRequestContext
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPDeprecationWarning

# A read inside the roots must answer within this (legacy mode: the first
# one includes the server's roots/list and the client's answer).
READ_WITHIN = 2.0
# Nothing may hang the check: a call that takes this long fails it.
CALL_BOUND = 10.0
# The text of the file outside, which no refusal may show.
SECRET = "the text outside"

failures = 0


def report(ok: bool, mode: str, what: str, detail: str = "") -> None:
    global failures
    if not ok:
        failures += 1
    print(f"{'ok  ' if ok else 'FAIL'} {mode:<7} {what}{': ' + detail if detail else ''}", flush=True)


def tree(base: Path) -> None:
    """root/ (shared), a prefix sibling, a folder outside, a second root."""
    for rel, text in [
        ("root/inside.txt", "inside"),
        ("root/sub/deeper.txt", "deeper"),
        ("root_evil/x.txt", "evil"),
        ("other/secret.txt", SECRET),
        ("second/new.txt", "second"),
    ]:
        path = base / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (base / "root" / "out").symlink_to("../other/secret.txt")


def uri(base: Path, rel: str) -> str:
    """A file:// URI of base/rel, with rel as given (it may carry escapes)."""
    return f"file://{base}/{rel}"


def text_of(result: types.CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, types.TextContent))


def reason_of(result: types.CallToolResult) -> str:
    return str((result.structured_content or {}).get("reason"))


async def run(mode: str, binary: str, base: Path) -> None:
    shared = [uri(base, "root")]
    asked = anyio.Event()
    answers = 0

    async def list_roots(_context: ClientRequestContext) -> types.ListRootsResult:
        nonlocal answers, asked
        answers += 1
        asked.set()
        return types.ListRootsResult(roots=[types.Root(uri=u) for u in shared])

    server = StdioServerParameters(command=binary)
    async with Client(server, mode=mode, list_roots_callback=list_roots) as client:
        label = "default" if mode == "auto" else mode
        version = client.protocol_version
        expected = "2026-07-28" if mode == "auto" else "2025-11-25"
        name = client.server_info.name if client.server_info else None
        ok = version == expected and name == "minimal-server"
        report(ok, label, f"negotiated {version} with {name}", "" if ok else f"expected {expected} with minimal-server")

        async def read(path: str) -> tuple[types.CallToolResult | None, float, str]:
            started = time.monotonic()
            try:
                with anyio.fail_after(CALL_BOUND):
                    result = await client.call_tool("read_file", {"path": path})
            except Exception as err:  # a protocol error is a failed check, not a crash
                return None, time.monotonic() - started, f"{type(err).__name__}: {err}"
            return result, time.monotonic() - started, ""

        async def inside(what: str, path: str, text: str) -> None:
            result, took, error = await read(path)
            ok = result is not None and not result.is_error and text_of(result) == text and took <= READ_WITHIN
            got = error or (f"isError, {reason_of(result)}" if result.is_error else repr(text_of(result)))
            report(ok, label, f"{what} -> {got} in {took:.3f}s")

        async def refused(what: str, path: str) -> None:
            result, took, error = await read(path)
            ok = result is not None and result.is_error is True and SECRET not in text_of(result)
            got = error or (f"isError, reason {reason_of(result)}" if result.is_error else repr(text_of(result)))
            report(ok, label, f"{what} -> {got} in {took:.3f}s")

        await inside("read inside (path)", str(base / "root/inside.txt"), "inside")
        await inside("read inside (file:// URI)", uri(base, "root/inside.txt"), "inside")
        await inside("read inside (subfolder)", str(base / "root/sub/deeper.txt"), "deeper")
        await refused("outside (path)", str(base / "other/secret.txt"))
        await refused("outside (URI)", uri(base, "other/secret.txt"))
        await refused("'..' escape (path)", f"{base}/root/../other/secret.txt")
        await refused("'..' escape (URI)", uri(base, "root/../other/secret.txt"))
        await refused("encoded '/' (%2F)", uri(base, "root/..%2Fother%2Fsecret.txt"))
        await refused("encoded '..' (%2e%2e)", uri(base, "root/%2e%2e/other/secret.txt"))
        await refused("prefix sibling", str(base / "root_evil/x.txt"))
        await refused("symlink out", str(base / "root/out"))
        await refused("relative path", "root/inside.txt")
        await refused("relative '..'", "../other/secret.txt")

        # The client changes its roots: the next read sees the new list.
        shared[:] = [uri(base, "second")]
        if mode == "legacy":
            asked = anyio.Event()
            with warnings.catch_warnings():
                # Deprecated from 2026-07-28 on; this session speaks 2025-11-25.
                warnings.simplefilter("ignore", MCPDeprecationWarning)
                await client.session.send_roots_list_changed()
            with anyio.fail_after(CALL_BOUND):
                await asked.wait()  # the server re-listed; a later call waits for it to land
        await inside("after a roots change, the new root", str(base / "second/new.txt"), "second")
        await refused("after a roots change, the old root", str(base / "root/inside.txt"))
        report(answers > 0, label, f"roots answered {answers} time(s)")


async def without_roots(mode: str, binary: str, base: Path) -> None:
    label = "default" if mode == "auto" else mode
    async with Client(StdioServerParameters(command=binary), mode=mode) as client:
        started = time.monotonic()
        with anyio.fail_after(CALL_BOUND):
            result = await client.call_tool("read_file", {"path": str(base / "root/inside.txt")})
        took = time.monotonic() - started
        text = text_of(result)
        ok = (
            result.is_error is True
            and reason_of(result) == "no_roots"
            and "has not answered roots/list" not in text
            and took <= READ_WITHIN
        )
        report(ok, label, f"no roots capability -> isError, reason {reason_of(result)} in {took:.3f}s")


async def main() -> int:
    default = Path(__file__).resolve().parents[3] / "target" / "debug" / "minimal-server"
    binary = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("MINIMAL_SERVER", str(default))
    if not os.access(binary, os.X_OK):
        print(f"FAIL no executable at {binary} (build it: cargo build -p minimal-server)")
        return 1
    from importlib.metadata import version

    print(f"mcp {version('mcp')}, server {binary}", flush=True)
    for mode in ("auto", "legacy"):
        with tempfile.TemporaryDirectory() as dir:
            base = Path(dir).resolve()
            tree(base)
            try:
                await run(mode, binary, base)
                await without_roots(mode, binary, base)
            except Exception as err:
                report(False, "default" if mode == "auto" else mode, "session", f"{type(err).__name__}: {err}")
    print(f"{'FAILED' if failures else 'passed'}: {failures} failure(s)", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(anyio.run(main))
