"""Server CPU per call, mcp-roots-fs against the original, over stdio; and
search_files / directory_tree over a generated tree of 100,000 files
against `find`. Not part of CI (docs/PERFORMANCE.md has the numbers).

    python bench.py ORIGINAL_INDEX_JS [ORIGINAL_INDEX_JS ...] MCP_ROOTS_FS [CALLS]

Each original (its `dist/index.js`, labelled by the version in the
package.json beside `dist/`; run by the `node` on PATH: 2.x needs Node 24)
and mcp-roots-fs run at once and are measured in alternating batches, so
that what else the machine does falls on all alike. A tool an original
does not list (2.3.0 added `append_file` and `copy_file`) is measured for
the servers that list it. A server's CPU is the sum
of its threads' time on a CPU (`/proc/PID/task/*/schedstat`, in
nanoseconds), read before and after each batch; the process's
`utime + stime` (10 ms ticks, but counting threads that ended) is printed
beside the total as a check.

The tree figures are the server's: the time from the request written to
the last byte of the answer read by a client that reads the JSON-RPC line
without parsing it ("raw"; and to its first byte, when the server has
built and serialized the answer and starts writing it), and, as a user would see it, the same call
through the official Python SDK ("SDK", whose parsing of a large answer
costs the same for both servers).
"""

from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import AsyncExitStack
from pathlib import Path

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

TICK = os.sysconf("SC_CLK_TCK")
BATCHES = 10
# rmcp's stdio client refuses a line longer than this (the whole answer).
RMCP_LINE_LIMIT = 16 * 1024 * 1024


class Cpu:
    """A process's CPU time, per thread, in nanoseconds."""

    def __init__(self, pid: int):
        self.pid = pid
        self.seen: dict[str, int] = {}
        self.total_ns = 0
        self.ticks_at_start = self.ticks()
        self.sample()

    def sample(self) -> int:
        """Nanoseconds the process's threads ran since the last sample (a
        thread that ended since then loses its last part: see `ticks`)."""
        ran = 0
        first = not self.seen
        for tid in os.listdir(f"/proc/{self.pid}/task"):
            try:
                now = int(Path(f"/proc/{self.pid}/task/{tid}/schedstat").read_text().split()[0])
            except (OSError, ValueError, IndexError):
                continue
            # A thread new since the last sample ran all its time since.
            ran += now - self.seen.get(tid, now if first else 0)
            self.seen[tid] = now
        self.total_ns += ran
        return ran

    def ticks(self) -> float:
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
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


def tools(base: Path) -> list[tuple[str, dict | None]]:
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
        ("append_file", {"path": r("appended.txt"), "content": "x\n"}),
        ("copy_file", None),
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


def fresh_args(tool: str, base: Path, tag: str, i: int) -> dict:
    """Arguments for a call that cannot be repeated as is: a move takes
    a new file each time, a copy a new destination (it never overwrites)."""
    if tool == "copy_file":
        return {"source": str(base / "b.txt"), "destination": str(base / f"cp-{tag}-{i}.txt")}
    src = base / f"mv-{tag}-{i}"
    src.write_text("m")
    return {"source": str(src), "destination": str(base / f"mv-{tag}-{i}.moved")}


def original_label(index_js: str) -> str:
    """The version of the package holding `dist/index.js`."""
    package = Path(index_js).resolve().parent.parent / "package.json"
    try:
        return json.loads(package.read_text())["version"]
    except (OSError, KeyError, ValueError):
        return Path(index_js).name


async def per_tool(servers: dict[str, list[str]], base: Path, calls: int) -> dict[str, dict[str, tuple[float, float]]]:
    """{tool: {server: (CPU µs per call, p50 µs)}}, the servers measured
    in alternating batches of calls / BATCHES."""
    out: dict[str, dict[str, tuple[float, float]]] = {}
    env = {**os.environ, "RUST_LOG": "warn"}
    batch = max(1, calls // BATCHES)
    async with AsyncExitStack() as stack:
        clients = {}
        for label, command in servers.items():
            params = StdioServerParameters(command=command[0], args=command[1:], env=env)
            clients[label] = await stack.enter_async_context(Client(params, mode="legacy"))
        cpus = {label: Cpu(server_pid(servers[label][-2])) for label in clients}
        listed = {label: {t.name for t in (await client.list_tools()).tools} for label, client in clients.items()}
        fresh = {label: 0 for label in clients}

        for name, args in tools(base):
            tool = name.split()[0]

            def args_of(label: str) -> dict:
                if args is not None:
                    return args
                fresh[label] += 1
                return fresh_args(tool, base, label.replace(".", "_"), fresh[label])

            serving = {label: client for label, client in clients.items() if tool in listed[label]}
            spent = {label: 0 for label in serving}
            walls: dict[str, list[float]] = {label: [] for label in serving}
            # Warm: a JIT compiles what runs often; V8 needs a few hundred calls.
            for label, client in serving.items():
                for _ in range(min(calls, 300)):
                    await client.call_tool(tool, args_of(label))
            for _ in range(BATCHES):
                for label, client in serving.items():
                    cpus[label].sample()
                    for _ in range(batch):
                        a = args_of(label)
                        t = time.perf_counter()
                        await client.call_tool(tool, a)
                        walls[label].append(time.perf_counter() - t)
                    spent[label] += cpus[label].sample()
            n = batch * BATCHES
            out[name] = {label: (spent[label] / n / 1e3, statistics.median(walls[label]) * 1e6) for label in serving}
            print(f"  {name}: " + ", ".join(f"{label} {cpu:.0f} µs" for label, (cpu, _) in out[name].items()), file=sys.stderr, flush=True)
        for label, cpu in cpus.items():
            cpu.sample()
            print(
                f"check, {label}: threads' time {cpu.total_ns / 1e9:.2f} s, process utime+stime {cpu.ticks() - cpu.ticks_at_start:.2f} s",
                file=sys.stderr,
            )
    return out


def big_tree(base: Path, files: int) -> None:
    per = 100
    for d in range(files // per):
        dir = base / f"d{d // 100}" / f"e{d % 100}"
        dir.mkdir(parents=True, exist_ok=True)
        for f in range(per):
            (dir / f"f{f}.{'md' if f == 0 else 'txt'}").touch()


class Raw:
    """A JSON-RPC client over stdio that reads an answer's line and does
    not parse it. It reads the pipe a MiB at a time (`os.read`), so that
    its own pace costs little of what is measured: `readline` on a
    buffered pipe takes 50-100 ms for a 19 MB line here, about what the
    server needs to write it."""

    def __init__(self, command: list[str]):
        env = {**os.environ, "RUST_LOG": "warn"}
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, bufsize=0)
        self.fd = self.process.stdout.fileno()
        self.pending = b""
        self.id = 0
        json.loads(self.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}}))
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message: dict) -> None:
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def request(self, method: str, params: dict) -> bytes:
        return self.timed(method, params)[0]

    def read_line(self) -> tuple[bytes, float]:
        """The next line, and when its first byte was read."""
        chunks = [self.pending] if self.pending else []
        at_first = time.perf_counter() if self.pending else None
        while not chunks or b"\n" not in chunks[-1]:
            chunk = os.read(self.fd, 1 << 20)
            if not chunk:
                raise EOFError("the server closed its output")
            if at_first is None:
                at_first = time.perf_counter()
            chunks.append(chunk)
        data = b"".join(chunks)
        end = data.index(b"\n") + 1
        self.pending = data[end:]
        return data[:end], at_first

    def timed(self, method: str, params: dict) -> tuple[bytes, float, float]:
        """The answer's line, and the seconds from the request written to
        the line's first byte and to its last."""
        self.id += 1
        self.send({"jsonrpc": "2.0", "id": self.id, "method": method, "params": params})
        start = time.perf_counter()
        mine = re.compile(rb'"id":%d[,}]' % self.id)
        while True:
            line, at_first = self.read_line()
            # Either server puts the id at one end of its answer's line.
            if mine.search(line[:64]) or mine.search(line[-64:]):
                return line, at_first - start, time.perf_counter() - start

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait()


def raw_walk(command: list[str], tool: str, args: dict, runs: int) -> tuple[float, float, float, int, int]:
    """The best of `runs` calls: wall (s) from the request written to the
    answer's last byte, and to its first byte (the rest is the transfer,
    paced by the reader), the server's CPU (s) over that call, its peak
    RSS (kB), the answer's line (bytes)."""
    raw = Raw(command)
    best = None
    try:
        for _ in range(runs):
            cpu = Cpu(raw.process.pid)
            line, first, wall = raw.timed("tools/call", {"name": tool, "arguments": args})
            cpu.sample()
            if best is None or wall < best[0]:
                best = (wall, first, cpu.total_ns / 1e9, len(line))
        return best[0], best[1], best[2], peak_kb(raw.process.pid), best[3]
    finally:
        raw.close()


async def sdk_walk(command: list[str], tool: str, args: dict) -> tuple[float, int]:
    """One call through the official SDK: wall (s), lines of its text."""
    env = {**os.environ, "RUST_LOG": "warn"}
    async with Client(StdioServerParameters(command=command[0], args=command[1:], env=env), mode="legacy") as c:
        t = time.perf_counter()
        result = await c.call_tool(tool, args, read_timeout_seconds=600)
        wall = time.perf_counter() - t
        text = result.content[0].text if result.content else ""
        return wall, len(text.splitlines())


async def main() -> None:
    args = sys.argv[1:]
    calls = int(args.pop()) if len(args) > 2 and args[-1].isdigit() else 1000
    if len(args) < 2:
        sys.exit(__doc__)
    *originals, ours = args
    labels = [original_label(o) for o in originals]
    with tempfile.TemporaryDirectory() as d:
        base = Path(d).resolve() / "root"
        small_tree(base)
        servers = {label: ["node", o, str(base)] for label, o in zip(labels, originals)}
        servers["ours"] = [ours, str(base)]
        result = await per_tool(servers, base, calls)
    batch = max(1, calls // BATCHES)
    print(f"per tool, {batch * BATCHES} warm calls each ({BATCHES} alternating batches): server CPU per call (µs), p50 wall (µs)")
    head = f"{'tool':<28}{'ours cpu':>10}{'ours p50':>10}"
    for label in labels:
        head += f"{label + ' cpu':>16}{'ratio':>7}{label + ' p50':>16}"
    print(head)
    for name, by in result.items():
        wc, ww = by["ours"]
        row = f"{name:<28}{wc:>10.0f}{ww:>10.0f}"
        for label in labels:
            if label in by:
                oc, ow = by[label]
                row += f"{oc:>16.0f}{wc / oc if oc else 0:>7.2f}{ow:>16.0f}"
            else:
                row += f"{'(not listed)':>16}{'':>7}{'':>16}"
        print(row)
    with tempfile.TemporaryDirectory() as d:
        base = Path(d).resolve()
        big_tree(base, 100_000)
        finds = []
        for _ in range(5):
            t = time.perf_counter()
            subprocess.run(["find", str(base), "-name", "*.md"], capture_output=True, check=True)
            finds.append(time.perf_counter() - t)
        find = min(finds)
        print(f"\n100,000 files: find -name '*.md' {find:.3f} s (best of 5; each server's raw figures best of 5 too)")
        print(f"{'':<27}{'raw wall':>9}{'× find':>8}{'1st byte':>10}{'SDK wall':>10}{'× find':>8}{'server cpu':>12}{'peak RSS':>10}{'answer':>10}  lines")
        for tool, args in [("search_files", {"path": str(base), "pattern": "**/*.md"}), ("directory_tree", {"path": str(base)})]:
            walkers = [(label, ["node", o, str(base)]) for label, o in zip(labels, originals)] + [("ours", [ours, str(base)])]
            for label, command in walkers:
                wall, first, cpu, peak, size = raw_walk(command, tool, args, 5)
                sdk, lines = await sdk_walk(command, tool, args)
                over = " (over rmcp's 16 MiB line limit)" if size > RMCP_LINE_LIMIT else ""
                print(
                    f"{tool + ', ' + label:<27}{wall:>8.3f}s{wall / find:>7.1f}×{first:>9.3f}s{sdk:>9.3f}s{sdk / find:>7.1f}×"
                    f"{cpu:>11.2f}s{peak / 1024:>7.1f} MB{size / 1e6:>7.1f} MB  {lines}{over}"
                )


if __name__ == "__main__":
    anyio.run(main)
