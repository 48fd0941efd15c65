"""A bounded load run: three notes-server --http instances, one Redis, the
round-robin proxy of multi_check.py, and CLIENTS concurrent clients of the
official MCP Python SDK (default mode, 2026-07-28), each archiving CALLS
notes of its own (every call: the roots round, the confirmation round, the
round that carries the state and archives).

    python load_run.py [PATH/TO/notes-server] [CLIENTS] [CALLS]

Loopback only; bounded in count (CLIENTS x CALLS calls) and in time (each
call at most 30 s). Reports the errors (the goal is 0), p50 and p99 of a
round as the proxy saw it, and the Redis commands per tool call (read from
Redis's own INFO commandstats; the goal is one per round that consumes a
state: one per call here).
"""

from __future__ import annotations

import asyncio
import os
import secrets
import shutil
import socket
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import multi_check as multi  # noqa: E402
from mcp import Client  # noqa: E402


def redis_stats(port: int) -> dict[str, int]:
    """Calls per command, from INFO commandstats."""
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(b"INFO commandstats\r\n")
        data = b""
        while not data.endswith(b"\r\n") or data.count(b"\r\n") < 2:
            data += s.recv(65536)
        size = int(data.split(b"\r\n", 1)[0][1:])
        head = len(data.split(b"\r\n", 1)[0]) + 2
        while len(data) < head + size:
            data += s.recv(65536)
    stats = {}
    for line in data[head : head + size].decode().splitlines():
        if line.startswith("cmdstat_"):
            name, _, fields = line.partition(":")
            calls = dict(f.split("=") for f in fields.split(","))["calls"]
            stats[name.removeprefix("cmdstat_")] = int(calls)
    return stats


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[int((len(ordered) - 1) * q)]


async def main() -> int:
    default = Path(__file__).resolve().parents[4] / "target" / "debug" / "notes-server"
    binary = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("NOTES_SERVER", str(default))
    clients = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    calls = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    if shutil.which("redis-server") is None:
        print("skipped: no redis-server binary (apt-get install redis-server)")
        return 0
    with tempfile.TemporaryDirectory() as dir:
        base = Path(dir).resolve()
        notes = base / "ceiling" / "Notes"
        notes.mkdir(parents=True)
        for c in range(clients):
            for n in range(calls):
                (notes / f"c{c}-n{n}.md").write_text(f"# Load {c} {n}\nnote\n")
        redis = multi.Redis(base)
        keys = multi.key_file(base, "keys", secrets.token_hex(32), [])
        instances = [multi.Instance(binary, base / "ceiling", redis, keys) for _ in range(3)]
        proxy = multi.Proxy(instances)
        url = await proxy.start()
        errors: list[str] = []
        before = redis_stats(redis.port)

        async def client(c: int) -> None:
            user = multi.User(notes, "")
            try:
                async with Client(url, list_roots_callback=user.list_roots, elicitation_callback=user.elicit) as session:
                    for n in range(calls):
                        async with asyncio.timeout(multi.CALL_BOUND):
                            result = await session.call_tool("notes_archive", {"title": f"Load {c} {n}"})
                        if result.is_error or not (notes / "archive" / f"c{c}-n{n}.md").exists():
                            errors.append(f"client {c} call {n}: {multi.text_of(result)}")
            except Exception as err:
                errors.append(f"client {c}: {type(err).__name__}: {err}")

        started = time.monotonic()
        try:
            await asyncio.gather(*(client(c) for c in range(clients)))
            wall = time.monotonic() - started
            after = redis_stats(redis.port)
        finally:
            for instance in instances:
                instance.kill()
            await proxy.close()
            redis.stop()
    total = clients * calls
    rounds = len(proxy.calls)
    used = {k: after.get(k, 0) - before.get(k, 0) for k in after}
    used.pop("info", None)
    per_call = {k: v / total for k, v in sorted(used.items()) if v}
    print(f"{clients} clients x {calls} notes_archive calls = {total} calls, {rounds} tools/call rounds, in {wall:.1f} s")
    print(f"errors: {len(errors)}")
    for error in errors[:5]:
        print(f"  {error}")
    print(
        f"a tools/call round through the proxy: p50 {quantile(proxy.durations, 0.5) * 1000:.1f} ms, "
        f"p99 {quantile(proxy.durations, 0.99) * 1000:.1f} ms over {len(proxy.durations)} rounds"
    )
    print(f"Redis commands per tool call: {per_call}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
