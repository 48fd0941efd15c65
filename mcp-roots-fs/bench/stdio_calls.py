"""N sequential `read_text_file` calls of a 2 KiB file over stdio pipes, as
a client that waits for each answer, with nothing else: for counting or
timing the server's own cost per call (the stdio transport's included).
Not part of CI (docs/PERFORMANCE.md has the numbers).

    python3 stdio_calls.py N COMMAND [ARG ...]

COMMAND is the server, given the temporary directory as its last
argument, for example `target/release/mcp-roots-fs` or
`valgrind --tool=callgrind --callgrind-out-file=cg.N target/release/mcp-roots-fs`
(instructions per call: the difference of two such counts over the
difference of their N). The log is at `warn`.
"""

import json
import os
import subprocess
import sys
import tempfile


def main() -> None:
    calls = int(sys.argv[1])
    command = sys.argv[2:]
    with tempfile.TemporaryDirectory() as root:
        path = os.path.join(root, "f.txt")
        with open(path, "w") as f:
            f.write("x" * 2048)
        server = subprocess.Popen(
            command + [root],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=dict(os.environ, RUST_LOG="warn"),
        )

        def send(message: dict) -> dict | None:
            server.stdin.write((json.dumps(message) + "\n").encode())
            server.stdin.flush()
            if "id" not in message:
                return None
            answer = json.loads(server.stdout.readline())
            assert answer.get("id") == message["id"], answer
            return answer

        send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "stdio-calls", "version": "0"}}})
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        for n in range(1, calls + 1):
            answer = send({"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {
                "name": "read_text_file", "arguments": {"path": path}}})
            assert not answer["result"].get("isError"), answer
        server.stdin.close()
        server.wait()


if __name__ == "__main__":
    main()
