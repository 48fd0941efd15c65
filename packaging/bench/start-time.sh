#!/usr/bin/env bash
# Start time (connect to first answer) of mcp-roots-fs as users start it,
# against the official filesystem server, in one run, alternating:
#
#   packaging/bench/start-time.sh [DIST] [ROUNDS]   # DIST from packaging/build.sh
#
# The bare release binary; the npm launcher as npm installed it
# (node_modules/.bin/mcp-roots-fs); `npx -y mcp-roots-fs` (from a loopback
# registry, npx's cache warm); `uvx mcp-roots-fs` (offline from the wheel
# folder, uv's cache warm); the original by `npx -y
# @modelcontextprotocol/server-filesystem@2026.8.31` (from the npm registry,
# npx's cache warm: npx still asks the registry for the package's metadata)
# and by `node dist/index.js`; and `node -e 0`, `python3 -c 0`, the bare
# interpreters' own start. Prints a Markdown table (start_time.py).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
target="${CARGO_TARGET_DIR:-$repo/target}"
mkdir -p "$target"
target=$(cd "$target" && pwd)
dist=$(cd "${1:-$target/dist}" && pwd)
rounds=${2:-20}
host=$(rustc -vV | sed -n 's/^host: //p')
bin="$dist/bin/mcp-roots-fs-$host"
[ -x "$bin" ] || { echo "no $bin: run packaging/build.sh first" >&2; exit 1; }
original_version=2026.8.31
original="$target/node-server-filesystem-$original_version"
if [ ! -f "$original/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js" ]; then
  mkdir -p "$original"
  npm install --silent --no-audit --no-fund --prefix "$original" "@modelcontextprotocol/server-filesystem@$original_version" >&2
fi
tools=$(packaging/tools.sh)

work=$(mktemp -d)
# shellcheck source=packaging/tests/registry.sh
. packaging/tests/registry.sh
trap 'stop_registry; rm -rf "$work"' EXIT
start_registry "$work" >&2
publish_packages "$work" "$dist/npm" >&2

mkdir -p "$work/dir/sub" "$work/home-ours/.config/uv" "$work/home-original" "$work/install"
printf 'a\n' > "$work/dir/a.txt"
printf 'registry=%s\n' "$registry" > "$work/home-ours/.npmrc"
printf 'no-index = true\nfind-links = ["%s"]\npython-downloads = "never"\n' "$dist/wheels" > "$work/home-ours/.config/uv/uv.toml"
(cd "$work/install" && npm install --silent --no-audit --no-fund --registry "$registry" --cache "$work/npm-cache" mcp-roots-fs >&2)
# The original's npx cache keeps the user's npm cache out of the way.
cp "${HOME}/.npmrc" "$work/home-original/.npmrc" 2>/dev/null || true

python3 - "$work/commands.json" <<PY
import json, os, sys
base = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "TERM")}
ours = {**base, "HOME": "$work/home-ours", "XDG_CONFIG_HOME": "$work/home-ours/.config",
        "PATH": "$tools/bin:" + base["PATH"]}
orig = {**base, "HOME": "$work/home-original"}
d = "$work/dir"
json.dump([
    {"label": "bare binary", "command": "$bin", "args": [d], "env": base},
    {"label": "npm launcher (node_modules/.bin/mcp-roots-fs)", "command": "$work/install/node_modules/.bin/mcp-roots-fs", "args": [d], "env": base},
    {"label": "npx -y mcp-roots-fs", "command": "npx", "args": ["-y", "mcp-roots-fs", d], "env": ours},
    {"label": "uvx mcp-roots-fs", "command": "uvx", "args": ["mcp-roots-fs", d], "env": ours},
    {"label": "original: npx -y @modelcontextprotocol/server-filesystem", "command": "npx",
     "args": ["-y", "@modelcontextprotocol/server-filesystem@$original_version", d], "env": orig},
    {"label": "original: node dist/index.js", "command": "node",
     "args": ["$original/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", d], "env": base},
    {"label": "node -e 0", "command": "node", "args": ["-e", "0"], "env": base, "kind": "exit"},
    {"label": "python3 -c 0", "command": "python3", "args": ["-c", "0"], "env": base, "kind": "exit"},
], open(sys.argv[1], "w"), indent=1)
PY
python3 packaging/bench/start_time.py "$work/commands.json" "$rounds"
