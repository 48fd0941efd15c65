#!/usr/bin/env bash
# The held-out check: the minimal-server binary against the official MCP
# Python SDK's client (default mode, i.e. 2026-07-28, and legacy 2025-11-25).
#
#   minimal-server/tests/python/run.sh
#
# Gets the pinned SDK from tools/python/venv.sh (a virtualenv under the
# cargo target directory, made once), builds the binary, and runs check.py against it. Needs
# python3 (3.10 or later) with venv, and pip access to PyPI. PYTHON picks
# the interpreter; MCP_VERSION overrides the pin.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
target="${CARGO_TARGET_DIR:-$repo/target}"
python="$("$repo/tools/python/venv.sh")"

cargo build --quiet --locked --manifest-path "$repo/Cargo.toml" -p minimal-server
exec "$python" "$here/check.py" "$target/debug/minimal-server"
