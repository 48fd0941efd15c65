#!/usr/bin/env bash
# notes-server --http against the official MCP Python SDK's Streamable HTTP
# client (default mode, i.e. 2026-07-28, and legacy 2025-11-25).
#
#   examples/notes-server/tests/python/run_http.sh
#
# Creates (once) a virtualenv under the cargo target directory with the
# pinned SDK (the same one minimal-server/tests/python/run.sh makes),
# builds the binary, and runs http_check.py against it. Needs python3
# (3.10 or later) with venv, and pip access to PyPI. PYTHON picks the
# interpreter; MCP_VERSION overrides the pin.
set -euo pipefail

MCP_VERSION="${MCP_VERSION:-2.3.0}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../../.." && pwd)"
target="${CARGO_TARGET_DIR:-$repo/target}"
venv="$target/python-mcp-$MCP_VERSION"

# The venv is reused while it holds the pinned SDK; a broken or different
# one is made again.
if ! "$venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('mcp') != '$MCP_VERSION')" 2>/dev/null; then
    rm -rf "$venv"
    "${PYTHON:-python3}" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "mcp==$MCP_VERSION"
fi

cargo build --quiet --locked --manifest-path "$repo/Cargo.toml" -p notes-server
exec "$venv/bin/python" "$here/http_check.py" "$target/debug/notes-server"
