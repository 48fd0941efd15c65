"""mcp-roots-fs `--ask-within` driven by the official MCP Python SDK's
client, in its default mode (2026-07-28) and in legacy mode (2025-11-25):
the user's answers to the grant questions, as a real client delivers them.

    python grants_check.py PATH/TO/mcp-roots-fs

Starts `mcp-roots-fs --ask-within <tmp>/area --hide '*.pem'` (no DIR:
nothing is served until the user grants it) once per scene, and checks:

- accept for this call: the read is served, and the next call asks again;
- accept for the session (legacy only: 2026-07-28 has no session, and the
  form offers "this call" and "no" alone): not asked again, listed by
  `list_allowed_directories`; a read grant then a write asks again;
- decline, and the "Don't allow" choice: `grant_declined`, remembered for
  the session across spellings (on both eras: over stdio the process is
  the client's session);
- cancel: `grant_cancelled`;
- a hidden file in the area, and a path past it: refused without a
  question;
- `resources/read` of a file in the area: asked about as a tool's path;
- (legacy) a writable directory grant writes, a read-only pattern inside
  it stays read-only, `..` and links out of it are not served by it, a
  granted file renamed away on disk is no longer reachable by the grant,
  and a session's grants end with it;
- a client without elicitation: `outside_roots`, with the sentence telling
  the model to ask the user.

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
from mcp.shared.exceptions import MCPError

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "minimal-server" / "tests" / "python"))
import check as shared  # noqa: E402
from check import report  # noqa: E402

CALL_BOUND = 20.0


def text_of(result: types.CallToolResult | None) -> str:
    return shared.text_of(result) if result is not None else ""


def reason_of(result: types.CallToolResult | None) -> str | None:
    if result is None or not result.is_error:
        return None
    return (result.structured_content or {}).get("reason")


class User:
    """Answers the grant questions as scripted: `answers` are taken in
    order ("call", "session", "no" pick the choice whose const is that;
    "decline" and "cancel" are the form's actions)."""

    def __init__(self) -> None:
        self.answers: list[str] = []
        self.asked: list[tuple[str, list[str]]] = []

    async def elicit(self, _context: ClientRequestContext, params: types.ElicitRequestParams):
        if isinstance(params, types.ElicitRequestURLParams):
            return types.ElicitResult(action="decline")
        choices = [o.get("const") for o in params.requested_schema.get("properties", {}).get("grant", {}).get("oneOf", [])]
        self.asked.append((params.message, choices))
        answer = self.answers.pop(0) if self.answers else "decline"
        if answer in ("decline", "cancel"):
            return types.ElicitResult(action=answer)
        return types.ElicitResult(action="accept", content={"grant": answer})


def tree(base: Path) -> Path:
    area = base / "area"
    for rel, text in [
        ("area/a.md", "alpha"),
        ("area/b.md", "beta"),
        ("area/c.md", "gamma"),
        ("area/key.pem", "secret"),
        ("area/notes/n.md", "note"),
        ("outside/x.md", "x"),
    ]:
        path = base / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return area


async def call(client: Client, mode: str, tool: str, args: dict) -> types.CallToolResult | None:
    try:
        with anyio.fail_after(CALL_BOUND):
            return await client.call_tool(tool, args)
    except Exception as err:  # a protocol error is a failed check, not a crash
        report(False, mode, f"{tool}: {type(err).__name__}: {err}")
        return None


async def scenes(binary: str, base: Path, mode: str) -> None:
    area = tree(base)
    at = lambda rel: str(base / rel)  # noqa: E731
    args = ["--ask-within", str(area), "--hide", "*.pem", "--read-only-pattern", "*.lock"]
    params = StdioServerParameters(command=binary, args=args)
    user = User()
    async with Client(params, mode=mode, elicitation_callback=user.elicit) as client:
        session = mode == "legacy"
        version = client.protocol_version
        report(version == ("2025-11-25" if session else "2026-07-28"), mode, f"negotiated {version}")

        # Accept for this call: served, and asked again next call.
        user.answers = ["call", "call"]
        first = await call(client, mode, "read_text_file", {"path": at("area/a.md")})
        report(text_of(first) == "alpha", mode, "accepted for the call: read", text_of(first)[:120])
        choices = user.asked[-1][1] if user.asked else []
        want = ["call", "session", "no"] if session else ["call", "no"]
        report(choices == want, mode, f"the form offers {want}", str(choices))
        report(bool(user.asked) and at("area/a.md") in user.asked[-1][0], mode, "the question names the path")
        again = await call(client, mode, "read_text_file", {"path": at("area/a.md")})
        report(text_of(again) == "alpha" and len(user.asked) == 2, mode, "a call grant is asked again next call", f"{len(user.asked)} questions")

        # A hidden file and a path past the area: no question.
        asked = len(user.asked)
        hidden = await call(client, mode, "read_text_file", {"path": at("area/key.pem")})
        report(reason_of(hidden) == "hidden", mode, "a hidden file in the area is refused", str(reason_of(hidden)))
        past = await call(client, mode, "read_text_file", {"path": at("outside/x.md")})
        report(reason_of(past) in ("no_roots", "outside_roots"), mode, "a path past the area is refused", str(reason_of(past)))
        report(len(user.asked) == asked, mode, "neither was asked about")

        # Cancel, and decline.
        user.answers = ["cancel"]
        cancelled = await call(client, mode, "read_text_file", {"path": at("area/b.md")})
        report(reason_of(cancelled) == "grant_cancelled", mode, "cancel: grant_cancelled", str(reason_of(cancelled)))
        user.answers = ["no"]
        refused = await call(client, mode, "read_text_file", {"path": at("area/c.md")})
        report(reason_of(refused) == "grant_declined", mode, "\"Don't allow\": grant_declined", str(reason_of(refused)))
        asked = len(user.asked)
        user.answers = ["call"]
        spelled = await call(client, mode, "get_file_info", {"path": at("area/notes/../c.md")})
        # Over stdio the process is the client's session on both eras: the
        # "no" is remembered there too.
        report(reason_of(spelled) == "grant_declined" and len(user.asked) == asked, mode,
               "the no is remembered across spellings", f"{reason_of(spelled)}, {len(user.asked) - asked} asked")
        user.answers = ["decline"]
        declined = await call(client, mode, "read_text_file", {"path": at("area/b.md")})
        report(reason_of(declined) == "grant_declined", mode, "decline: grant_declined", str(reason_of(declined)))

        # A resource read is asked about as a tool's path is.
        asked = len(user.asked)
        user.answers = ["call"]
        try:
            with anyio.fail_after(CALL_BOUND):
                read = await client.read_resource(f"file://{at('area/notes/n.md')}")
            text = read.contents[0].text if read.contents and hasattr(read.contents[0], "text") else ""
            report(text == "note" and len(user.asked) == asked + 1, mode, "resources/read asks and reads", text)
            report("resources/read" in user.asked[-1][0], mode, "its question names resources/read")
        except Exception as err:
            report(False, mode, "resources/read asks and reads", f"{type(err).__name__}: {err}")
        try:
            with anyio.fail_after(CALL_BOUND):
                await client.read_resource(f"file://{at('area/key.pem')}")
            report(False, mode, "a hidden resource is refused")
        except MCPError as err:
            report((err.data or {}).get("reason") == "hidden", mode, "a hidden resource is refused", str(err.data))

        if session:
            # For the session: not asked again, listed.
            user.answers = ["session"]
            notes = at("area/notes/n.md")
            granted = await call(client, mode, "read_text_file", {"path": notes})
            asked = len(user.asked)
            still = await call(client, mode, "read_text_file", {"path": notes})
            report(text_of(granted) == "note" and text_of(still) == "note" and len(user.asked) == asked,
                   mode, "a session grant is not asked again")
            listed = await call(client, mode, "list_allowed_directories", {})
            report(notes in text_of(listed), mode, "list_allowed_directories lists the grant", text_of(listed)[:200])
            # A read grant, then a write: asked again, for the change.
            user.answers = ["session"]
            wrote = await call(client, mode, "write_file", {"path": notes, "content": "changed"})
            report(not (wrote and wrote.is_error) and len(user.asked) == asked + 1
                   and (base / "area/notes/n.md").read_text() == "changed",
                   mode, "a write to a read grant asks again and writes", text_of(wrote)[:120])

    if session:
        # Another session (the questions are limited per session).
        user = User()
        async with Client(params, mode=mode, elicitation_callback=user.elicit) as client:
            await bounds(client, mode, user, base)

        # The first session's grants ended with it: a new session asks again.
        user = User()
        async with Client(params, mode=mode, elicitation_callback=user.elicit) as client:
            user.answers = ["decline"]
            again = await call(client, mode, "read_text_file", {"path": at("area/notes/n.md")})
            report(reason_of(again) == "grant_declined" and len(user.asked) == 1, mode,
                   "a session grant ends with the session: asked again", str(reason_of(again)))

    # A client without elicitation: no question, the sentence.
    async with Client(params, mode=mode) as plain:
        got = await call(plain, mode, "read_text_file", {"path": at("area/a.md")})
        report(reason_of(got) == "outside_roots" and "Ask the user" in text_of(got), mode,
               "without elicitation: outside_roots with the sentence", text_of(got)[:160])


async def bounds(client: Client, mode: str, user: User, base: Path) -> None:
    """What a writable directory grant reaches, and what a file grant
    follows on disk (a session, legacy mode)."""
    at = lambda rel: str(base / rel)  # noqa: E731
    (base / "area/docs").mkdir()
    (base / "area/docs/d.md").write_text("doc")
    (base / "area/docs/to_b").symlink_to("../b.md")
    (base / "area/docs/up").symlink_to("..")
    # create_directory of an existing folder asks about changing it.
    user.answers = ["session"]
    await call(client, mode, "create_directory", {"path": at("area/docs")})
    asked_dir = bool(user.asked) and f"change the directory {at('area/docs')}" in user.asked[-1][0]
    asked = len(user.asked)
    made = await call(client, mode, "write_file", {"path": at("area/docs/new.md"), "content": "new"})
    report(asked_dir and not (made and made.is_error) and len(user.asked) == asked
           and (base / "area/docs/new.md").read_text() == "new", mode,
           "a writable directory grant (asked by create_directory): a new file written unasked", text_of(made)[:120])
    locked = await call(client, mode, "write_file", {"path": at("area/docs/x.lock"), "content": "x"})
    report(reason_of(locked) == "read_only" and not (base / "area/docs/x.lock").exists() and len(user.asked) == asked,
           mode, "a read-only pattern stays read-only inside a writable grant, unasked", str(reason_of(locked)))
    # Neither a sibling nor the parent through the grant: `..` and links
    # leave it, so they are asked about (declined here) or refused, never
    # served by the grant.
    for rel in ["area/docs/../b.md", "area/docs/to_b", "area/docs/up/c.md"]:
        user.answers = ["decline"]
        got = await call(client, mode, "read_text_file", {"path": at(rel)})
        report(got is not None and got.is_error and text_of(got) not in ("alpha", "beta", "gamma"), mode,
               f"{rel} is not reached through the directory grant", str(reason_of(got)))
    # A file granted for the session, then renamed away on disk: the name
    # is the grant, not the file.
    (base / "area/r.md").write_text("renamed")
    user.answers = ["session"]
    first = await call(client, mode, "read_text_file", {"path": at("area/r.md")})
    (base / "area/r.md").rename(base / "area/r2.md")
    gone = await call(client, mode, "read_text_file", {"path": at("area/r.md")})
    asked = len(user.asked)
    user.answers = ["decline"]
    moved = await call(client, mode, "read_text_file", {"path": at("area/r2.md")})
    report(text_of(first) == "renamed" and reason_of(gone) == "not_found"
           and reason_of(moved) == "grant_declined" and len(user.asked) == asked + 1, mode,
           "a granted file renamed away: its name is gone, the new name is asked about",
           f"{reason_of(gone)}, {reason_of(moved)}")


async def main() -> None:
    binary = sys.argv[1]
    for mode in ("auto", "legacy"):
        with tempfile.TemporaryDirectory() as tmp:
            await scenes(binary, Path(tmp).resolve(), mode)
    print(f"{shared.failures} failed", flush=True)
    sys.exit(1 if shared.failures else 0)


if __name__ == "__main__":
    anyio.run(main)
