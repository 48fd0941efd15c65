#!/usr/bin/env bash
# Builds and tests the Python binding the way a user installs it:
# `pip install maturin`, one `maturin build --release`, the wheel installed
# with `pip install` into a fresh virtualenv, then pytest (the suite, the
# escape corpus, the example server through the official SDK's client, and
# the README's example) from outside the source tree; the suite once more
# without openat2 when the launcher is built (tools/no-openat2).
#
#   bindings/ci.sh
#
# Needs python3 (3.10+) with venv and pip access to PyPI. The build shares
# bindings/target (CARGO_TARGET_DIR) with the Node binding.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$here/target}"
MCP_VERSION="${MCP_VERSION:-2.3.0}"
python="${PYTHON:-python3}"
work="$CARGO_TARGET_DIR/ci"
rm -rf "$work"
mkdir -p "$work"

step() { echo "== $1 ($(( SECONDS - started ))s)"; }
started=$SECONDS

step "python: build the wheel"
"$python" -m venv "$work/build"
"$work/build/bin/pip" install --quiet --disable-pip-version-check maturin
"$work/build/bin/maturin" build --release --quiet --manifest-path "$here/python/Cargo.toml" --out "$work/wheels"
wheel="$(ls "$work"/wheels/mcp_roots-*.whl)"

step "python: install $(basename "$wheel") into a fresh venv"
"$python" -m venv "$work/user"
"$work/user/bin/pip" install --quiet --disable-pip-version-check "$wheel" pytest "mcp==$MCP_VERSION"

step "python: pytest from outside the source tree"
cp -r "$here/python/tests" "$work/tests"
cp -r "$here/python/examples" "$work/examples"
export MCP_ROOTS_CORPUS_DIR="$repo/testkit/data"
(cd "$work" && "$work/user/bin/python" -m pytest -q -p no:cacheprovider tests)

if [ -x "$repo/target/debug/no-openat2" ]; then
    step "python: pytest without openat2"
    (cd "$work" && "$repo/target/debug/no-openat2" "$work/user/bin/python" -m pytest -q -p no:cacheprovider tests/test_corpus.py tests/test_roots.py)
fi

step "python: the README's example"
sed -n '/^```python readme$/,/^```$/p' "$here/python/README.md" | sed '1d;$d' > "$work/readme_example.py"
(cd "$work" && "$work/user/bin/python" readme_example.py)

step "done"
