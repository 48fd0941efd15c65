#!/usr/bin/env bash
# Prepares Wine to run the Windows test set (tools/wine/run-tests.sh):
# checks for wine64 and the mingw cross compiler (installing them with apt
# only when they are missing and this runs as root), adds the Rust target
# x86_64-pc-windows-gnu, builds the bcryptprimitives.dll stand-in (Wine 8
# lacks ProcessPrng, which Rust's std imports), and initialises a Wine
# prefix under target/ with the DLL in its system32. Idempotent: each step
# says whether it did something or found it done.
#
# Prints the variables run-tests.sh uses (WINEPREFIX, the runner).
set -euo pipefail
cd "$(dirname "$0")/../.."

say() { printf 'wine setup: %s\n' "$*"; }

target_dir=${CARGO_TARGET_DIR:-target}
mkdir -p "$target_dir"
target_dir=$(realpath "$target_dir")
export WINEPREFIX=${WINEPREFIX:-$target_dir/wine-prefix}
export WINEDEBUG=${WINEDEBUG:--all}
# No Mono or Gecko installer dialogs, no display needed.
export WINEDLLOVERRIDES=${WINEDLLOVERRIDES:-mscoree,mshtml=}
unset DISPLAY

find_wine() {
  for candidate in wine64 /usr/lib/wine/wine64 /usr/lib64/wine/wine64 /opt/wine-stable/bin/wine64; do
    if command -v "$candidate" >/dev/null 2>&1; then
      command -v "$candidate"
      return 0
    fi
  done
  return 1
}

# 1. Packages.
missing=()
find_wine >/dev/null || missing+=(wine64)
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || missing+=(gcc-mingw-w64-x86-64)
if [ ${#missing[@]} -eq 0 ]; then
  say "wine64 and mingw present"
elif [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  say "installing ${missing[*]} with apt-get"
  DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
else
  say "missing ${missing[*]}: install them (Debian: apt-get install wine64 gcc-mingw-w64-x86-64)" >&2
  exit 1
fi
wine=$(find_wine)
say "wine is $wine ($("$wine" --version 2>/dev/null))"

# 2. The Rust target.
if rustup target list --installed | grep -qx x86_64-pc-windows-gnu; then
  say "rust target x86_64-pc-windows-gnu present"
else
  say "adding rust target x86_64-pc-windows-gnu"
  rustup target add x86_64-pc-windows-gnu
fi

# 3. The bcryptprimitives.dll stand-in.
dll_dir="$target_dir/wine"
dll="$dll_dir/bcryptprimitives.dll"
src=tools/wine/bcryptprimitives.c
mkdir -p "$dll_dir"
if [ -f "$dll" ] && [ "$dll" -nt "$src" ] && [ "$dll" -nt tools/wine/bcryptprimitives.def ]; then
  say "bcryptprimitives.dll up to date ($dll)"
else
  say "building bcryptprimitives.dll ($dll)"
  x86_64-w64-mingw32-gcc -shared -O2 -s -o "$dll" "$src" tools/wine/bcryptprimitives.def -ladvapi32
fi

# 4. The Wine prefix, with the DLL in system32.
if [ -f "$WINEPREFIX/system.reg" ]; then
  say "wine prefix present ($WINEPREFIX)"
else
  say "initialising wine prefix $WINEPREFIX"
  started=$SECONDS
  "$wine" wineboot --init >/dev/null 2>&1 || true
  "$(dirname "$wine")/wineserver" -w 2>/dev/null || wineserver -w 2>/dev/null || true
  [ -f "$WINEPREFIX/system.reg" ] || { say "wineboot did not create the prefix" >&2; exit 1; }
  say "prefix initialised in $((SECONDS - started)) s"
fi
system32="$WINEPREFIX/drive_c/windows/system32"
if [ -f "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" ] \
  && cmp -s "$dll" "$system32/bcryptprimitives.dll"; then
  say "bcryptprimitives.dll in system32"
elif [ -e "/usr/lib/x86_64-linux-gnu/wine/x86_64-windows/bcryptprimitives.dll" ]; then
  say "this Wine has its own bcryptprimitives.dll: the stand-in is not installed"
else
  say "copying bcryptprimitives.dll into $system32"
  cp "$dll" "$system32/bcryptprimitives.dll"
fi

echo "WINEPREFIX=$WINEPREFIX"
echo "CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER=$wine"
