"""Server CPU per call, mcp-roots-fs against the original, over stdio; and
search_files / directory_tree over a generated tree of 100,000 files
against `find`. Not part of CI (docs/PERFORMANCE.md has the numbers).

    python bench.py ORIGINAL_INDEX_JS MCP_ROOTS_FS [CALLS]
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

TICK = os.sysconf("SC_CLK_TCK")


def cpu_of(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def peak_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def server_pid(name: str) -> int:
    """The newest process whose command line contains `name`."""
    out = subprocess.run(["pgrep", "-n", "-f", name], capture_output=True, text=True).stdout.split()
    return int(out[0])


def tools(base: Path) -> list[tuple[str, dict]]:
    r = lambda rel="": str(base / rel) if rel else str(base)
    return [
        ("read_text_file", {"path": r("a.txt")}),
        ("read_text_file head", {"path": r("a.txt"), "head": 5}),
        ("read_media_file", {"path": r("img.png")}),
        ("read_multiple_files", {"paths": [r("a.txt"), r("b.txt")]}),
        ("write_file", {"path": r("w.txt"), "content": "x" * 1000}),
        ("edit_file dryRun", {"path": r("a.txt"), "edits": [{"oldText": "line 5", "newText": "LINE 5"}], "dryRun": True}),
        ("create_directory", {"path": r("made")}),
        ("list_directory", {"path": r()}),
        ("list_directory_with_sizes", {"path": r()}),
        ("directory_tree", {"path": r("small")}),
        ("move_file", None),
        ("search_files", {"path": r("small"), "pattern": "**/*.md"}),
        ("get_file_info", {"path": r("a.txt")}),
        ("list_allowed_directories", {}),
    ]


def small_tree(base: Path) -> None:
    base.mkdir(parents=True, exist_ok=True)
    (base / "a.txt").write_text("".join(f"line {i}\n" for i in range(200)))
    (base / "b.txt").write_text("b\n" * 50)
    (base / "img.png").write_bytes(b"\x89PNG" + bytes(2000))
    for d in range(5):
        for f in range(10):
            p = base / "small" / f"d{d}" / f"f{f}.{'md' if f % 2 else 'txt'}"
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text("x")


async def per_tool(command: list[str], marker: str, base: Path, calls: int) -> dict[str, tuple[float, float]]:
    out = {}
    async with Client(StdioServerParameters(command=command[0], args=command[1:], env={**os.environ, "RUST_LOG": "warn"}), mode="legacy") as c:
        pid = server_pid(marker)
        for name, args in tools(base):
            tool = name.split()[0]
            walls = []
            # warm
            for i in range(3):
                await c.call_tool(tool, move_args(base, i, "w") if args is None else args)
            before = cpu_of(pid)
            for i in range(calls):
                a = move_args(base, i, "m") if args is None else args
                t = time.perf_counter()
                await c.call_tool(tool, a)
                walls.append(time.perf_counter() - t)
            cpu = (cpu_of(pid) - before) / calls
            out[name] = (cpu * 1e6, statistics.median(walls) * 1e6)
    return out


def move_args(base: Path, i: int, tag: str) -> dict:
    src = base / f"mv-{tag}-{i}"
    src.write_text("m")
    return {"source": str(src), "destination": str(base / f"mv-{tag}-{i}.moved")}


def big_tree(base: Path, files: int) -> None:
    per = 100
    for d in range(files // per):
        dir = base / f"d{d // 100}" / f"e{d % 100}"
        dir.mkdir(parents=True, exist_ok=True)
        for f in range(per):
            (dir / f"f{f}.{'md' if f == 0 else 'txt'}").touch()


async def walk(command: list[str], marker: str, base: Path, tool: str, args: dict) -> tuple[float, float, int, str]:
    async with Client(StdioServerParameters(command=command[0], args=command[1:], env={**os.environ, "RUST_LOG": "warn"}), mode="legacy") as c:
        pid = server_pid(marker)
        before = cpu_of(pid)
        t = time.perf_counter()
        result = await c.call_tool(tool, args, read_timeout_seconds=600)
        wall = time.perf_counter() - t
        cpu = cpu_of(pid) - before
        text = result.content[0].text if result.content else ""
        return wall, cpu, peak_kb(pid), f"{len(text.splitlines())} lines"


async def main() -> None:
    original, ours = sys.argv[1], sys.argv[2]
    calls = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    with tempfile.TemporaryDirectory() as d:
        base = Path(d).resolve() / "root"
        small_tree(base)
        o = await per_tool(["node", original, str(base)], original, base, calls)
        w = await per_tool([ours, str(base)], ours, base, calls)
        print(f"per tool, {calls} warm calls each: server CPU per call (µs) and p50 wall (µs)")
        print(f"{'tool':<28}{'original cpu':>14}{'ours cpu':>10}{'ratio':>8}{'orig p50':>10}{'ours p50':>10}")
        for name in o:
            (oc, ow), (wc, ww) = o[name], w[name]
            print(f"{name:<28}{oc:>14.0f}{wc:>10.0f}{wc / oc if oc else 0:>8.2f}{ow:>10.0f}{ww:>10.0f}")
    with tempfile.TemporaryDirectory() as d:
        base = Path(d).resolve()
        big_tree(base, 100_000)
        t = time.perf_counter()
        subprocess.run(["find", str(base), "-name", "*.md"], capture_output=True, check=True)
        find = time.perf_counter() - t
        print(f"\n100,000 files: find -name '*.md' {find:.3f}s")
        for tool, args in [("search_files", {"path": str(base), "pattern": "**/*.md"}), ("directory_tree", {"path": str(base)})]:
            for label, command, marker in [("original", ["node", original, str(base)], original), ("ours", [ours, str(base)], ours)]:
                wall, cpu, peak, what = await walk(command, marker, base, tool, args)
                print(f"{tool:<16}{label:<10} wall {wall:7.3f}s ({wall / find:6.1f}x find)  server cpu {cpu:6.2f}s  peak {peak / 1024:6.1f} MB  {what}")


if __name__ == "__main__":
    anyio.run(main)
