#!/usr/bin/env bash
# vyre scan against ripgrep on a real tree of many files, page cache warm, wall time per run.
#   scripts/tree-bench.sh TREE [RUNS]
# Patterns: 100, 1,000 and 10,000 identifiers drawn from the tree itself (every k-th of its distinct
# identifiers of 6+ characters, sorted by frequency, so common and rare ones both appear).
# Each row alternates the commands RUNS times (default 5) and prints the median and range; before
# timing, the sets of files with a match (-l) must be equal, or the row says DIFFER.
# Environment: RG (default rg), VYRE (default: the jar through .jre), BACKENDS (default "auto reference"),
# COUNTS (default "100 1000 10000"), OUT (pattern files and -l listings; default a temporary folder).
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

printf '| literals | backend | vyre scan --count | rg -c -F (all cores) | vyre / rg | -l sets |\n|---|---|---|---|---|---|\n'
for count in ${COUNTS:-100 1000 10000}; do
  pats="$out/patterns-$count.txt"
  awk -v n="$count" -v d="$distinct" 'BEGIN {k = int(d / n); if (k < 1) k = 1} (NR - 1) % k == 0 && c < n {print; c++}' \
    "$out/identifiers.txt" >"$pats"
  "$rg" -uuu -a -F -l -f "$pats" "$tree" | sort >"$out/rg-$count.l"
  for backend in ${BACKENDS:-auto reference}; do
    "${vyre[@]}" scan --backend "$backend" -l -f "$pats" "$tree" | sort >"$out/vyre-$backend-$count.l"
    same=$(cmp -s "$out/rg-$count.l" "$out/vyre-$backend-$count.l" && echo "equal ($(wc -l <"$out/rg-$count.l") files)" || echo DIFFER)
    v=(); r=()
    for ((i = 0; i < runs; i++)); do
      v+=("$(seconds "${vyre[@]}" scan --backend "$backend" --count -f "$pats" "$tree")")
      r+=("$(seconds "$rg" -uuu -a -F -c -f "$pats" "$tree")")
    done
    vm=$(stats "${v[@]}"); rm_=$(stats "${r[@]}")
    ratio=$(awk -v a="${vm%% *}" -v b="${rm_%% *}" 'BEGIN {printf "%.2f", a / b}')
    printf '| %s | %s | %s s | %s s | %sx | %s |\n' "$count" "$backend" "$vm" "$rm_" "$ratio" "$same"
  done
done
