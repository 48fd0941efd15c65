#!/usr/bin/env bash
# Installs the built packages as users would, offline, and drives each
# README configuration line with the official Python SDK's client:
#
#   packaging/tests/run.sh [DIST]     # DIST from packaging/build.sh
#
# 1. The npm launcher's own tests (node --test).
# 2. A real npm registry on loopback (verdaccio, pinned, installed once
#    under the target directory; storage in a temporary folder, no uplink):
#    the platform packages and the launcher published to it.
# 3. A fresh venv: `pip install --no-index --find-links DIST/wheels`.
# 4. Every configuration line of README.md and mcp-roots-fs/README.md (npx
#    and uvx forms, bare and absolute, GUI-like PATH, fresh HOME whose npm
#    and uv settings name the loopback registry and the wheel folder), plus
#    `uvx --no-index --find-links`, `pipx run` and the pip-installed script: each
#    answers the scripted calls as the bare binary does (drive.py).
# 5. Windows, when its packages were built and Wine is here: npm installs
#    @mcp-roots-fs/win32-x64 for --os=win32 --cpu=x64 (and not the Linux
#    one), the launcher picks its .exe, the wheel holds the same .exe, and
#    the .exe answers initialize and tools/list under Wine with the Linux
#    binary's tool list.
# Needs node with npm, python3 with venv; PyPI and npm access only for the
# first install of the pinned tools.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
target="${CARGO_TARGET_DIR:-$repo/target}"
mkdir -p "$target"
target=$(cd "$target" && pwd)
dist=$(cd "${1:-$target/dist}" && pwd)
# The binary of this machine's platform: the reference the installs are compared with.
host=$(rustc -vV | sed -n 's/^host: //p')
host_bin="$dist/bin/mcp-roots-fs-$host"
[ -x "$host_bin" ] || { echo "no $host_bin: run packaging/build.sh first" >&2; exit 1; }
version=$(node -p "require('$dist/npm/mcp-roots-fs/package.json').version")

tools=$(packaging/tools.sh)
python=$(tools/python/venv.sh)
work=$(mktemp -d)
# shellcheck source=packaging/tests/registry.sh
. packaging/tests/registry.sh
trap 'stop_registry; rm -rf "$work"' EXIT

echo "== the launcher's tests"
if ! node --test packaging/tests/launcher.test.js > "$work/launcher.log" 2>&1; then
  cat "$work/launcher.log"
  exit 1
fi
grep -E '^# (tests|pass|fail)' "$work/launcher.log"

echo "== a registry on loopback"
start_registry "$work"
publish_packages "$work" "$dist/npm"

echo "== pip install into a fresh venv"
python3 -m venv "$work/pip-venv"
"$work/pip-venv/bin/pip" install --quiet --no-index --find-links "$dist/wheels" mcp-roots-fs
"$work/pip-venv/bin/pip" show mcp-roots-fs | grep -E '^(Name|Version):'
cmp "$work/pip-venv/bin/mcp-roots-fs" "$host_bin" && echo "the installed script is the release binary"
# The manylinux_2_17 tag's promise: no glibc symbol newer than 2.17.
if [[ "$host" == *-linux-gnu ]] && command -v objdump >/dev/null; then
  newest=$(objdump -T "$host_bin" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -n 1)
  if [ "$(printf '%s\nGLIBC_2.17\n' "$newest" | sort -V | tail -n 1)" != GLIBC_2.17 ]; then
    echo "the Linux binary needs $newest, above the wheel's manylinux_2_17" >&2
    exit 1
  fi
  echo "the Linux binary's newest glibc symbol: $newest (manylinux_2_17)"
fi

echo "== the READMEs' lines, driven by the Python SDK, against the bare binary"
"$python" packaging/tests/launches.py "$work/launches.json" README.md mcp-roots-fs/README.md \
  --npx "$(command -v npx)" --uvx "$tools/bin/uvx" --binary "$host_bin" --pip-binary "$work/pip-venv/bin/mcp-roots-fs" --pipx "$tools/bin/pipx" \
  --registry "$registry" --wheels "$dist/wheels" --homes "$work/homes"
"$python" packaging/tests/drive.py "$work/launches.json" "$host_bin"

echo "== Windows x86_64"
if [ ! -d "$dist/npm/win32-x64" ]; then
  echo "skipped: no Windows build in $dist (packaging/build.sh skipped it)"
  exit 0
fi
mkdir -p "$work/win-install"
(cd "$work/win-install" && npm install --silent --no-audit --no-fund --registry "$registry" --cache "$work/win-cache" \
  --os=win32 --cpu=x64 "mcp-roots-fs@$version")
modules="$work/win-install/node_modules"
exe="$modules/@mcp-roots-fs/win32-x64/bin/mcp-roots-fs.exe"
[ -f "$exe" ] || { echo "npm --os=win32 --cpu=x64 did not install $exe" >&2; exit 1; }
[ ! -e "$modules/@mcp-roots-fs/linux-x64" ] || { echo "npm --os=win32 installed the Linux package too" >&2; exit 1; }
picked=$(cd "$work/win-install" && MCP_ROOTS_FS_BINARY= node -e '
  const l = require("mcp-roots-fs/bin/mcp-roots-fs.js");
  console.log(l.binaryPath("win32", "x64", (f) => require.resolve(f, { paths: [process.cwd()] })));')
[ "$picked" = "$exe" ] || { echo "the launcher picked $picked for win32 x64, not $exe" >&2; exit 1; }
echo "npm --os=win32 --cpu=x64 installed @mcp-roots-fs/win32-x64 only; the launcher picks $picked"
whl=$(ls "$dist"/wheels/*win_amd64.whl)
python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); n = [x for x in z.namelist() if x.endswith("/scripts/mcp-roots-fs.exe")]; assert len(n) == 1, z.namelist(); sys.stdout.buffer.write(z.read(n[0]))' "$whl" > "$work/wheel.exe"
cmp "$work/wheel.exe" "$exe" && echo "the win_amd64 wheel holds the same .exe"
if ! { command -v wine64 || ls /usr/lib/wine/wine64; } >/dev/null 2>&1; then
  echo "skipped running the .exe: no wine64"
  exit 0
fi
env_lines=$(tools/wine/setup.sh 2>/dev/null | grep -E '^[A-Z_0-9]+=')
wine_env=$(while IFS= read -r line; do printf '%s\n' "$line"; done <<<"$env_lines" | python3 -c '
import json, sys
env = dict(l.rstrip("\n").split("=", 1) for l in sys.stdin if "=" in l)
print(json.dumps(env))')
wine=$(command -v wine64 || echo /usr/lib/wine/wine64)
python3 - "$work/wine.json" "$wine" "$exe" "$wine_env" "$work/homes/wine" <<'PY'
import json, os, sys
out, wine, exe, env, home = sys.argv[1:]
os.makedirs(home, exist_ok=True)
env = {k: v for k, v in json.loads(env).items() if k == "WINEPREFIX"}
env.update({"PATH": "/usr/bin:/bin", "HOME": home, "WINEDEBUG": "-all", "WINEDLLOVERRIDES": "mscoree,mshtml="})
json.dump([{"label": "win32-x64 .exe from npm, under Wine: initialize, tools/list", "command": wine,
            "args": [exe, "Z:{DIR}"], "env": env, "only": "list"}], open(out, "w"))
PY
"$python" packaging/tests/drive.py "$work/wine.json" "$host_bin"
