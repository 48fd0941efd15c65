#!/usr/bin/env bash
# mcp-roots-fs --ask-within driven by the official MCP Python SDK's client
# (pinned in tools/python/venv.sh), in its default mode (2026-07-28) and in
# legacy mode (2025-11-25): the grant questions answered as a real client
# answers them (grants_check.py says what is checked).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
target="${CARGO_TARGET_DIR:-$repo/target}"
python="$("$repo/tools/python/venv.sh")"

cargo build --quiet --locked --manifest-path "$repo/Cargo.toml" -p mcp-roots-fs
RUST_LOG="${RUST_LOG:-warn}" exec "$python" "$here/grants_check.py" "$target/debug/mcp-roots-fs"
