#!/usr/bin/env bash
# Prints the path of a Python interpreter with the official MCP Python SDK
# (pinned: MCP_VERSION, default below) installed, creating the virtualenv
# under the cargo target directory on first use and reusing it while it
# holds the pinned version. Needs python3 (3.10 or later) with venv and pip
# access to PyPI; PYTHON picks the interpreter the venv is made from.
set -euo pipefail

MCP_VERSION="${MCP_VERSION:-2.3.0}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
target="${CARGO_TARGET_DIR:-$repo/target}"
venv="$target/python-mcp-$MCP_VERSION"

if ! "$venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('mcp') != '$MCP_VERSION')" 2>/dev/null; then
    rm -rf "$venv"
    "${PYTHON:-python3}" -m venv "$venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "mcp==$MCP_VERSION" >&2
fi
echo "$venv/bin/python"
