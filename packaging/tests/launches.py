"""The launch commands of the READMEs' first screens, as GUI clients and
shells would spawn them against the test's registries.

    python launches.py OUT.json --npx NPX --uvx UVX --binary BIN \
        --registry URL --wheels DIR --homes DIR README.md...

Finds every configuration line in the READMEs: the JSON entries
`"command": C, "args": [...]` (Claude Desktop, VS Code, Cursor), the
`claude mcp add NAME -- C ARGS...` lines (Claude Code) and the shell lines
`npx -y mcp-roots-fs DIR`, `uvx mcp-roots-fs DIR`. Each becomes one launch
for drive.py: the directory replaced by `{DIR}`, and an environment as a
GUI client gives, nothing inherited: PATH=/usr/bin:/bin, plus the folder of
the command when the README names it bare (a user whose client finds it);
an absolute command in the README (`/opt/homebrew/bin/npx`, …) becomes this
machine's absolute path of that command, with the bare minimal PATH. HOME
is a fresh folder whose npm and uv settings point at the test's loopback
registry and wheel folder (a user's ~/.npmrc and ~/.config/uv/uv.toml), so
each launch installs from scratch, offline.

Fails if a README has no line for npx, for uvx, or none at all.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import sys
from pathlib import Path

GUI_PATH = "/usr/bin:/bin"
# The directory as the READMEs spell it.
DIRS = ("/Users/me/Documents", "/Users/me/Projects", "~/Documents", "~/Projects", "${workspaceFolder}")
JSON_ENTRY = re.compile(r'"command":\s*"([^"]+)",\s*"args":\s*(\[[^\]]*\])')
CLAUDE_CODE = re.compile(r"claude mcp add \S+ -- ([^`\n]+)")
SHELL = re.compile(r"^((?:npx -y|uvx) mcp-roots-fs \S+)", re.M)


def found(readme: Path) -> list[tuple[str, list[str], str]]:
    text = readme.read_text()
    out = []
    for m in JSON_ENTRY.finditer(text):
        out.append((m.group(1), json.loads(m.group(2)), "json"))
    for m in CLAUDE_CODE.finditer(text):
        words = shlex.split(m.group(1).strip())
        out.append((words[0], words[1:], "claude mcp add"))
    for m in SHELL.finditer(text):
        words = shlex.split(m.group(1))
        out.append((words[0], words[1:], "shell"))
    return out


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("readmes", nargs="+")
    for name in ("--npx", "--uvx", "--binary", "--registry", "--wheels", "--homes"):
        p.add_argument(name, required=True)
    p.add_argument("--pip-binary", help="the binary pip installed into a fresh venv (launched by its absolute path)")
    p.add_argument("--pipx", help="pipx, for `pipx run mcp-roots-fs` offline (pip from ensurepip's bundle)")
    a = p.parse_args()
    tools = {"npx": a.npx, "uvx": a.uvx, "mcp-roots-fs": a.binary}
    homes = Path(a.homes)
    launches, seen = [], {}
    for readme in map(Path, a.readmes):
        lines = found(readme)
        kinds = {Path(c).name for c, _, _ in lines}
        if not {"npx", "uvx"} <= kinds:
            print(f"{readme}: no configuration line for {sorted({'npx', 'uvx'} - kinds)}", file=sys.stderr)
            return 1
        for command, args, form in lines:
            tool = Path(command).name
            if tool not in tools:
                print(f"{readme}: a command this test cannot run: {command}", file=sys.stderr)
                return 1
            real = str(Path(tools[tool]).absolute())
            if command.startswith("/"):
                spawned, path = real, GUI_PATH
            else:
                spawned, path = command, f"{GUI_PATH}:{Path(real).parent}"
            dirs = [i for i, x in enumerate(args) if x in DIRS]
            if len(dirs) != 1:
                print(f"{readme}: no directory (one of {DIRS}) in {command} {args}", file=sys.stderr)
                return 1
            args = [("{DIR}" if x in DIRS else x) for x in args]
            # The same command line in several places is run once (its
            # label names them all).
            key = (command, tuple(args))
            if key in seen:
                seen[key]["label"] += f" = {readme.parent.name or 'root'}/{readme.name} {form}"
                continue
            home = homes / f"home{len(launches) + 1:02d}"
            (home / ".config" / "uv").mkdir(parents=True, exist_ok=True)
            (home / ".npmrc").write_text(f"registry={a.registry}\n")
            (home / ".config" / "uv" / "uv.toml").write_text(
                f'no-index = true\nfind-links = ["{Path(a.wheels).absolute()}"]\npython-downloads = "never"\n'
            )
            launches.append({
                "label": f"{readme.parent.name or 'root'}/{readme.name} {form}: {command} {' '.join(args)}",
                "command": spawned,
                "args": args,
                "env": {"PATH": path, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")},
            })
            seen[key] = launches[-1]
    # Beyond the READMEs: uvx with the wheel folder on its command line, and
    # the script pip installed, by its absolute path.
    home = homes / "home-extra"
    home.mkdir(parents=True, exist_ok=True)
    uvx = str(Path(a.uvx).absolute())
    launches.append({
        "label": f"uvx --no-index --find-links DIST mcp-roots-fs (absolute uvx, PATH={GUI_PATH})",
        "command": uvx,
        "args": ["--no-index", "--find-links", str(Path(a.wheels).absolute()), "mcp-roots-fs", "{DIR}"],
        "env": {"PATH": GUI_PATH, "HOME": str(home), "UV_PYTHON_DOWNLOADS": "never"},
    })
    if a.pip_binary:
        launches.append({
            "label": f"pip install into a fresh venv: {a.pip_binary} (PATH={GUI_PATH})",
            "command": a.pip_binary,
            "args": ["{DIR}"],
            "env": {"PATH": GUI_PATH, "HOME": str(home)},
        })
    if a.pipx:
        import ensurepip

        bundled = Path(ensurepip.__file__).parent / "_bundled"
        launches.append({
            "label": f"pipx run mcp-roots-fs (absolute pipx, PATH={GUI_PATH}, offline: the wheel folder and ensurepip's pip)",
            "command": str(Path(a.pipx).absolute()),
            "args": ["run", "mcp-roots-fs", "{DIR}"],
            "env": {"PATH": GUI_PATH, "HOME": str(home), "PIPX_HOME": str(home / "pipx"), "PIPX_BIN_DIR": str(home / "bin"),
                    "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": f"{bundled} {Path(a.wheels).absolute()}"},
        })
    Path(a.out).write_text(json.dumps(launches, indent=1))
    print(f"{len(launches)} launch lines from {len(a.readmes)} READMEs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
