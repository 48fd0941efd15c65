"""The README's ways of starting mcp-roots-fs, each driven by the official
Python SDK's client and compared with the bare binary.

    python drive.py LAUNCHES.json REFERENCE_BINARY

LAUNCHES.json is a list of {"label", "command", "args", "env"} objects: a
command exactly as a GUI client spawns it (its own `env`, which replaces
the inherited environment: a GUI-like minimal PATH, a fresh HOME), with the
directory argument already filled in. Each launch gets a fresh copy of one
fixture tree, at a path of the same length, and the same scripted calls:
initialize (its answer as the client keeps it), tools/list, list_allowed_directories, list_directory,
read_text_file, write_file then read_text_file of what it wrote, and two
refusals (a file outside the directory, a `..` out of it). The answers,
with the tree's path replaced by a marker, must equal the reference
binary's, and the tree written must equal the reference's.

A launch with "only": "list" stops after tools/list (a binary under an
emulator, whose paths are spelled differently).

Prints one line per launch and exits non-zero if any differs or fails.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

# A launch through npx or uvx from a cold cache unpacks packages first.
BOUND = 120.0
MARK = "<DIR>"


def fixture(root: Path) -> None:
    (root / "sub").mkdir(parents=True)
    (root / "a.txt").write_text("alpha\nbeta\ngamma\n")
    (root / "notes.md").write_text("# Notes\n\nfirst\n")
    (root / "sub" / "deep.txt").write_text("deep\n")
    (root.parent / "secret.txt").write_text("outside\n")


def tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): p.read_text() if p.is_file() else "/" for p in sorted(root.rglob("*"))}


def dump(value: Any) -> Any:
    return value.model_dump(by_alias=True, exclude_none=True, mode="json")


def normalise(value: Any, base: str) -> Any:
    return json.loads(json.dumps(value).replace(json.dumps(base)[1:-1], MARK))


async def session(params: StdioServerParameters, root: Path, only_list: bool, errlog: Any) -> dict[str, Any]:
    answers: dict[str, Any] = {}
    with anyio.fail_after(BOUND):
        async with Client(stdio_client(params, errlog=errlog), mode="legacy") as client:
            # The initialize answer, as the client keeps it.
            answers["initialize"] = {
                "protocolVersion": client.protocol_version,
                "serverInfo": dump(client.server_info) if client.server_info is not None else None,
                "capabilities": dump(client.server_capabilities),
                "instructions": client.instructions,
            }
            answers["tools/list"] = [dump(t) for t in (await client.list_tools()).tools]
            if only_list:
                return answers
            calls = [
                ("list_allowed_directories", {}),
                ("list_directory", {"path": str(root)}),
                ("read_text_file", {"path": str(root / "a.txt"), "head": 2}),
                ("write_file", {"path": str(root / "sub" / "new.txt"), "content": "written\n"}),
                ("read_text_file", {"path": str(root / "sub" / "new.txt")}),
                ("read_text_file", {"path": str(root.parent / "secret.txt")}),
                ("read_text_file", {"path": str(root) + "/../secret.txt"}),
            ]
            for i, (tool, args) in enumerate(calls):
                answers[f"{i} {tool}"] = dump(await client.call_tool(tool, args))
    answers["tree"] = tree(root)
    return answers


async def run(launch: dict[str, Any], reference: str, base: Path, n: int) -> dict[str, Any]:
    # The same path length for every launch: `base/NN/root`.
    root = base / f"{n:02d}" / "root"
    fixture(root)
    args = [a.replace("{DIR}", str(root)) for a in launch["args"]]
    command = reference if launch["command"] == "{REFERENCE}" else launch["command"]
    env = launch.get("env")
    params = StdioServerParameters(command=command, args=args, env=env)
    # The server's (and the launcher's) stderr: shown when the launch fails.
    with open(root.parent / "stderr.log", "w") as errlog:
        try:
            answers = await session(params, root, launch.get("only") == "list", errlog)
        except BaseException:
            errlog.close()
            sys.stdout.write((root.parent / "stderr.log").read_text()[-3000:])
            raise
    return normalise(answers, str(root.parent))


def differences(a: Any, b: Any, where: str = "") -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            out += differences(a.get(k), b.get(k), f"{where}/{k}")
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            out += differences(x, y, f"{where}[{i}]")
        return out
    return [] if a == b else [f"{where}: {json.dumps(a)[:200]} != {json.dumps(b)[:200]}"]


async def main() -> int:
    launches = json.loads(Path(sys.argv[1]).read_text())
    reference = sys.argv[2]
    failures = 0
    base = Path(tempfile.mkdtemp(prefix="drive-")).resolve()
    try:
        expected = await run({"label": "bare binary", "command": "{REFERENCE}", "args": ["{DIR}"]}, reference, base, 0)
        # The answers must say something: a refusal for both files outside,
        # the written file read back.
        calls = {k: v for k, v in expected.items() if k[0].isdigit()}
        refused = [k for k, v in calls.items() if v.get("isError")]
        sane = (
            (expected["initialize"]["serverInfo"] or {}).get("name") == "mcp-roots-fs"
            and len(expected["tools/list"]) == 16
            and refused == ["5 read_text_file", "6 read_text_file"]
            and "written" in json.dumps(calls["4 read_text_file"])
            and expected["tree"].get("sub/new.txt") == "written\n"
        )
        print(f"{'ok  ' if sane else 'FAIL'} reference: the bare binary, {expected['initialize']['serverInfo']}, "
              f"{len(expected['tools/list'])} tools, refusals {refused}")
        failures += not sane
        for n, launch in enumerate(launches, start=1):
            try:
                got = await run(launch, reference, base, n)
            except Exception as err:  # noqa: BLE001 - reported as this launch's failure
                msg = f"{type(err).__name__}: {err}"
                if hasattr(err, "exceptions"):
                    msg += " " + "; ".join(f"{type(e).__name__}: {e}" for e in err.exceptions)
                print(f"FAIL {launch['label']}: {msg}")
                failures += 1
                continue
            want = expected if launch.get("only") != "list" else {k: expected[k] for k in got}
            diff = differences(want, got)
            print(f"{'ok  ' if not diff else 'FAIL'} {launch['label']}: {len([k for k in got if k != 'tree'])} answers {'the same' if not diff else 'differ'}")
            for line in diff[:8]:
                print(f"       {line}")
            failures += bool(diff)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print(f"{len(launches) + 1 - failures} of {len(launches) + 1} launches answered as the bare binary")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(anyio.run(main))
