#!/usr/bin/env bash
# vyre serve against one-shot scans: a 6-byte file's latency, and four scans of a tree at once.
#   scripts/service-bench.sh TREE PATTERNS [BACKEND] [RUNS]
# Starts a service of BACKEND (default auto) on a private socket, then prints the median (range) of
# RUNS (default 10) wall times of `vyre scan -e hello` on a 6-byte file through the service and
# with --no-server; and the wall time of four `vyre scan --count -f PATTERNS TREE` run back to back
# and all at once, through the service and one-shot (each one-shot scan has a kernel of its own).
# Every served output is compared with the one-shot output of the same command.
set -uo pipefail
cd "$(dirname "$0")/.."
tree=${1:?usage: scripts/service-bench.sh TREE PATTERNS [BACKEND] [RUNS]}
patterns=${2:?usage: scripts/service-bench.sh TREE PATTERNS [BACKEND] [RUNS]}
backend=${3:-auto}
runs=${4:-10}
java=${JAVA:-.jre/bin/java}
[ -x "$java" ] || java=java
read -r -a vyre <<<"${VYRE:-$java --enable-native-access=ALL-UNNAMED -jar vyre-cli/target/vyre.jar}"
work=$(mktemp -d)
trap 'VYRE_SOCKET=$work/s/scan.sock "${vyre[@]}" serve --stop >/dev/null 2>&1; wait; rm -rf "$work"' EXIT
export VYRE_SOCKET=$work/s/scan.sock
"${vyre[@]}" serve --backend "$backend" 2>"$work/serve.log" &
for ((w = 0; w < 600; w++)); do grep -q listening "$work/serve.log" 2>/dev/null && break; sleep 0.1; done
head -1 "$work/serve.log"
printf 'hello\n' >"$work/six.txt"

now() { date +%s%N; }
secs() { awk -v s="$1" -v e="$2" 'BEGIN {printf "%.3f", (e - s) / 1e9}'; }
stats() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {printf "%.3f s (%.3f-%.3f)", v[int((NR+1)/2)], v[1], v[NR]}'; }

served=(); alone=()
for ((i = 0; i < runs; i++)); do
  s=$(now); "${vyre[@]}" scan -e hello "$work/six.txt" >"$work/served.out" 2>&1; e=$(now); served+=("$(secs "$s" "$e")")
  s=$(now); "${vyre[@]}" scan --no-server --backend "$backend" -e hello "$work/six.txt" >"$work/alone.out" 2>&1; e=$(now)
  alone+=("$(secs "$s" "$e")")
done
cmp -s "$work/served.out" "$work/alone.out" && same=identical || same=DIFFER
echo "6-byte file: through the service $(stats "${served[@]}"), one-shot $(stats "${alone[@]}"); output $same"

scan=(scan --count -f "$patterns" "$tree")
"${vyre[@]}" scan --no-server --backend "$backend" --count -f "$patterns" "$tree" >"$work/expected" 2>/dev/null
four() { # mode (serial|parallel), extra args...
  local mode=$1; shift
  local s e k
  s=$(now)
  for k in 1 2 3 4; do
    if [ "$mode" = serial ]; then "${vyre[@]}" "${scan[@]}" "$@" >"$work/out$k" 2>/dev/null
    else "${vyre[@]}" "${scan[@]}" "$@" >"$work/out$k" 2>/dev/null & fi
  done
  wait  # in this $(...) subshell: its own scans only, not the service
  e=$(now)
  for k in 1 2 3 4; do cmp -s "$work/expected" "$work/out$k" || echo "  scan $k of $mode $* DIFFERS"; done
  secs "$s" "$e"
}
"${vyre[@]}" "${scan[@]}" >/dev/null 2>&1  # one to warm the service
echo "four tree scans through the service: back to back $(four serial) s, at once $(four parallel) s"
echo "four tree scans one-shot: back to back $(four serial --no-server --backend "$backend") s, at once $(four parallel --no-server --backend "$backend") s"
"${vyre[@]}" serve --status
