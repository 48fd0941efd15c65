"""Wiring for the official MCP Python SDK's ``MCPServer``: one session's
roots and refusals as tool errors, with one tool body for every revision.

    wiring = SessionRoots(ceiling=["/home/me/projects"])
    server = MCPServer("files", middleware=[wiring.middleware])

    @server.tool()
    async def read_file(path: str, roots: Annotated[Roots, Resolve(wiring.roots)]) -> str:
        return await asyncio.to_thread(roots.read_text, path)

- Up to 2025-11-25, each session keeps one live ``Roots``: listed (with
  ``roots/list``) after ``notifications/initialized`` and again after each
  ``notifications/roots/list_changed`` (the middleware sees both and lists
  in a task of its own; a tool call waits for the listing in flight),
  replaced as a whole so held files that leave are revoked.
- On 2026-07-28 the request carries its roots: the resolver returns the
  SDK's ``ListRoots`` marker, the SDK asks the client within the call, and
  the answer is admitted under the policy as that request's roots (nothing
  is kept for the session).
- A client without the roots capability is served the ``empty_roots`` policy
  (the SDK's resolver would refuse such a client; the resolver never asks
  it).
- ``refusal(err)`` (or the ``@refusals`` decorator) turns an
  ``McpRootsError`` into the tool result: ``isError``, the sentence, and
  ``structuredContent`` ``{"reason", "detail", "input", "operation"}``.
"""


import asyncio
import functools
import warnings
import weakref
from typing import Annotated, Any, Awaitable, Callable, TypeVar

from mcp.server.context import CallNext
from mcp.server.mcpserver import Context, ListRoots, Resolve
from mcp.shared.exceptions import MCPDeprecationWarning
from mcp_types import CallToolResult, ListRootsResult, TextContent

from . import Roots
from ._errors import McpRootsError

__all__ = ["SessionRoots", "refusal", "refusals"]

_REQUEST_ROOTS = "2026-07-28"


def refusal(err: McpRootsError) -> CallToolResult:
    """The tool result of a refusal."""
    return CallToolResult(
        content=[TextContent(type="text", text=err.sentence)],
        structured_content={"reason": err.reason, "detail": err.detail, "input": err.input, "operation": err.operation},
        is_error=True,
    )


F = TypeVar("F", bound=Callable[..., Awaitable[Any]])


def refusals(tool: F) -> F:
    """Decorates a tool body: an ``McpRootsError`` it raises becomes the
    tool result of ``refusal``."""

    @functools.wraps(tool)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return await tool(*args, **kwargs)
        except McpRootsError as err:
            return refusal(err)

    return wrapper  # type: ignore[return-value]


def _pairs(listed: ListRootsResult) -> list[tuple[str, str | None]]:
    return [(str(root.uri), root.name) for root in listed.roots]


def _is_request_revision(ctx: Context) -> bool:
    version = ctx.protocol_version
    return version is not None and version >= _REQUEST_ROOTS


def _declares_roots(ctx: Context) -> bool:
    caps = ctx.client_capabilities
    return caps is not None and caps.roots is not None


class _Session:
    def __init__(self, policy: "dict[str, Any]") -> None:
        self.roots = Roots(**policy)
        # Never listed yet, or the last listing failed.
        self.stale = True
        # Counts the listings asked for: an older answer never replaces a newer one.
        self.asked = 0
        self.listing: "asyncio.Task[None] | None" = None


class SessionRoots:
    """Keeps each session's ``Roots`` under one policy (the keyword
    arguments of ``Roots``)."""

    def __init__(self, **policy: Any) -> None:
        self._policy = policy
        self._template = Roots(**policy)
        self._sessions: weakref.WeakKeyDictionary[Any, _Session] = weakref.WeakKeyDictionary()
        # Resolvers for the tool parameters: `Annotated[Roots, Resolve(wiring.roots)]`.
        self.roots = self._make_resolver()

    def session(self, session: Any) -> Roots:
        """The live roots kept for one session (legacy revisions)."""
        return self._state(session).roots

    def _state(self, session: Any) -> _Session:
        state = self._sessions.get(session)
        if state is None:
            state = self._sessions[session] = _Session(self._policy)
        return state

    async def middleware(self, ctx: Any, call_next: CallNext) -> Any:
        """Server middleware: a session's roots are listed again after
        ``notifications/initialized`` and ``notifications/roots/list_changed``
        (in a task of their own: a request sent from inside the notification
        would hold up the session's dispatch)."""
        result = await call_next(ctx)
        if ctx.request_id is None and ctx.method in ("notifications/initialized", "notifications/roots/list_changed"):
            version = getattr(ctx, "protocol_version", None)
            if version is None or version < _REQUEST_ROOTS:
                self._start_listing(self._state(ctx.session), ctx.session)
        return result

    def _start_listing(self, state: _Session, session: Any) -> None:
        state.stale = True
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not asyncio (trio): listed at the next tool call
            return
        state.listing = loop.create_task(self._list(state, session))

    async def _list(self, state: _Session, session: Any) -> None:
        state.asked += 1
        mine = state.asked
        caps = session.client_capabilities
        if caps is None or caps.roots is None:
            state.roots.replace_undeclared()
            state.stale = False
            return
        try:
            with warnings.catch_warnings():
                # The SDK marks `list_roots` deprecated as of 2026-07-28
                # (always, whatever the session's revision); this path
                # serves only the revisions before it.
                warnings.simplefilter("ignore", MCPDeprecationWarning)
                listed = await session.list_roots()
        except Exception:
            # No answer: the session keeps what it had (before any answer,
            # no roots); the next tool call asks again.
            return
        if mine == state.asked:
            state.roots.replace(_pairs(listed))
            state.stale = False

    async def _legacy(self, ctx: Context) -> Roots:
        state = self._state(ctx.session)
        if state.listing is not None and not state.listing.done():
            # The tool call waits for the listing in flight (not cancelling
            # it if the call is cancelled).
            await asyncio.shield(state.listing)
        if state.stale:
            await self._list(state, ctx.session)
        return state.roots

    def _make_resolver(self) -> Callable[..., Any]:
        wiring = self

        def ask(ctx: Context) -> ListRoots | ListRootsResult | None:
            # Only the request revision with a client that has roots asks.
            if _is_request_revision(ctx) and _declares_roots(ctx):
                return ListRoots()
            return None

        async def roots(ctx: Context, listed: Annotated[ListRootsResult | None, Resolve(ask)]) -> Roots:
            if not _is_request_revision(ctx):
                return await wiring._legacy(ctx)
            return wiring._template.for_request(None if listed is None else _pairs(listed))

        return roots
