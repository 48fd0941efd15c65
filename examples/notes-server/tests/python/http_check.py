"""notes-server --http against the official MCP Python SDK's client.

    python http_check.py [PATH/TO/notes-server]

Starts one `notes-server --http 127.0.0.1:0 --ceiling <tmp>/ceiling` and
reads its URL from stderr. Then, with the SDK's Streamable HTTP client in
its default mode ("auto": `server/discover`, so 2026-07-28 with requests
that stand alone) and in legacy mode (`initialize`, 2025-11-25, an
`Mcp-Session-Id` session), each client declaring roots (a callback):

- it negotiates the expected revision with notes-server;
- notes_list lists exactly the notes under its root, and notes_read
  reads one inside;
- reads outside are tool errors (isError true) that do not show the text:
  another folder under the ceiling, a folder outside the ceiling, a '..'
  escape; a root the client offers outside the ceiling grants nothing;
- a second client at the same time, sharing another folder, lists only
  its own notes, and neither sees the other's;
- after the client changes its roots (legacy: and says so with
  `notifications/roots/list_changed`), the next read sees the new list.

When a client closes (legacy: its `DELETE`, answered 200; rmcp's own 202
made this SDK log "Session termination failed: 202"),
the server holds no descriptor under the tree any more (Linux: read from
/proc). Finally the server is stopped with SIGTERM and must exit with
status 0.
Prints one line per check and exits non-zero if any fails.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import anyio
import mcp_types as types
from mcp import Client
from mcp.client.session import ClientRequestContext
from mcp.shared.exceptions import MCPDeprecationWarning

# Nothing may hang the check: a call that takes this long fails it.
CALL_BOUND = 10.0
# How long the server may take to say where it listens.
LISTEN_BOUND = 20.0
# Text outside the roots, which no refusal may show.
SECRET = "the text outside"
LISTENING = "notes-server: listening on "

# minimal-server's check prints the lines and counts the failures.
sys.path.insert(0, str(Path(__file__).resolve().parents[4] / "minimal-server" / "tests" / "python"))
import check as shared  # noqa: E402
from check import reason_of, report, text_of  # noqa: E402


def tree(base: Path) -> None:
    """ceiling/{Notes,Work,Journal} (the operator's ceiling) and outside/."""
    for rel, text in [
        ("ceiling/Notes/a.md", "# Alpha\nnotes a\n"),
        ("ceiling/Notes/sub/b.md", "# Beta\nnotes b\n"),
        ("ceiling/Work/plan.md", "# Plan\nwork plan\n"),
        ("ceiling/Journal/today.md", "# Today\njournal\n"),
        ("outside/secret.md", f"# Secret\n{SECRET}\n"),
    ]:
        path = base / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def uri(base: Path, rel: str) -> str:
    return f"file://{base}/{rel}"


def listed(result: types.CallToolResult) -> list[str]:
    notes = (result.structured_content or {}).get("notes") or []
    return sorted(note["uri"] for note in notes)


def open_under(pid: int, base: Path) -> int | None:
    """How many descriptors of process `pid` are open under `base` (None
    where /proc cannot tell)."""
    fds = Path(f"/proc/{pid}/fd")
    if not fds.is_dir():
        return None
    count = 0
    for fd in fds.iterdir():
        try:
            if Path(os.readlink(fd)).is_relative_to(base):
                count += 1
        except OSError:
            pass
    return count


async def freed(pid: int, base: Path) -> int | None:
    """Waits (bounded) until the server holds nothing under `base`; what is left."""
    left = open_under(pid, base)
    deadline = time.monotonic() + CALL_BOUND
    while left and time.monotonic() < deadline:
        await anyio.sleep(0.01)
        left = open_under(pid, base)
    return left


def start(binary: str, ceiling: Path) -> tuple[subprocess.Popen[str], str]:
    server = subprocess.Popen(
        [binary, "--http", "127.0.0.1:0", "--ceiling", str(ceiling)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert server.stderr is not None
    deadline = time.monotonic() + LISTEN_BOUND
    said = []
    while time.monotonic() < deadline:
        line = server.stderr.readline()
        if not line:
            break
        said.append(line.rstrip())
        if line.startswith(LISTENING):
            return server, line[len(LISTENING) :].strip()
    server.kill()
    raise RuntimeError(f"the server did not listen: {said}")


class Roots:
    """A client's shared folders, and how often it was asked for them."""

    def __init__(self, uris: list[str]) -> None:
        self.uris = uris
        self.answers = 0
        self.asked = anyio.Event()

    async def callback(self, _context: ClientRequestContext) -> types.ListRootsResult:
        self.answers += 1
        self.asked.set()
        return types.ListRootsResult(roots=[types.Root(uri=u) for u in self.uris])


async def call(client: Client, tool: str, args: dict) -> tuple[types.CallToolResult | None, str]:
    try:
        with anyio.fail_after(CALL_BOUND):
            return await client.call_tool(tool, args), ""
    except Exception as err:  # a protocol error is a failed check, not a crash
        return None, f"{type(err).__name__}: {err}"


async def run(mode: str, url: str, base: Path, pid: int) -> None:
    label = "default" if mode == "auto" else mode
    ceiling = base / "ceiling"
    notes = Roots([uri(ceiling, "Notes"), uri(base, "outside")])
    async with Client(url, mode=mode, list_roots_callback=notes.callback) as client:
        version = client.protocol_version
        expected = "2026-07-28" if mode == "auto" else "2025-11-25"
        name = client.server_info.name if client.server_info else None
        ok = version == expected and name == "notes-server"
        report(ok, label, f"negotiated {version} with {name} over {url}", "" if ok else f"expected {expected}")

        async def inside(what: str, path: str, text: str) -> None:
            result, error = await call(client, "notes_read", {"path": path})
            ok = result is not None and not result.is_error and text_of(result) == text
            got = error or (f"isError, {reason_of(result)}" if result.is_error else repr(text_of(result)))
            report(ok, label, f"{what} -> {got}")

        async def refused(what: str, path: str) -> None:
            result, error = await call(client, "notes_read", {"path": path})
            ok = result is not None and result.is_error is True and SECRET not in text_of(result)
            got = error or (f"isError, reason {reason_of(result)}" if result.is_error else repr(text_of(result)))
            report(ok, label, f"{what} -> {got}")

        result, error = await call(client, "notes_list", {})
        mine = [uri(ceiling, "Notes/a.md"), uri(ceiling, "Notes/sub/b.md")]
        got = listed(result) if result else error
        report(result is not None and got == mine, label, f"notes_list -> {len(got)} notes, all under Notes", "" if got == mine else str(got))
        await inside("read inside (path)", str(ceiling / "Notes/a.md"), "# Alpha\nnotes a\n")
        await inside("read inside (file:// URI, subfolder)", uri(ceiling, "Notes/sub/b.md"), "# Beta\nnotes b\n")
        await refused("under the ceiling, outside the roots", str(ceiling / "Work/plan.md"))
        await refused("a root offered outside the ceiling", str(base / "outside/secret.md"))
        await refused("'..' escape", f"{ceiling}/Notes/../../outside/secret.md")

        # A second client at the same time, sharing Work: each sees its own.
        work = Roots([uri(ceiling, "Work")])
        async with Client(url, mode=mode, list_roots_callback=work.callback) as other:
            theirs, error = await call(other, "notes_list", {})
            got = listed(theirs) if theirs else error
            report(got == [uri(ceiling, "Work/plan.md")], label, f"a second client lists only its Work note", "" if theirs else error)
            again, error = await call(client, "notes_list", {})
            report(again is not None and listed(again) == mine, label, "the first still lists only Notes", error)
            crossed, error = await call(other, "notes_read", {"path": str(ceiling / "Notes/a.md")})
            ok = crossed is not None and crossed.is_error is True and "notes a" not in text_of(crossed)
            report(ok, label, f"the second cannot read the first's note -> isError, reason {reason_of(crossed) if crossed else error}")

        # The client changes its roots: the next read sees the new list.
        notes.uris[:] = [uri(ceiling, "Journal")]
        if mode == "legacy":
            notes.asked = anyio.Event()
            with warnings.catch_warnings():
                # Deprecated from 2026-07-28 on; this session speaks 2025-11-25.
                warnings.simplefilter("ignore", MCPDeprecationWarning)
                await client.session.send_roots_list_changed()
            with anyio.fail_after(CALL_BOUND):
                await notes.asked.wait()  # the server re-listed; a later call waits for it to land
        await inside("after a roots change, the new root", str(ceiling / "Journal/today.md"), "# Today\njournal\n")
        await refused("after a roots change, the old root", str(ceiling / "Notes/a.md"))
        report(notes.answers > 0, label, f"roots answered {notes.answers} time(s)")
        held = open_under(pid, base)
    left = await freed(pid, base)
    if left is not None:
        report(left == 0, label, f"closed: the server's descriptors under the tree {held} -> {left}")


async def main() -> int:
    default = Path(__file__).resolve().parents[4] / "target" / "debug" / "notes-server"
    binary = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("NOTES_SERVER", str(default))
    if not os.access(binary, os.X_OK):
        print(f"FAIL no executable at {binary} (build it: cargo build -p notes-server)")
        return 1
    from importlib.metadata import version

    with tempfile.TemporaryDirectory() as dir:
        base = Path(dir).resolve()
        tree(base)
        server, url = start(binary, base / "ceiling")
        print(f"mcp {version('mcp')}, server {binary} (pid {server.pid})", flush=True)
        try:
            for mode in ("auto", "legacy"):
                try:
                    await run(mode, url, base, server.pid)
                except Exception as err:
                    report(False, "default" if mode == "auto" else mode, "session", f"{type(err).__name__}: {err}")
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                status = server.wait(timeout=CALL_BOUND)
            except subprocess.TimeoutExpired:
                server.kill()
                status = None
        report(status == 0, "server", f"one process served every session; SIGTERM -> exit status {status}")
    failures = shared.failures
    print(f"{'FAILED' if failures else 'passed'}: {failures} failure(s)", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(anyio.run(main))
