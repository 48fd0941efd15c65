# A real npm registry on loopback, for the install test and the start-time
# benchmark (sourced by both): verdaccio, pinned (6.8: the newest that runs on Node 20), installed once under the
# cargo target directory; its storage in the caller's temporary folder, no
# uplink (only the packages published to it exist). Needs curl and npm.
#
#   start_registry WORK         sets $registry (the URL) and $registry_pid
#   publish_packages WORK DIR   publishes DIR/*/ (platform packages first)
#   stop_registry

verdaccio_version=6.8.0
registry_pid=

start_registry() {
  local work=$1 target port verdaccio
  target="${CARGO_TARGET_DIR:-$repo/target}"
  verdaccio="$target/verdaccio-$verdaccio_version/node_modules/.bin/verdaccio"
  if [ ! -x "$verdaccio" ]; then
    npm install --silent --no-audit --no-fund --prefix "$target/verdaccio-$verdaccio_version" "verdaccio@$verdaccio_version" >&2
  fi
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  registry="http://127.0.0.1:$port/"
  cat > "$work/verdaccio.yaml" <<YAML
storage: $work/storage
auth:
  htpasswd:
    file: $work/htpasswd
    max_users: 1
uplinks: {}
max_body_size: 200mb
packages:
  '**':
    access: \$all
    publish: \$authenticated
log: { type: stdout, format: pretty, level: warn }
YAML
  "$verdaccio" --config "$work/verdaccio.yaml" --listen "127.0.0.1:$port" > "$work/verdaccio.log" 2>&1 &
  registry_pid=$!
  for _ in $(seq 150); do
    curl -sf "${registry}-/ping" >/dev/null && break
    sleep 0.2
  done
  if ! curl -sf "${registry}-/ping" >/dev/null; then
    cat "$work/verdaccio.log" >&2
    echo "verdaccio did not start" >&2
    return 1
  fi
  # A user (the registry takes one), whose token publishes.
  local token
  token=$(curl -sf -X PUT -H 'content-type: application/json' \
    -d '{"name": "ci", "password": "ci-password"}' "${registry}-/user/org.couchdb.user:ci" \
    | node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s).token))')
  printf 'registry=%s\n//127.0.0.1:%s/:_authToken=%s\n' "$registry" "$port" "$token" > "$work/publish.npmrc"
  echo "verdaccio $verdaccio_version on $registry"
}

publish_packages() {
  local work=$1 npm_dir=$2 dir dirs=()
  # The platform packages first: the launcher's optional dependencies name them.
  for dir in "$npm_dir"/*/; do
    if [ "$(basename "$dir")" != mcp-roots-fs ]; then dirs+=("$dir"); fi
  done
  for dir in "${dirs[@]}" "$npm_dir/mcp-roots-fs"; do
    if ! npm publish --userconfig "$work/publish.npmrc" --cache "$work/npm-cache" "$dir" > "$work/publish.log" 2>&1; then
      cat "$work/publish.log" >&2
      echo "publishing $dir failed" >&2
      return 1
    fi
    grep -E '^\+ ' "$work/publish.log"
  done
}

stop_registry() {
  if [ -n "$registry_pid" ]; then
    kill "$registry_pid" 2>/dev/null || true
    wait "$registry_pid" 2>/dev/null || true
    registry_pid=
  fi
}
