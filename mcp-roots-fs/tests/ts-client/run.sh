#!/usr/bin/env bash
# The official TypeScript SDK's client (@modelcontextprotocol/sdk, pinned)
# driving mcp-roots-fs over stdio: client.mjs's checks.
#
#   mcp-roots-fs/tests/ts-client/run.sh
#
# Installs the pinned SDK under the cargo target directory (once), builds
# mcp-roots-fs and runs client.mjs beside the SDK. Needs node (18 or later)
# and npm (npm registry access). SDK_VERSION overrides the pin.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
target="${CARGO_TARGET_DIR:-$repo/target}"
version="${SDK_VERSION:-1.32.2}"
prefix="$target/ts-client-sdk-$version"

if [ ! -f "$prefix/node_modules/@modelcontextprotocol/sdk/package.json" ]; then
    mkdir -p "$prefix"
    npm install --silent --no-audit --no-fund --prefix "$prefix" "@modelcontextprotocol/sdk@$version" >&2
fi
# ESM resolves packages from the script's own folder: run it beside them.
cp "$here/client.mjs" "$prefix/client.mjs"
cargo build --quiet --locked --manifest-path "$repo/Cargo.toml" -p mcp-roots-fs
exec node "$prefix/client.mjs" "$target/debug/mcp-roots-fs"
