#!/usr/bin/env bash
# Runs a command in a private mount namespace where / is read-only, /tmp is
# a fresh tmpfs (fixtures: fast to remove, nothing outside them to harm) and
# only fuzz/work and fuzz/artifacts are writable: a long fuzzing run of
# destructive operations cannot damage the machine even if it finds an
# escape. Linux, as root. Usage: ./sandbox.sh <command> [args...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$here/work" "$here/artifacts"
exec unshare --mount --propagation private bash -c '
  set -e
  mount -t tmpfs -o size=2g tmpfs /tmp
  mount --bind "$0/work" "$0/work"
  mount --bind "$0/artifacts" "$0/artifacts"
  mount -o remount,bind,ro /
  cd "$0"
  exec "$@"
' "$here" "$@"
