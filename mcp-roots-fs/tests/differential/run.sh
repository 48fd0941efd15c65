#!/usr/bin/env bash
# The differential test: mcp-roots-fs against the official filesystem server
# (@modelcontextprotocol/server-filesystem, pinned), the same scripted calls
# through the official Python SDK's client, replies and trees compared.
#
#   mcp-roots-fs/tests/differential/run.sh
#
# Installs the pinned npm package under the cargo target directory (once),
# the pinned Python SDK (tools/python/venv.sh), builds mcp-roots-fs, and runs
# compare.py. Needs node and npm (npm registry access), python3 with venv.
# ORIGINAL_VERSION overrides the pin; ORIGINAL_DIST points at an installed
# dist/index.js instead.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
target="${CARGO_TARGET_DIR:-$repo/target}"
version="${ORIGINAL_VERSION:-2026.8.31}"

if [ -z "${ORIGINAL_DIST:-}" ]; then
    prefix="$target/node-server-filesystem-$version"
    ORIGINAL_DIST="$prefix/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"
    if [ ! -f "$ORIGINAL_DIST" ]; then
        mkdir -p "$prefix"
        npm install --silent --no-audit --no-fund --prefix "$prefix" "@modelcontextprotocol/server-filesystem@$version" >&2
    fi
fi
python="$("$repo/tools/python/venv.sh")"
cargo build --quiet --locked --manifest-path "$repo/Cargo.toml" -p mcp-roots-fs
exec "$python" "$here/compare.py" "$ORIGINAL_DIST" "$target/debug/mcp-roots-fs"
