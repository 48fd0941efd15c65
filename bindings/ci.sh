#!/usr/bin/env bash
# Builds and tests both bindings the way a user installs them.
#
# Python: `pip install maturin`, one `maturin build --release`, the wheel
# installed with `pip install` into a fresh virtualenv, then pytest (the
# suite, the escape corpus, the example server through the official SDK's
# client) and the README's example, from outside the source tree.
# Node: `npm install`, `napi build --release`, `npm pack`, the tarball
# installed with `npm install` into a fresh folder, then `node --test` and
# the README's example there.
# Both suites run once more without openat2 when the launcher is built
# (cargo build -p no-openat2). Measured on two shared cores: 3 min 36 s
# from an empty bindings/target, 1 min 44 s with it warm.
#
#   bindings/ci.sh [python|node]     (both when no argument)
#
# Needs python3 (3.10+) with venv, Node 20.17+ with npm, and access to PyPI
# and the npm registry. The two builds share bindings/target
# (CARGO_TARGET_DIR).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$here/target}"
MCP_VERSION="${MCP_VERSION:-2.3.0}"
MCP_NODE_VERSION="${MCP_NODE_VERSION:-1.32.2}"
python="${PYTHON:-python3}"
work="$CARGO_TARGET_DIR/ci"
rm -rf "$work"
mkdir -p "$work"

step() { echo "== $1 ($(( SECONDS - started ))s)"; }
started=$SECONDS
which="${1:-all}"
no_openat2="$repo/target/debug/no-openat2"

python_binding() {

step "python: build the wheel"
"$python" -m venv "$work/build"
"$work/build/bin/pip" install --quiet --disable-pip-version-check maturin
"$work/build/bin/maturin" build --release --quiet --manifest-path "$here/python/Cargo.toml" --out "$work/wheels"
wheel="$(ls "$work"/wheels/mcp_roots-*.whl)"

step "python: install $(basename "$wheel") into a fresh venv"
"$python" -m venv "$work/user"
"$work/user/bin/pip" install --quiet --disable-pip-version-check "$wheel" pytest mypy "mcp==$MCP_VERSION"

step "python: mypy --strict over the installed package (its stubs)"
(cd "$work" && "$work/user/bin/python" -m mypy --strict --no-incremental -p mcp_roots)

step "python: pytest from outside the source tree"
cp -r "$here/python/tests" "$work/tests"
cp -r "$here/python/examples" "$work/examples"
export MCP_ROOTS_CORPUS_DIR="$repo/testkit/data"
(cd "$work" && "$work/user/bin/python" -m pytest -q -p no:cacheprovider tests)

if [ -x "$no_openat2" ]; then
    step "python: pytest without openat2"
    (cd "$work" && "$no_openat2" "$work/user/bin/python" -m pytest -q -p no:cacheprovider tests/test_corpus.py tests/test_roots.py tests/test_patterns.py tests/test_watch.py tests/test_arguments.py tests/test_grants.py)
else
    step "python: SKIPPED the run without openat2 (cargo build -p no-openat2 first)"
fi

step "python: the README's example"
sed -n '/^```python readme$/,/^```$/p' "$here/python/README.md" | sed '1d;$d' > "$work/readme_example.py"
(cd "$work" && "$work/user/bin/python" readme_example.py)
}

node_binding() {
local src="$here/node" user="$work/node-user"
step "node: npm install, napi build --release, npm pack"
(cd "$src" && npm install --no-audit --no-fund --silent && npx napi build --platform --release && npm pack --silent --pack-destination "$work" >/dev/null)
tgz="$(ls "$work"/mcp-roots-*.tgz)"

step "node: npm install $(basename "$tgz") into a fresh folder"
mkdir -p "$user"
cp -r "$src/test" "$src/examples" "$user/"
(cd "$user" && npm init -y >/dev/null && npm install --no-audit --no-fund --silent "$tgz" "@modelcontextprotocol/sdk@$MCP_NODE_VERSION" zod@3)

step "node: node --test in that folder"
export MCP_ROOTS_CORPUS_DIR="$repo/testkit/data"
(cd "$user" && node --test test/)

if [ -x "$no_openat2" ]; then
    step "node: node --test without openat2"
    (cd "$user" && "$no_openat2" "$(command -v node)" --test test/corpus.test.js test/roots.test.js test/patterns.test.js test/watch.test.js test/arguments.test.js test/grants.test.js)
else
    step "node: SKIPPED the run without openat2 (cargo build -p no-openat2 first)"
fi

step "node: the README's example"
sed -n '/^```js readme$/,/^```$/p' "$src/README.md" | sed '1d;$d' > "$user/readme_example.js"
(cd "$user" && node readme_example.js)
}

case "$which" in
    python) python_binding ;;
    node) node_binding ;;
    all) python_binding; node_binding ;;
    *) echo "usage: $0 [python|node]" >&2; exit 2 ;;
esac
step "done"
