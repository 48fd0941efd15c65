#!/usr/bin/env bash
# Builds the release binary of mcp-roots-fs once per platform and makes
# every package from it:
#
#   packaging/build.sh [OUT]        # OUT defaults to $CARGO_TARGET_DIR/dist
#
# For each platform this machine can build (Linux x86_64 always; Windows
# x86_64 when the mingw cross compiler and the Rust target are installed),
# maturin compiles the binary (`cargo build --release --locked`, in the
# shared target directory) and packs it into the wheel; the npm platform
# package gets the very same file. Out:
#   OUT/wheels/   mcp_roots_fs-VERSION-py3-none-{manylinux_2_17_x86_64…,win_amd64}.whl
#   OUT/bin/      the binaries (mcp-roots-fs-x86_64-unknown-linux-gnu, …)
#   OUT/npm/      mcp-roots-fs (the launcher) and one folder per platform
#   OUT/SHA256SUMS
# PLATFORMS="linux-x64 win32-x64" (the default) picks among them. Prints
# each step's seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

target="${CARGO_TARGET_DIR:-$repo/target}"
mkdir -p "$target"
target=$(cd "$target" && pwd)
out="${1:-$target/dist}"
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out/wheels" "$out/bin" "$out/npm" "$out/SHA256SUMS"
mkdir -p "$out/wheels" "$out/bin"
platforms=${PLATFORMS:-linux-x64 win32-x64}

tools=$(packaging/tools.sh)
# maturin finds zig through the Python on PATH (ziglang's module).
export PATH="$tools/bin:$PATH"

npm_args=()
for platform in $platforms; do
  start=$SECONDS
  case "$platform" in
    linux-x64)
      triple=x86_64-unknown-linux-gnu exe=mcp-roots-fs
      # zig links against glibc 2.17's symbols: the manylinux2014 floor.
      build=(--zig --compatibility manylinux2014) ;;
    win32-x64)
      triple=x86_64-pc-windows-gnu exe=mcp-roots-fs.exe build=()
      if ! command -v x86_64-w64-mingw32-gcc >/dev/null || ! rustup target list --installed | grep -qx "$triple"; then
        echo "skipped $platform: needs x86_64-w64-mingw32-gcc and the Rust target $triple"
        continue
      fi ;;
    *) echo "unknown platform $platform (this script builds linux-x64, win32-x64)" >&2; exit 1 ;;
  esac
  (cd packaging/python && maturin build --release --locked --target "$triple" "${build[@]}" --out "$out/wheels")
  cp "$target/$triple/release/$exe" "$out/bin/${exe/mcp-roots-fs/mcp-roots-fs-$triple}"
  npm_args+=(--binary "$platform=$target/$triple/release/$exe")
  echo "packaging: $platform built and packed in $((SECONDS - start)) s"
done

version=$(node packaging/npm/build.js --out "$out/npm" "${npm_args[@]}")
(cd "$out" && sha256sum wheels/*.whl bin/* > SHA256SUMS)
echo "packaging: version $version"
cat "$out/SHA256SUMS"
