"""Connect-to-first-answer of several server commands, measured in one run,
alternating: spawn, `initialize`, `notifications/initialized`, `tools/list`,
and the clock stops at the tools/list answer (the server is then closed).

    python start_time.py COMMANDS.json [ROUNDS]

COMMANDS.json is a list of {"label", "command", "args", "env", "kind"}; kind
"server" is timed to the tools/list answer, kind "exit" (e.g. `node -e 0`)
to its exit. Every round runs each command once, in an order rotated by
one each round; one warm-up round first is not counted. Prints the median
and the 10th and 90th percentiles (ms) per command, as a Markdown table.
"""

from __future__ import annotations

import json
import os
import select
import statistics
import subprocess
import sys
import time

BOUND = 60.0


def rpc(method: str, id_: int | None, params: dict | None = None) -> bytes:
    msg: dict = {"jsonrpc": "2.0", "method": method}
    if id_ is not None:
        msg["id"] = id_
    if params is not None:
        msg["params"] = params
    return (json.dumps(msg) + "\n").encode()


def answer(proc: subprocess.Popen, id_: int, buf: bytearray, deadline: float) -> dict:
    fd = proc.stdout.fileno()
    while True:
        while b"\n" in buf:
            line, _, rest = bytes(buf).partition(b"\n")
            buf[:] = rest
            if line.strip():
                msg = json.loads(line)
                if msg.get("id") == id_:
                    if "error" in msg:
                        raise RuntimeError(f"error answer: {msg['error']}")
                    return msg
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("no answer in time")
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            chunk = os.read(fd, 65536)
            if not chunk:
                raise EOFError("the server closed its output")
            buf += chunk


def time_server(c: dict) -> float:
    start = time.perf_counter()
    proc = subprocess.Popen([c["command"], *c["args"]], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=c.get("env"))
    try:
        deadline = time.monotonic() + BOUND
        buf = bytearray()
        proc.stdin.write(rpc("initialize", 1, {"protocolVersion": "2025-11-25", "capabilities": {},
                                               "clientInfo": {"name": "start-time", "version": "1"}}))
        proc.stdin.flush()
        answer(proc, 1, buf, deadline)
        proc.stdin.write(rpc("notifications/initialized", None) + rpc("tools/list", 2, {}))
        proc.stdin.flush()
        tools = answer(proc, 2, buf, deadline)["result"]["tools"]
        elapsed = time.perf_counter() - start
        if len(tools) != 14:
            raise RuntimeError(f"{c['label']}: {len(tools)} tools")
        return elapsed
    finally:
        proc.stdin.close()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def time_exit(c: dict) -> float:
    start = time.perf_counter()
    subprocess.run([c["command"], *c["args"]], check=True, env=c.get("env"))
    return time.perf_counter() - start


def main() -> int:
    commands = json.load(open(sys.argv[1]))
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    times: dict[str, list[float]] = {c["label"]: [] for c in commands}
    for r in range(rounds + 1):
        order = commands[r % len(commands):] + commands[:r % len(commands)]
        for c in order:
            t = (time_exit if c.get("kind") == "exit" else time_server)(c)
            if r > 0:
                times[c["label"]].append(t * 1000)
    print(f"{rounds} rounds, alternating (one warm-up round not counted); ms from spawn to the tools/list answer "
          "(to exit for the bare interpreters)\n")
    print("| command | median | p10 | p90 |")
    print("|---|---:|---:|---:|")
    for c in commands:
        t = sorted(times[c["label"]])
        q = statistics.quantiles(t, n=10, method="inclusive")
        print(f"| {c['label']} | {statistics.median(t):.0f} | {q[0]:.0f} | {q[-1]:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
