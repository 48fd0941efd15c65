#!/usr/bin/env bash
# A long fuzzing run (CI runs each target for 30 s, which does not reach
# the depth of a plan that needs four steps to disagree): every target, or
# the ones named, for MINUTES minutes each. A crash does not end a target's
# run: its input is minimised (libFuzzer's -minimize_crash), copied into
# corpus/<target>/ as a seed named found-<target>-<sha1 prefix> (so that
# `cargo test -p testkit --test fuzz_seeds` replays it from then on), and
# the run goes on for the time left, up to MAX_FINDINGS findings a target.
# New inputs that only add coverage stay in work/long-<target>/ (ignored by
# git). Runs the built targets inside ./sandbox.sh when the machine allows
# it (Linux, root), as CI does. A summary per target goes to
# work/long-run.txt.
#
# Usage: ./long-run.sh [MINUTES] [TARGET...]
#   MINUTES       per target (default 20)
#   MAX_FINDINGS  environment, default 5
# Exit status: 0 when no target found anything, 1 when a seed was added.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
minutes=${1:-20}
shift || true
max_findings=${MAX_FINDINGS:-5}

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "cargo-fuzz is missing: cargo install cargo-fuzz --locked" >&2
  exit 2
fi
if rustup run nightly rustc --version >/dev/null 2>&1; then
  fuzz_cargo=(cargo +nightly fuzz) sanitizer=()
else
  fuzz_cargo=(cargo fuzz) sanitizer=(-s none)
fi
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  mapfile -t targets < <("${fuzz_cargo[@]}" list)
fi
"${fuzz_cargo[@]}" build "${sanitizer[@]}"
triple=$(rustc -vV | sed -n 's/^host: //p')
sandbox=()
if ./sandbox.sh true 2>/dev/null; then sandbox=(./sandbox.sh); fi
mkdir -p work artifacts
summary=work/long-run.txt
: >"$summary"
found_any=0

for target in "${targets[@]}"; do
  bin="${CARGO_TARGET_DIR:-target}/$triple/release/$target"
  [[ -x "$bin" ]] || { echo "fuzz target $target was not built at $bin" >&2; exit 2; }
  dict=()
  if [[ -f "$target.dict" ]]; then dict=("-dict=$target.dict"); fi
  work="work/long-$target" artifacts="artifacts/long-$target"
  mkdir -p "$work" "$artifacts"
  rm -f "work/long-$target".*.log*
  deadline=$(( $(date +%s) + minutes * 60 ))
  findings=0 runs=0
  while (( findings < max_findings )); do
    left=$(( deadline - $(date +%s) ))
    (( left > 5 )) || break
    runs=$((runs + 1))
    rm -f "$artifacts"/*
    log="work/long-$target.$runs.log"
    "${sandbox[@]}" "$bin" "$work" "corpus/$target" "${dict[@]}" \
      -max_total_time="$left" -timeout=20 -artifact_prefix="$artifacts/" \
      -print_final_stats=1 >"$log" 2>&1 || true
    crash=$(find "$artifacts" -maxdepth 1 -type f | head -n 1)
    if [[ -z "$crash" ]]; then
      grep -E '^#[0-9]+[[:space:]]+DONE' "$log" >/dev/null \
        || { echo "$target did not run to completion:"; tail -n 20 "$log"; exit 2; }
      break
    fi
    findings=$((findings + 1))
    small="$work/minimised"
    "${sandbox[@]}" "$bin" -minimize_crash=1 -max_total_time=60 -timeout=20 \
      -exact_artifact_path="$small" "$crash" >"$log.tmin" 2>&1 || true
    [[ -s "$small" ]] || cp "$crash" "$small"
    # Kept aside until the target's run ends: a seed in corpus/ now would
    # be read again by the next run and crash it at once.
    seed="found-$target-$(sha1sum "$small" | cut -c1-12)"
    mkdir -p "$work-found"
    mv "$small" "$work-found/$seed"
    found_any=1
    echo "$target: finding $findings kept as corpus/$target/$seed" | tee -a "$summary"
    grep -m1 -E 'panicked|ERROR' "$log" | tee -a "$summary" || true
  done
  if [[ -d "$work-found" ]]; then
    mv "$work-found"/* "corpus/$target/" 2>/dev/null || true
    rmdir "$work-found"
  fi
  execs=$(grep -hoE 'stat::number_of_executed_units: [0-9]+' work/long-"$target".*.log \
    | awk '{s += $2} END {print s + 0}')
  echo "$target: $minutes min, $execs executions, $findings findings" | tee -a "$summary"
done
exit "$found_any"
