"""Three notes-server --http instances behind a round-robin proxy, one Redis,
against the official MCP Python SDK's client in its default (2026-07-28)
mode.

    python multi_check.py [PATH/TO/notes-server]

Starts its own redis-server (a free loopback port, a temporary directory,
no persistence) and stops it; without a redis-server binary it says so and
exits 0 (skipped). The instances share Redis (`--state`) and a key file
(`--state-key-file`); `--url-wait 1` keeps the setup flow's rounds short.
The proxy (in this script) sends each HTTP request to the next live
instance, or to the instance a check names for its next `tools/call`.

- notes_archive with every round on another instance archives exactly the
  chosen note;
- a consumed requestState replayed to each other instance is refused
  (invalid_request_state) and changes nothing;
- the setup flow: the page is submitted (late, so a round has to wait) and
  the retries on the other instances see its end;
- an instance killed between rounds: the retry elsewhere completes;
- Redis stopped: the round that would consume a state is refused
  (state_store_unavailable), nothing changes; Redis back: the call completes;
- a key rotated between rounds (instances at successive steps of a rolling
  rotation) completes; a state sealed with a retired key is refused.

Prints one line per check and exits non-zero if any fails.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import urllib.error
import urllib.parse
import urllib.request
import mcp_types as types
from mcp import Client
from mcp.client.session import ClientRequestContext

CALL_BOUND = 30.0
LISTEN_BOUND = 20.0
LISTENING = "notes-server: listening on "

sys.path.insert(0, str(Path(__file__).resolve().parents[4] / "minimal-server" / "tests" / "python"))
import check as shared  # noqa: E402
from check import reason_of, report, text_of  # noqa: E402

LABEL = "multi"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Redis:
    def __init__(self, base: Path) -> None:
        self.port = free_port()
        self.dir = base / "redis"
        self.dir.mkdir()
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.dir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + LISTEN_BOUND
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.02)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.process:
            self.process.kill()
            self.process.wait()
            self.process = None


class Instance:
    def __init__(self, binary: str, ceiling: Path, redis: Redis, keys: Path, page: list[str] | None = None) -> None:
        self.process = subprocess.Popen(
            [binary, "--http", "127.0.0.1:0", "--ceiling", str(ceiling), "--state", redis.url,
             "--state-key-file", str(keys), "--url-wait", "1", *(page or [])],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )
        assert self.process.stderr is not None
        deadline = time.monotonic() + LISTEN_BOUND
        said = []
        while time.monotonic() < deadline:
            line = self.process.stderr.readline()
            if not line:
                break
            said.append(line.rstrip())
            if line.startswith(LISTENING):
                url = line[len(LISTENING):].strip()
                self.addr = url.removeprefix("http://").split("/")[0]
                # Keep draining the log so the server never blocks on it.
                threading.Thread(target=self.process.stderr.read, daemon=True).start()
                return
        self.process.kill()
        raise RuntimeError(f"the server did not listen: {said}")

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()


class PageBackend:
    """Instance `index`'s --setup-listen, as a proxy backend."""

    def __init__(self, instances: list[Instance], index: int, port: int) -> None:
        self.instances, self.index, self.addr = instances, index, f"127.0.0.1:{port}"

    def alive(self) -> bool:
        return self.instances[self.index].alive()


class Proxy:
    """HTTP/1.1, one request per connection: each to the next live backend
    (round robin), or to the one `plan` names for the next tools/call."""

    def __init__(self, backends: list[Instance]) -> None:
        self.backends = backends
        self.next = 0
        self.plan: list[int] = []
        self.calls: list[int] = []  # the backend index of each tools/call
        self.durations: list[float] = []  # each tools/call's, to the end of its answer
        self.tasks: set[asyncio.Task] = set()
        self.served: list[int] = []  # the backend index of every request

    async def start(self) -> str:
        self.server = await asyncio.start_server(self.serve, "127.0.0.1", 0)
        return f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}/mcp"

    def choose(self, is_call: bool) -> int:
        if is_call and self.plan:
            return self.plan.pop(0)
        for _ in range(len(self.backends)):
            index = self.next % len(self.backends)
            self.next += 1
            if self.backends[index].alive():
                return index
        raise RuntimeError("no live backend")

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        self.tasks.add(task)
        started = time.perf_counter()
        is_call = False
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            length = 0
            headers = []
            for line in lines[1:]:
                if not line:
                    continue
                name, _, value = line.partition(":")
                low = name.strip().lower()
                if low == "content-length":
                    length = int(value)
                if low in ("host", "connection"):
                    continue
                headers.append(line)
            body = await reader.readexactly(length) if length else b""
            try:
                is_call = json.loads(body or b"{}").get("method") == "tools/call"
            except ValueError:
                is_call = False
            index = self.choose(is_call)
            self.served.append(index)
            if is_call:
                self.calls.append(index)
            backend = self.backends[index]
            host, port = backend.addr.rsplit(":", 1)
            up_reader, up_writer = await asyncio.open_connection(host, int(port))
            request = "\r\n".join([lines[0], f"Host: {backend.addr}", "Connection: close", *headers]) + "\r\n\r\n"
            up_writer.write(request.encode("latin-1") + body)
            await up_writer.drain()
            while chunk := await up_reader.read(65536):
                writer.write(chunk)
                await writer.drain()
            up_writer.close()
            if is_call:
                self.durations.append(time.perf_counter() - started)
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()
            self.tasks.discard(task)

    async def close(self) -> None:
        self.server.close()
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


def tree(base: Path) -> Path:
    notes = base / "ceiling" / "Notes"
    for rel, text in [
        ("a.md", "# Plan\nfirst plan\n"),
        ("b.md", "# Plan\nsecond plan\n"),
        ("c.md", "# Plan\nthird plan\n"),
    ]:
        (notes / rel).parent.mkdir(parents=True, exist_ok=True)
        (notes / rel).write_text(text)
    return notes


def key_file(base: Path, name: str, seal: str, accept: list[str]) -> Path:
    path = base / f"{name}.keys"
    lines = [f"seal = {seal}"] + [f"accept = {k}" for k in accept]
    path.write_text("\n".join(lines) + "\n")
    path.chmod(0o600)
    return path


def submit_page(url: str) -> str:
    """Opens the setup page and saves a template: the two statuses."""
    with urllib.request.urlopen(url, timeout=CALL_BOUND) as page:
        shown = page.status
    token = urllib.parse.parse_qs(urllib.parse.urlparse(url).query)["token"][0]
    form = urllib.parse.urlencode({"token": token, "template": "# {title}\n\n{content}", "action": "save"})
    try:
        with urllib.request.urlopen(url.split("?")[0], data=form.encode(), timeout=CALL_BOUND) as saved:
            status = saved.status
    except urllib.error.HTTPError as err:
        status = err.code
    return f"{shown}/{status}"


def page_statuses(url: str) -> str:
    """A reload of the setup page and a Save: the two statuses, refusals
    included."""
    statuses = []
    token = urllib.parse.parse_qs(urllib.parse.urlparse(url).query)["token"][0]
    form = urllib.parse.urlencode({"token": token, "template": "# {title}", "action": "save"}).encode()
    for request in (url, urllib.request.Request(url.split("?")[0], data=form)):
        try:
            with urllib.request.urlopen(request, timeout=CALL_BOUND) as page:
                statuses.append(page.status)
        except urllib.error.HTTPError as err:
            statuses.append(err.code)
    return "/".join(map(str, statuses))


def post(addr: str, body: dict, session: str | None = None) -> tuple[int, str | None]:
    """A JSON-RPC POST straight to one instance: its status and session id."""
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    if session:
        headers["Mcp-Session-Id"] = session
        headers["Mcp-Protocol-Version"] = "2025-11-25"
    request = urllib.request.Request(f"http://{addr}/mcp", data=json.dumps(body).encode(), headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=CALL_BOUND) as answer:
            return answer.status, answer.headers.get("Mcp-Session-Id")
    except urllib.error.HTTPError as err:
        return err.code, None


def snapshot(notes: Path) -> list[str]:
    return sorted(str(p.relative_to(notes)) for p in notes.rglob("*.md"))


class User:
    """The client's callbacks: its roots, and a user who picks the note
    whose label names `pick` and confirms."""

    def __init__(self, notes: Path, pick: str) -> None:
        self.roots = [f"file://{notes}"]
        self.pick = pick
        self.between: list = []  # called once each, between rounds

    async def list_roots(self, _context: ClientRequestContext) -> types.ListRootsResult:
        return types.ListRootsResult(roots=[types.Root(uri=u) for u in self.roots])

    async def elicit(self, _context: ClientRequestContext, params: types.ElicitRequestParams):
        if self.between:
            self.between.pop(0)()
        if isinstance(params, types.ElicitRequestURLParams):
            return await self.on_url(params)
        props = params.requested_schema.get("properties", {})
        if "choice" in props:
            return types.ElicitResult(action="accept", content={"choice": choice_of(props["choice"], self.pick)})
        return types.ElicitResult(action="accept", content={"confirm": True})

    async def on_url(self, params: types.ElicitRequestURLParams):
        return types.ElicitResult(action="decline")


def choice_of(schema: dict, pick: str) -> str:
    for option in schema.get("oneOf", []):
        if pick in option.get("title", ""):
            return option["const"]
    titles = schema.get("enumNames") or []
    for i, title in enumerate(titles):
        if pick in title:
            return schema["enum"][i]
    raise RuntimeError(f"no option names {pick}: {schema}")


async def archive(url: str, user: User, title: str = "Plan") -> tuple[types.CallToolResult | None, str]:
    try:
        async with Client(url, list_roots_callback=user.list_roots, elicitation_callback=user.elicit) as client:
            async with asyncio.timeout(CALL_BOUND):
                return await client.call_tool("notes_archive", {"title": title}), ""
    except Exception as err:  # a protocol error is a failed check, not a crash
        return None, f"{type(err).__name__}: {err}"


def roots_response(notes: Path) -> types.ListRootsResult:
    return types.ListRootsResult(roots=[types.Root(uri=f"file://{notes}")])


async def manual_rounds(client: Client, notes: Path, pick: str):
    """The rounds of notes_archive driven by hand, up to the confirmation:
    (the state answered with the pick, the inputs of that round, the
    confirmation round's result)."""
    session = client.session
    args = {"title": "Plan"}
    first = await session.call_tool("notes_archive", args, allow_input_required=True)
    assert isinstance(first, types.InputRequiredResult), first
    roots = {"roots": roots_response(notes)}
    second = await session.call_tool("notes_archive", args, input_responses=roots, allow_input_required=True)
    assert isinstance(second, types.InputRequiredResult), second
    props = second.input_requests["q0"].params.requested_schema["properties"]
    inputs = dict(roots, q0=types.ElicitResult(action="accept", content={"choice": choice_of(props["choice"], pick)}))
    third = await session.call_tool(
        "notes_archive", args, input_responses=inputs, request_state=second.request_state, allow_input_required=True
    )
    return second.request_state, inputs, third


async def confirm(client: Client, notes: Path, state: str):
    inputs = {"roots": roots_response(notes), "q1": types.ElicitResult(action="accept", content={"confirm": True})}
    return await client.session.call_tool(
        "notes_archive", {"title": "Plan"}, input_responses=inputs, request_state=state, allow_input_required=True
    )


def distinct_neighbours(calls: list[int]) -> bool:
    return len(calls) >= 2 and all(a != b for a, b in zip(calls, calls[1:]))


async def checks(binary: str, base: Path) -> None:
    notes = tree(base)
    redis = Redis(base)
    key_a, key_b = secrets.token_hex(32), secrets.token_hex(32)
    keys = key_file(base, "a", key_a, [])
    # The setup page every instance serves, behind a proxy of its own.
    page_ports = [free_port() for _ in range(3)]
    instances: list[Instance] = []
    pages = Proxy([PageBackend(instances, i, port) for i, port in enumerate(page_ports)])
    page_url = (await pages.start()).removesuffix("/mcp") + "/setup"

    def page_args(i: int) -> list[str]:
        return ["--setup-listen", f"127.0.0.1:{page_ports[i]}", "--setup-url", page_url]

    instances += [Instance(binary, base / "ceiling", redis, keys, page_args(i)) for i in range(3)]
    extra: list[Instance] = []
    refused = subprocess.run(
        [binary, "--http", "127.0.0.1:0", "--state", f"redis://127.0.0.1:{free_port()}", "--state-key-file", str(keys)],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=LISTEN_BOUND,
    )
    said = refused.stderr.strip().splitlines()[-1:] or [""]
    report(refused.returncode != 0 and "cannot reach Redis" in said[0], LABEL, f"Redis unreachable at start: exit {refused.returncode}, {said[0]!r}")
    proxy = Proxy(instances)
    url = await proxy.start()
    print(f"instances at {[i.addr for i in instances]}, proxy {url}, redis {redis.url}", flush=True)
    try:
        # 1. Every round on another instance.
        proxy.calls.clear()
        result, error = await archive(url, User(notes, "b.md"))
        moved = snapshot(notes)
        ok = result is not None and not result.is_error and moved == ["a.md", "archive/b.md", "c.md"]
        report(ok, LABEL, f"notes_archive over {proxy.calls} (instances per round) -> {moved}", error or (text_of(result) if result and result.is_error else ""))
        report(distinct_neighbours(proxy.calls), LABEL, "no two consecutive rounds on one instance", str(proxy.calls))

        # 2. A consumed state replayed to every other instance.
        manual = User(notes, "c.md")
        async with Client(url, list_roots_callback=manual.list_roots, elicitation_callback=manual.elicit) as client:
            proxy.plan = [0, 0, 0]
            state, inputs, third = await manual_rounds(client, notes, "c.md")
            report(isinstance(third, types.InputRequiredResult), LABEL, "the state of the pick was consumed on instance 0")
            for other in (1, 2):
                proxy.plan = [other]
                again = await client.session.call_tool(
                    "notes_archive", {"title": "Plan"}, input_responses=inputs, request_state=state, allow_input_required=True
                )
                ok = isinstance(again, types.CallToolResult) and again.is_error and reason_of(again) == "invalid_request_state"
                report(ok, LABEL, f"replayed to instance {other} -> {reason_of(again) if isinstance(again, types.CallToolResult) else again}")
            report(snapshot(notes) == moved, LABEL, "the replays changed nothing", str(snapshot(notes)))
            proxy.plan = [1]
            done = await confirm(client, notes, third.request_state)
            moved = snapshot(notes)
            ok = isinstance(done, types.CallToolResult) and not done.is_error and "archive/c.md" in moved
            report(ok, LABEL, f"the confirmation on instance 1 archives c.md -> {moved}")

        # 3. An instance killed between rounds.
        (notes / "d.md").write_text("# Plan\nfourth plan\n")
        (notes / "e.md").write_text("# Plan\nfifth plan\n")
        user = User(notes, "d.md")
        victim = instances[0]
        user.between = [lambda: None, victim.kill]  # after the pick, before the confirmation
        proxy.calls.clear()
        result, error = await archive(url, user)
        moved = snapshot(notes)
        ok = result is not None and not result.is_error and "archive/d.md" in moved and "e.md" in moved
        report(ok, LABEL, f"instance 0 killed between rounds {proxy.calls}: the retry elsewhere completes -> {moved}", error)
        instances[0] = Instance(binary, base / "ceiling", redis, keys, page_args(0))

        # 4. Redis stopped: refused with the reason, nothing changed; back: completes.
        before = snapshot(notes)
        redis.stop()
        result, error = await archive(url, User(notes, "e.md"))
        ok = result is not None and result.is_error and reason_of(result) == "state_store_unavailable"
        report(ok, LABEL, f"Redis stopped -> {reason_of(result) if result else error}", text_of(result) if result else "")
        report(snapshot(notes) == before, LABEL, "nothing changed while Redis was away")
        redis.start()
        # Back: the first call completes (each instance's first consuming
        # round after the restart reconnects and retries once).
        result, error = await archive(url, User(notes, "e.md"))
        ok = result is not None and not result.is_error and "archive/e.md" in snapshot(notes)
        report(ok, LABEL, "Redis back: the first call completes", error or (text_of(result) if result else ""))

        # 5. The setup flow: the instance that asked is killed; the page
        #    (every instance serves it) is shown by one instance and
        #    submitted, late, to another; the waiting rounds on the others
        #    see its end.
        setup = User(notes, "")
        submitted: list[str] = []
        asker: list[int] = []

        async def on_url(params: types.ElicitRequestURLParams):
            asker.append(proxy.calls[-1])
            instances[asker[0]].kill()

            async def submit() -> None:
                await asyncio.sleep(1.5)  # longer than one round's wait (--url-wait 1)
                submitted.append(await asyncio.to_thread(submit_page, params.url))

            asyncio.get_running_loop().create_task(submit())
            return types.ElicitResult(action="accept")

        setup.on_url = on_url
        proxy.calls.clear()
        try:
            async with Client(url, list_roots_callback=setup.list_roots, elicitation_callback=setup.elicit) as client:
                async with asyncio.timeout(CALL_BOUND):
                    result, error = await client.call_tool("notes_setup", {}), ""
        except Exception as err:
            result, error = None, f"{type(err).__name__}: {err}"
        configured = result is not None and (result.structured_content or {}).get("outcome") == "configured"
        outcome = (result.structured_content or {}).get("outcome") if result else error
        report(configured and submitted == ["200/200"], LABEL, f"setup over {proxy.calls}, asked on {asker} (then killed), page shown, saved by instances {pages.served}: {submitted}, outcome {outcome}")
        report(len(set(proxy.calls)) >= 2 and len(proxy.calls) >= 3, LABEL, "the setup's rounds waited on more than one instance", str(proxy.calls))
        shown_saved = pages.served[-2:]
        report(len(shown_saved) == 2 and shown_saved[0] != shown_saved[1] and asker and asker[0] not in shown_saved,
               LABEL, f"the page was shown by instance {shown_saved[:1]}, saved by {shown_saved[1:]}, neither the one that asked")
        if asker:
            instances[asker[0]] = Instance(binary, base / "ceiling", redis, keys, page_args(asker[0]))

        # 5b. A page of one instance's own (no --setup-listen): the flow ends
        #     on another instance (the user declines or cancels there), and
        #     the page answers 410 to a reload and to a Save.
        own = Instance(binary, base / "ceiling", redis, keys)
        proxy.backends = instances + [own]
        for action in ("decline", "cancel"):
            pages_seen: list[str] = []
            user = User(notes, "")

            async def on_url(params: types.ElicitRequestURLParams, action: str = action):
                pages_seen.append(params.url)
                return types.ElicitResult(action=action)

            user.on_url = on_url
            proxy.plan = [3, 1]  # asked on the page's instance, ended on instance 1
            proxy.calls.clear()
            try:
                async with Client(url, list_roots_callback=user.list_roots, elicitation_callback=user.elicit) as client:
                    async with asyncio.timeout(CALL_BOUND):
                        result, error = await client.call_tool("notes_setup", {}), ""
            except Exception as err:
                result, error = None, f"{type(err).__name__}: {err}"
            outcome = (result.structured_content or {}).get("outcome") if result else error
            statuses = await asyncio.to_thread(page_statuses, pages_seen[0]) if pages_seen else "no page"
            report(statuses == "410/410" and outcome in ("declined", "cancelled"), LABEL,
                   f"{action} on instance {proxy.calls[1:]} of a page served by instance {proxy.calls[:1]}: page {statuses}, outcome {outcome}")
        proxy.backends = instances
        proxy.plan.clear()
        own.process.send_signal(signal.SIGTERM)
        own.process.wait(timeout=10)

        # 6. A 2025 session lives in the instance that holds it.
        hello = {
            "jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
        }
        status, session = await asyncio.to_thread(post, instances[1].addr, hello)
        ping = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
        held, _ = await asyncio.to_thread(post, instances[1].addr, ping, session)
        elsewhere, _ = await asyncio.to_thread(post, instances[2].addr, ping, session)
        ok = status == 200 and session is not None and held in (200, 202) and elsewhere == 404
        report(ok, LABEL, f"a 2025 session: its instance answers {held}, another instance {elsewhere}")

        # 7. A rolling key rotation: instances at successive steps.
        steps = [
            key_file(base, "step1", key_a, [key_b]),
            key_file(base, "step2", key_b, [key_a]),
            key_file(base, "step3", key_b, []),
        ]
        extra = [Instance(binary, base / "ceiling", redis, k) for k in steps]
        proxy.backends = instances + extra  # 0-2: seal A; 3: step 1; 4: step 2; 5: step 3
        (notes / "f.md").write_text("# Plan\nsixth plan\n")
        manual = User(notes, "f.md")
        async with Client(url, list_roots_callback=manual.list_roots, elicitation_callback=manual.elicit) as client:
            proxy.plan = [0, 3, 4]
            state, inputs, third = await manual_rounds(client, notes, "f.md")
            proxy.plan = [5]
            done = await confirm(client, notes, third.request_state)
            ok = isinstance(done, types.CallToolResult) and not done.is_error and "archive/f.md" in snapshot(notes)
            report(ok, LABEL, "rounds on seal A, step 1, step 2, step 3 (key rotated between rounds) -> completed",
                   text_of(done) if isinstance(done, types.CallToolResult) else str(done))
            (notes / "g.md").write_text("# Plan\nseventh plan\n")
            before = snapshot(notes)
            proxy.plan = [0, 0]
            first = await client.session.call_tool("notes_archive", {"title": "Plan"}, allow_input_required=True)
            second = await client.session.call_tool(
                "notes_archive", {"title": "Plan"}, input_responses={"roots": roots_response(notes)}, allow_input_required=True
            )
            props = second.input_requests["q0"].params.requested_schema["properties"]
            pick = {"roots": roots_response(notes), "q0": types.ElicitResult(action="accept", content={"choice": choice_of(props["choice"], "g.md")})}
            proxy.plan = [5]
            retired = await client.session.call_tool(
                "notes_archive", {"title": "Plan"}, input_responses=pick, request_state=second.request_state, allow_input_required=True
            )
            ok = isinstance(retired, types.CallToolResult) and retired.is_error and reason_of(retired) == "invalid_request_state"
            report(ok, LABEL, f"a state sealed with the retired key A -> {reason_of(retired) if isinstance(retired, types.CallToolResult) else retired}")
            report(snapshot(notes) == before, LABEL, "the refused state changed nothing")
    finally:
        for instance in instances + extra:
            if instance.alive():
                instance.process.send_signal(signal.SIGTERM)
                try:
                    instance.process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    instance.kill()
        await proxy.close()
        await pages.close()
        redis.stop()


async def main() -> int:
    default = Path(__file__).resolve().parents[4] / "target" / "debug" / "notes-server"
    binary = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("NOTES_SERVER", str(default))
    if shutil.which("redis-server") is None:
        print("skipped: no redis-server binary (apt-get install redis-server)")
        return 0
    if not os.access(binary, os.X_OK):
        print(f"FAIL no executable at {binary} (build it: cargo build -p notes-server)")
        return 1
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as dir:
        await checks(binary, Path(dir).resolve())
    failures = shared.failures
    print(f"{'FAILED' if failures else 'passed'}: {failures} failure(s) in {time.monotonic() - started:.1f} s", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
