#!/usr/bin/env bash
# One big file of real text against ripgrep, one-shot and through `vyre serve`, for one or more vyre jars.
#   scripts/bigfile-bench.sh TREE PATTERNS [COPIES]
# Concatenates TREE's files COPIES times (default 5) into one file (real sources: the literals' real density),
# then prints the wall times of `rg -c -F -f PATTERNS` (twice) and, for each jar of VYRE_JARS (default
# vyre-cli/target/vyre.jar), of `vyre scan -c -f PATTERNS` on BACKEND (default cuda) through a service of that
# jar (three scans: the first compiles the set) and one-shot (twice), each with the scan's own report (--verbose:
# GB/s and where its thread waited). Every vyre count must equal the first one. The file is kept in BIGFILE_DIR
# when that is set (and reused by the next run). JAVA_OPTS: JVM options of every vyre command (system properties).
set -uo pipefail
cd "$(dirname "$0")/.."
usage="usage: scripts/bigfile-bench.sh TREE PATTERNS [COPIES]"
tree=${1:?$usage}
patterns=${2:?$usage}
copies=${3:-5}
java=${JAVA:-.jre/bin/java}
[ -x "$java" ] || java=java
work=${BIGFILE_DIR:-$(mktemp -d)}
mkdir -p "$work"
big=$work/big.txt
if [ ! -s "$big" ]; then
  find "$tree" -type f | sort >"$work/files"
  for ((c = 0; c < copies; c++)); do xargs cat <"$work/files"; done >"$big"
fi
echo "one file: $(stat -c %s "$big") bytes from $(find "$tree" -type f | wc -l) files x $copies; $(wc -l <"$patterns") literals"

now() { date +%s%N; }
secs() { awk -v s="$1" -v e="$2" 'BEGIN {printf "%.3f", (e - s) / 1e9}'; }
report() { grep -hE "GB/s|waiting" "$1" | sed 's/^vyre scan: //' | tr '\n' ' '; }

if command -v "${RG:-rg}" >/dev/null; then
  for run in 1 2; do
    s=$(now); "${RG:-rg}" -c -F -f "$patterns" "$big" >"$work/rg.out"; e=$(now)
    echo "rg -c -F run $run: $(secs "$s" "$e") s ($(cat "$work/rg.out") matching lines)"
  done
fi
expected=""
check() { # output file: every vyre count must be the first one's
  local count
  count=$(cat "$1")
  count=${count##*:}
  [ -n "$expected" ] || expected=$count
  [ "$count" = "$expected" ] || echo "  COUNT DIFFERS: $count against $expected"
}
for jar in ${VYRE_JARS:-vyre-cli/target/vyre.jar}; do
  read -r -a options <<<"${JAVA_OPTS:-}"
  vyre=("$java" "${options[@]}" --enable-native-access=ALL-UNNAMED -jar "$jar")
  export VYRE_SOCKET=$work/s/scan.sock
  "${vyre[@]}" serve --backend "${BACKEND:-cuda}" 2>"$work/serve.log" &
  for ((w = 0; w < 600; w++)); do grep -q listening "$work/serve.log" 2>/dev/null && break; sleep 0.1; done
  grep -m1 listening "$work/serve.log"
  for run in 1 2 3; do
    s=$(now); "${vyre[@]}" scan --verbose -c -f "$patterns" "$big" >"$work/out" 2>"$work/err"; e=$(now)
    echo "$jar served run $run: $(secs "$s" "$e") s; $(report "$work/err")"
    check "$work/out"
  done
  "${vyre[@]}" serve --stop >/dev/null 2>&1
  wait
  for run in 1 2; do
    s=$(now); "${vyre[@]}" scan --no-server --backend "${BACKEND:-cuda}" --verbose -c -f "$patterns" "$big" >"$work/out" 2>"$work/err"
    e=$(now)
    echo "$jar one-shot run $run: $(secs "$s" "$e") s; $(report "$work/err")"
    check "$work/out"
  done
done
echo "vyre count: $expected matches"
[ -n "${BIGFILE_DIR:-}" ] || rm -rf "$work"
