#!/usr/bin/env bash
# notes-server over stdio against the official MCP Python SDK's default
# client (2026-07-28) with an empty roots list: the process is the session.
#
#   examples/notes-server/tests/python/run_stdio.sh
#
# Gets the pinned SDK from tools/python/venv.sh (a virtualenv under the
# cargo target directory, made once), builds the binary, and runs
# stdio_check.py against it. Needs python3 (3.10 or later) with venv, and
# pip access to PyPI. PYTHON picks the interpreter; MCP_VERSION overrides
# the pin.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../../.." && pwd)"
target="${CARGO_TARGET_DIR:-$repo/target}"
python="$("$repo/tools/python/venv.sh")"

cargo build --quiet --locked --manifest-path "$repo/Cargo.toml" -p notes-server
exec "$python" "$here/stdio_check.py" "$target/debug/notes-server"
