#!/usr/bin/env bash
# Fuzzes one Jazzer target (docs/RELIABILITY.md, "Fuzzing (Jazzer)") for RUNS inputs.
#   scripts/fuzz.sh TARGET [RUNS]     TARGET: one of the names below, or "list"
# Runs the target's @FuzzTest with JAZZER_FUZZ=1 and Jazzer's hooks on, starting from its
# regression inputs (src/test/resources/<package>/<Class>Inputs/<method>/) and from what earlier
# runs found (MODULE/.cifuzz-corpus/, not committed). It stops after RUNS inputs (default 1000000)
# or at the first finding, which Jazzer saves as crash-* among the regression inputs: fix the
# parser, keep the file, and plain test runs replay it from then on.
set -euo pipefail
cd "$(dirname "$0")/.."
declare -A targets=(
  [slot-program]="vyre-runtime dev.vyre.runtime.program.SlotProgramFuzzTest#parse"
  [conform]="vyre-cli dev.vyre.cli.conform.ConformFuzzTest#answer"
  [pattern-file]="vyre-scan dev.vyre.scan.PatternFileFuzzTest#compile"
  [matrix-market]="vyre-graph dev.vyre.graph.GraphReaderFuzzTest#matrixMarket"
  [edge-list]="vyre-graph dev.vyre.graph.GraphReaderFuzzTest#edgeList"
  [serve-request]="vyre-cli dev.vyre.cli.serve.ServiceProtocolFuzzTest#readRequest"
  [replay-log]="vyre-observe dev.vyre.observe.replay.ReplayFilesFuzzTest#replayLog"
  [rerun-sidecar]="vyre-observe dev.vyre.observe.replay.ReplayFilesFuzzTest#rerunSidecar"
)
target=${1:?usage: scripts/fuzz.sh TARGET [RUNS] (scripts/fuzz.sh list names the targets)}
runs=${2:-1000000}
if [ "$target" = list ]; then
  printf '%s\n' "${!targets[@]}" | sort
  exit
fi
if [ -z "${targets[$target]:-}" ]; then
  echo "fuzz: no target $target. Fix: use one of: $(printf '%s\n' "${!targets[@]}" | sort | tr '\n' ' ')" >&2
  exit 2
fi
read -r module test <<<"${targets[$target]}"
# Jazzer's own default stops fuzzing after 5 minutes; RUNS is the limit here. A target's @Timeout
# is Jazzer's limit for one input; JUnit's own would apply it to the whole run. Off-heap memory is
# capped so that a graph file naming a million vertices is refused at once, not built: these
# targets fuzz the readers, and a build that size, slowed by Jazzer's instrumentation, is real
# work that would show up as a timeout.
JAZZER_FUZZ=1 exec ./mvnw -B -ntp test -pl "$module" -am -Dtest="$test" -Dsurefire.failIfNoSpecifiedTests=false \
  -Djazzer.hooks=true -Djazzer.max_executions="$runs" -Djazzer.max_duration=24h \
  -Djunit.jupiter.execution.timeout.mode=disabled -Dtest.jvmArgs=-XX:MaxDirectMemorySize=16m
