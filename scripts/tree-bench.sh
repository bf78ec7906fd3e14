#!/usr/bin/env bash
# vyre scan against ripgrep on a real tree of many files, page cache warm, wall time per run.
#   scripts/tree-bench.sh TREE [RUNS]
# Patterns: 100, 1,000 and 10,000 identifiers drawn from the tree itself (every k-th of its distinct
# identifiers of 6+ characters, sorted by frequency, so common and rare ones both appear).
# Each row alternates the commands RUNS times (default 5) and prints the median and range: vyre in a
# process of its own (--no-server), vyre through a `vyre serve` of the same backend started for the
# row's backend, and ripgrep. Before timing, the sets of files with a match (-l) must be equal, or the
# row says DIFFER.
# Environment: RG (default rg), VYRE (default: the jar through .jre), BACKENDS (default "auto reference"),
# COUNTS (default "100 1000 10000"), SERVICE=off (no service rows), OUT (pattern files, -l listings and
# the services' logs; default a temporary folder).
set -uo pipefail
cd "$(dirname "$0")/.."
tree=${1:?usage: scripts/tree-bench.sh TREE [RUNS]}
runs=${2:-5}
rg=${RG:-rg}
java=${JAVA:-.jre/bin/java}
[ -x "$java" ] || java=java
read -r -a vyre <<<"${VYRE:-$java --enable-native-access=ALL-UNNAMED -jar vyre-cli/target/vyre.jar}"
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
files=$(find "$tree" -type f | wc -l)
bytes=$(du -sb "$tree" | cut -f1)
echo "tree $tree: $files files, $bytes bytes; $(nproc) cores; $("$rg" --version | head -1)"
"$rg" -uuu -a -o -N --no-filename '[A-Za-z_][A-Za-z0-9_]{5,}' "$tree" | sort | uniq -c | sort -k1,1nr -k2 \
  | awk '{print $2}' >"$out/identifiers.txt"
distinct=$(wc -l <"$out/identifiers.txt")

seconds() { # command... -> wall seconds, output discarded
  local start end
  start=$(date +%s%N)
  "$@" >/dev/null 2>&1
  end=$(date +%s%N)
  awk -v s="$start" -v e="$end" 'BEGIN {printf "%.3f\n", (e - s) / 1e9}'
}
stats() { # values... -> "median (min-max)"
  printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {printf "%.3f (%.3f-%.3f)", v[int((NR+1)/2)], v[1], v[NR]}'
}

# One service per backend, started before its rows and stopped after (SERVICE=off leaves it out).
serve_start() { # backend
  [ "${SERVICE:-on}" = off ] && return
  export VYRE_SOCKET="$out/service-$1/scan.sock"
  "${vyre[@]}" serve --backend "$1" 2>"$out/service-$1.log" &
  for ((w = 0; w < 600; w++)); do [ -S "$VYRE_SOCKET" ] && grep -q listening "$out/service-$1.log" && return; sleep 0.1; done
  echo "tree-bench: the $1 service did not start:"; cat "$out/service-$1.log"
}
serve_stop() {
  [ "${SERVICE:-on}" = off ] && return
  "${vyre[@]}" serve --stop >/dev/null 2>&1; wait; unset VYRE_SOCKET
}

printf '| literals | backend | vyre one-shot | vyre through vyre serve | rg -c -F (all cores) | one-shot / rg | served / rg | -l sets |\n|---|---|---|---|---|---|---|---|\n'
for count in ${COUNTS:-100 1000 10000}; do
  awk -v n="$count" -v d="$distinct" 'BEGIN {k = int(d / n); if (k < 1) k = 1} (NR - 1) % k == 0 && c < n {print; c++}' \
    "$out/identifiers.txt" >"$out/patterns-$count.txt"
  "$rg" -uuu -a -F -l -f "$out/patterns-$count.txt" "$tree" | sort >"$out/rg-$count.l"
done
for backend in ${BACKENDS:-auto reference}; do
  serve_start "$backend"
  for count in ${COUNTS:-100 1000 10000}; do
    pats="$out/patterns-$count.txt"
    "${vyre[@]}" scan --no-server --backend "$backend" -l -f "$pats" "$tree" | sort >"$out/vyre-$backend-$count.l"
    same=$(cmp -s "$out/rg-$count.l" "$out/vyre-$backend-$count.l" && echo "equal ($(wc -l <"$out/rg-$count.l") files)" || echo DIFFER)
    if [ "${SERVICE:-on}" != off ]; then
      "${vyre[@]}" scan --backend "$backend" -l -f "$pats" "$tree" | sort >"$out/served-$backend-$count.l"
      cmp -s "$out/rg-$count.l" "$out/served-$backend-$count.l" || same="$same, served DIFFER"
    fi
    v=(); s=(); r=()
    for ((i = 0; i < runs; i++)); do
      v+=("$(seconds "${vyre[@]}" scan --no-server --backend "$backend" --count -f "$pats" "$tree")")
      [ "${SERVICE:-on}" != off ] && s+=("$(seconds "${vyre[@]}" scan --backend "$backend" --count -f "$pats" "$tree")")
      r+=("$(seconds "$rg" -uuu -a -F -c -f "$pats" "$tree")")
    done
    vm=$(stats "${v[@]}"); rm_=$(stats "${r[@]}"); sm="-"; sratio="-"
    if [ "${#s[@]}" -gt 0 ]; then
      sm="$(stats "${s[@]}") s"; sratio="$(awk -v a="${sm%% *}" -v b="${rm_%% *}" 'BEGIN {printf "%.2f", a / b}')x"
    fi
    ratio=$(awk -v a="${vm%% *}" -v b="${rm_%% *}" 'BEGIN {printf "%.2f", a / b}')
    printf '| %s | %s | %s s | %s | %s s | %sx | %s | %s |\n' "$count" "$backend" "$vm" "$sm" "$rm_" "$ratio" "$sratio" "$same"
  done
  serve_stop
done
