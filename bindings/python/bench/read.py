"""Python: roots.read_text(p) against open(p).read() and against the check
people write today (realpath + prefix + open), on one small file; and the
cost of asyncio.to_thread around the call. One run; prints a table.

    python bindings/python/bench/read.py [iterations]
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time

import mcp_roots

N = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
ROUNDS = 5


def naive_read(allowed: list[str], path: str) -> str:
    """The usual check: resolve symlinks, test the prefix, open by path."""
    real = os.path.realpath(path)
    if not any(real == d or real.startswith(d + os.sep) for d in allowed):
        raise PermissionError(path)
    with open(real, encoding="utf-8") as f:
        return f.read()


def per_call(f, n: int = N) -> float:
    f()
    start = time.perf_counter()
    for _ in range(n):
        f()
    return (time.perf_counter() - start) / n * 1e6


async def per_call_async(f, n: int) -> float:
    await f()
    start = time.perf_counter()
    for _ in range(n):
        await f()
    return (time.perf_counter() - start) / n * 1e6


def main() -> None:
    with tempfile.TemporaryDirectory() as t:
        t = os.path.realpath(t)
        os.makedirs(f"{t}/notes/sub")
        path = f"{t}/notes/sub/todo.md"
        with open(path, "w") as f:
            f.write("x" * 1024)
        roots = mcp_roots.Roots()
        roots.replace([f"file://{t}/notes"])
        fixed = mcp_roots.RootSet([f"file://{t}/notes"])

        def plain() -> str:
            with open(path, encoding="utf-8") as f:
                return f.read()

        sync = {
            "open(p).read()": plain,
            "naive realpath + prefix + open": lambda: naive_read([f"{t}/notes"], path),
            "Roots.read_text(p)": lambda: roots.read_text(path),
            "RootSet.read_text(p)": lambda: fixed.read_text(path),
            "Roots.open(p).read()": lambda: roots.open(path).read(),
        }

        async def direct() -> str:
            return roots.read_text(path)

        awaited = {
            "await asyncio.to_thread(roots.read_text, p)": lambda: asyncio.to_thread(roots.read_text, path),
            "roots.read_text(p) called on the event loop": direct,
        }
        # Rounds interleave the rows, and each row keeps its fastest round:
        # the machine is shared, and a slow moment should not land on one row.
        rows: dict[str, float] = {}
        for _ in range(ROUNDS):
            for name, f in sync.items():
                rows[name] = min(rows.get(name, float("inf")), per_call(f))
            for name, f in awaited.items():
                rows[name] = min(rows.get(name, float("inf")), asyncio.run(per_call_async(f, N // 10)))
        base = rows["open(p).read()"]
        naive = rows["naive realpath + prefix + open"]
        print(f"{'call (1 KiB file)':<46} {'µs/call':>8} {'× open':>7} {'× naive':>8}")
        for name, us in rows.items():
            print(f"{name:<46} {us:8.2f} {us / base:7.2f} {us / naive:8.2f}")


if __name__ == "__main__":
    main()
