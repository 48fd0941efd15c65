#!/usr/bin/env bash
# Runs the Windows test set under Wine: the library's unit tests (the
# parsers, the root choice, sys/windows) and the integration tests that run
# on Windows (the Windows-form corpus, the Windows operations, the hidden
# and read-only parts of a root in Windows spellings), built for
# x86_64-pc-windows-gnu with mingw. Prepares Wine first (tools/wine/setup.sh,
# idempotent). Extra arguments go to every `cargo test` (e.g. -- --nocapture).
#
# Prints the seconds each step took.
set -euo pipefail
cd "$(dirname "$0")/../.."

start=$SECONDS
env_lines=$(tools/wine/setup.sh | tee /dev/stderr | grep -E '^[A-Z_0-9]+=')
while IFS= read -r line; do export "${line?}"; done <<<"$env_lines"
export WINEDEBUG=${WINEDEBUG:--all}
export WINEDLLOVERRIDES=${WINEDLLOVERRIDES:-mscoree,mshtml=}
unset DISPLAY
echo "wine tests: setup took $((SECONDS - start)) s"

target=x86_64-pc-windows-gnu
# The library's own tests, then the corpus suite of conformance/ (it needs
# testkit); two runs because each names test targets of its own package.
library=(-p mcp-roots --lib --test windows_ops --test windows_parts --test link_count)
corpus=(-p mcp-roots-conformance --test windows_corpus)

step=$SECONDS
cargo test --locked --target "$target" "${library[@]}" --no-run
cargo test --locked --target "$target" "${corpus[@]}" --no-run
echo "wine tests: build took $((SECONDS - step)) s"

step=$SECONDS
cargo test --locked --target "$target" "${library[@]}" "$@"
cargo test --locked --target "$target" "${corpus[@]}" "$@"
echo "wine tests: run took $((SECONDS - step)) s"
echo "wine tests: $((SECONDS - start)) s in all"
