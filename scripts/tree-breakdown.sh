#!/usr/bin/env bash
# Where a scan of a real tree spends its time, one-shot and through `vyre serve`: each run's wall time and its
# --verbose lines (walk, compile, scan, phases), through the ./vyre launcher as a user runs it.
# Usage: scripts/tree-breakdown.sh TREE PATTERN_FILE [RUNS] [BACKEND]   (BACKEND of the service: auto)
# SERVE_JFR=FILE records the service with JFR's profiling settings into FILE (written when it stops).
set -uo pipefail
cd "$(dirname "$0")/.."
tree=$1 patterns=$2 runs=${3:-3} backend=${4:-auto}
VYRE_SOCKET="$(mktemp -d)/scan.sock"
export VYRE_SOCKET
timed() { # label, command...
  local label=$1 started ended
  shift
  started=$(date +%s.%N)
  "$@" 2>&1 >/dev/null | grep -E 'walk|in [0-9.]+ s|waiting|backend:|through' | sed "s/^/  /"
  ended=$(date +%s.%N)
  echo "$label: wall $(awk "BEGIN { print $ended - $started }") s"
}
JAVA_TOOL_OPTIONS=${SERVE_JFR:+-XX:StartFlightRecording=filename=$SERVE_JFR,settings=profile} \
  ./vyre serve --backend "$backend" 2>"$(dirname "$VYRE_SOCKET")/serve.log" &
service=$!
for _ in $(seq 300); do [ -S "$VYRE_SOCKET" ] && break; sleep 0.1; done
[ -S "$VYRE_SOCKET" ] || { echo "tree-breakdown: vyre serve did not start:"; cat "$(dirname "$VYRE_SOCKET")/serve.log"; exit 2; }
grep -m1 listening "$(dirname "$VYRE_SOCKET")/serve.log"
for run in $(seq "$runs"); do
  timed "served $run" ./vyre scan --verbose --count -f "$patterns" "$tree"
done
printf 'hello\n' >"$(dirname "$VYRE_SOCKET")/six"
for run in $(seq "$runs"); do
  timed "6-byte file served $run" ./vyre scan --verbose -e hello "$(dirname "$VYRE_SOCKET")/six"
done
kill "$service"
wait "$service"
for run in $(seq "$runs"); do
  timed "one-shot $run" ./vyre scan --no-server --verbose --count -f "$patterns" "$tree"
done
if command -v rg >/dev/null; then
  for run in $(seq "$runs"); do
    started=$(date +%s.%N)
    rg -uuu -a -F -c -f "$patterns" "$tree" >/dev/null
    echo "rg $run: wall $(awk "BEGIN { print $(date +%s.%N) - $started }") s"
  done
fi
rm -rf "$(dirname "$VYRE_SOCKET")"
