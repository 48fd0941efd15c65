#!/usr/bin/env bash
# Three notes-server --http instances, one Redis, a round-robin proxy, against
# the official MCP Python SDK in its default (2026-07-28) mode. Needs redis-server.
#
#   examples/notes-server/tests/python/run_multi.sh
#
# Gets the pinned SDK from tools/python/venv.sh (a virtualenv under the
# cargo target directory, made once) (the same one minimal-server/tests/python/run.sh makes),
# builds the binary, and runs multi_check.py against it. Needs python3
# (3.10 or later) with venv, and pip access to PyPI. PYTHON picks the
# interpreter; MCP_VERSION overrides the pin.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../../.." && pwd)"
target="${CARGO_TARGET_DIR:-$repo/target}"
python="$("$repo/tools/python/venv.sh")"

cargo build --quiet --locked --manifest-path "$repo/Cargo.toml" -p notes-server
exec "$python" "$here/multi_check.py" "$target/debug/notes-server"
