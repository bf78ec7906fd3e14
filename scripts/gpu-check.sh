#!/usr/bin/env bash
# The GPU suite in one command, for a machine with an NVIDIA GPU and no Maven or network.
# Build here first:  ./mvnw -q -DskipTests package && JRE_MODULES=java.base,jdk.unsupported,java.logging,java.management,jdk.management,jdk.jfr,java.net.http,jdk.net,jdk.zipfs scripts/make-jre.sh
# (and scripts/device-pack.sh [TREE_DIR...] to carry the JRE, and a tree for the tree bench, as xz archives;
# scripts/kernel-lab/dfa-lab-build.sh to carry the DFA lab for its steps)
# Then run on the GPU machine from the repository root:  scripts/gpu-check.sh
# Runs: vyre doctor; the GPU tests (tag gpu: parity with the reference backend, faults, pipeline
# cache, exactly-once at speed, wave DAGs, the frontier engine); SIGKILL of a process using the GPU
# (the device must serve the next one); exactly-once at scale (100 M tasks, 8 publishers, continuations;
# EXACTLY_ONCE_TASKS changes the count); the backend-neutral reference suites against
# CUDA (BackendParityTest among them: every counter both backends keep, against the reference backend;
# HostWritesSeenByTasksTest: tasks read what the host wrote before publishing them);
# short runs under compute-sanitizer (memcheck, racecheck: `vyre run`, and `vyre scan` of a small
# generated tree with its resources reserved before the launch; DFA_STEP over a promoted table, in the product and
# in the DFA lab when it is carried (which also runs alone: the step-by-step DFA_STEP rates); a small
# traversal of the frontier kernel under memcheck); a `vyre run --record` read back by `vyre replay`;
# runs recorded on one backend re-run on the other (`vyre replay --rerun`);
# `vyre bench dispatch --backend cuda`; `vyre bench io --backend cuda` (loads tasks ask for);
# `vyre bench adapt --backend cuda` (the launch policy on a load that changes phase; the scan loads with each loop alone;
# the hot table over a resident corpus); `vyre bench resident` (a corpus in
# device memory, 4 and 10 GiB, and dense matches); and
# `vyre bench graph` (the frontier engine); with two or more GPUs, every GPU of the host (the multi-gpu steps and
# `vyre bench scan --devices all`); with TREE=DIR, `vyre bench tree` (vyre scan against ripgrep and grep).
# Prints one summary line and exits non-zero when anything failed. Logs go to $OUT (or /tmp/vyre-gpu).
set -uo pipefail
cd "$(dirname "$0")/.."
# What scripts/device-pack.sh packed for one call of the device tool: the JRE, and a tree with ripgrep for the
# tree bench (TREE, unless given), each unpacked once.
pack=vyre-cli/target/pack
if [ -f "$pack/jre.tar.xz" ] && [ ! -x .jre/bin/java ]; then tar -xJf "$pack/jre.tar.xz"; fi
if [ -f "$pack/tree.tar.xz" ] && [ -z "${TREE:-}" ]; then
  [ -d vyre-cli/target/tree ] || tar -xJf "$pack/tree.tar.xz" -C vyre-cli/target
  TREE=vyre-cli/target/tree RG=$PWD/$pack/rg
  chmod +x "$RG"
  export LD_LIBRARY_PATH="$PWD/$pack:${LD_LIBRARY_PATH:-}"
fi
out=${OUT:-/tmp/vyre-gpu}
mkdir -p "$out"
java=${JAVA:-.jre/bin/java}
[ -x "$java" ] || java=$(command -v java || true)
[ -n "$java" ] || { echo "gpu-check: no java (make .jre with scripts/make-jre.sh and carry it)"; exit 2; }
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64"
jvm=("$java" --enable-native-access=ALL-UNNAMED -Dvyre.cache.dir="$out/pipeline-cache")
vyre=("${jvm[@]}" -jar vyre-cli/target/vyre.jar)
cp="vyre-cli/target/vyre.jar:$(ls vyre-cuda/target/vyre-cuda-*-tests.jar):$(ls vyre-reference/target/vyre-reference-*-tests.jar):$(ls vyre-cuda/target/gpu-lib/*.jar | grep -v console-standalone | tr '\n' ':')"
launcher=$(ls vyre-cuda/target/gpu-lib/junit-platform-console-standalone-*.jar)
passed=0; failed=0; names=()
step() { # name, command...
  local name=$1; shift
  # GPU_STEPS (a regex) runs a subset, e.g. GPU_STEPS='gpu-tests|bench' while iterating.
  if [ -n "${GPU_STEPS:-}" ] && ! [[ $name =~ $GPU_STEPS ]]; then return; fi
  echo "== $name"
  # A hung step must not eat the whole lease: each gets STEP_TIMEOUT seconds (default 240).
  if timeout "${STEP_TIMEOUT:-240}" "$@" >"$out/$name.log" 2>&1; then passed=$((passed+1)); echo "   ok"; else failed=$((failed+1)); names+=("$name"); echo "   FAILED (log: $out/$name.log)"; tail -40 "$out/$name.log"; fi
  # The JUnit console's counts, so they survive when the logs do not come back.
  grep -E "tests (successful|failed|skipped) " "$out/$name.log" | tr -s ' []' ' ' | tr '\n' ',' | sed 's/^/  /; s/,$/\n/'
}
# The megakernel's DFA_STEP apart from the megakernel (scripts/kernel-lab/dfa_lab.cu), when it is carried: the scan
# loop, the step, and the step with the table promoted, cold and warm, on 4 GiB in device memory.
if [ -x vyre-cli/target/dfalab/dfa_lab ]; then
  step dfa-lab bash -c 'set -eo pipefail; d=$(mktemp -d); trap "rm -rf $d" EXIT
    "$1" -cp vyre-cli/target/vyre.jar:vyre-cli/target/dfalab DfaLabInput $d 100; vyre-cli/target/dfalab/dfa_lab $d 4 256' _ "$java"
fi
# Each test gets 150 s on its own thread, so one hung test fails alone instead of stalling the suite.
junit_args=(execute --class-path "$cp" --disable-banner --details=verbose --fail-if-no-tests
  --config=junit.jupiter.execution.timeout.default=150s
  --config=junit.jupiter.execution.timeout.thread.mode.default=SEPARATE_THREAD
  --config=jqwik.database="$out/jqwik-database")

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$out/device.txt" 2>&1
step doctor "${vyre[@]}" doctor
step gpu-tests "${jvm[@]}" -jar "$launcher" "${junit_args[@]}" --select-class dev.vyre.cuda.CudaMegakernelGpuTest --select-class dev.vyre.cuda.CudaDfaStepGpuTest --select-class dev.vyre.cuda.CudaSessionLifecycleGpuTest --select-class dev.vyre.cuda.CudaPreLaunchArenaGpuTest --select-class dev.vyre.cuda.CudaBaselinesGpuTest --select-class dev.vyre.cuda.CudaWaveDagGpuTest
# The frontier engine (docs/FRONTIER.md): depths, trees and labels on every topology, both placements, the
# per-level baseline, and the kernel's decision port against FrontierPolicy.
step frontier "${jvm[@]}" -jar "$launcher" "${junit_args[@]}" --select-class dev.vyre.cuda.graph.CudaFrontierGpuTest --select-class dev.vyre.cuda.graph.CudaFrontierPolicyGpuTest
# Each fault test leaves a sticky CUDA error behind, so each runs in a JVM of its own.
step fault-stall "${jvm[@]}" -jar "$launcher" "${junit_args[@]}" --select-method dev.vyre.cuda.CudaFaultGpuTest#aStalledKernelIsCaughtAndTornDown
step fault-illegal-address "${jvm[@]}" -jar "$launcher" "${junit_args[@]}" --select-method dev.vyre.cuda.CudaFaultGpuTest#anIllegalAddressBecomesATypedErrorNotAHang
# SIGKILL while a kernel runs leaves the device usable: a fresh process boots a kernel and runs work right
# (scripts/kill-gpu-process.sh; KILL_TRIALS trials, default 3).
step kill-gpu-process scripts/kill-gpu-process.sh "$out/kill" "${vyre[@]}"
# Every task exactly once at scale: random built-in, continuing (YIELD, REQUEUE) and id-marking opcodes,
# tenants (one revoked) and priorities from 8 publishers; the test checks DONE_COUNT, FAULT_COUNT, per-tenant
# adds, metrics, the host's counts and a bitmap of the marking tasks' ids (each set once), and prints one line
# with the counts and the rate. The timeout is budgeted from the 20 M run in docs/BENCHMARKS.md ("GPU
# correctness runs") times five, plus a JVM and a kernel compile, with room to spare. Its own JUnit timeout,
# above the 150 s.
STEP_TIMEOUT=${EXACTLY_ONCE_TIMEOUT:-300} step exactly-once-100m "${jvm[@]}" -Dvyre.test.backend=cuda \
  -Dvyre.exactlyOnce.tasks="${EXACTLY_ONCE_TASKS:-100000000}" -Dvyre.exactlyOnce.publishers=8 -jar "$launcher" \
  "${junit_args[@]}" --config=junit.jupiter.execution.timeout.test.method.default=280s \
  --select-method dev.vyre.reference.MegakernelExactlyOnceTest#exactlyOnceAtScale
# The suites compile a kernel for each new set of user opcodes (an empty pipeline cache): more time.
STEP_TIMEOUT=${SUITES_TIMEOUT:-480} step reference-suites-on-cuda "${jvm[@]}" -Dvyre.test.backend=cuda -jar "$launcher" "${junit_args[@]}" --select-class dev.vyre.reference.BuiltinSemanticsTest --select-class dev.vyre.reference.DfaStepOpcodeTest --select-class dev.vyre.reference.ScanJobTest --select-class dev.vyre.reference.PackReadersTest --select-class dev.vyre.reference.IngestPumpTest --select-class dev.vyre.reference.MegakernelExactlyOnceTest --select-class dev.vyre.reference.MegakernelTenantTest --select-class dev.vyre.reference.PublishArgumentsTest --select-class dev.vyre.reference.MegakernelShutdownRaceTest --select-class dev.vyre.reference.DebugLogTest --select-class dev.vyre.reference.TaskReadTest --select-class dev.vyre.reference.WaveRunTest --select-class dev.vyre.reference.WorkerGroupLoopTest --select-class dev.vyre.reference.HostWritesSeenByTasksTest --select-class dev.vyre.reference.BackendParityTest
if command -v compute-sanitizer >/dev/null; then
  step sanitizer-memcheck compute-sanitizer --tool memcheck --error-exitcode 9 "${vyre[@]}" run examples/hello.vslot --backend cuda
  step sanitizer-racecheck compute-sanitizer --tool racecheck --error-exitcode 9 "${vyre[@]}" run examples/hello.vslot --backend cuda
  # A scan under each tool, on a small generated tree. memcheck checks a kernel's accesses against the
  # allocations made before it launched, and a scan allocates its DFA table, chunk and hit buffers after:
  # -Dvyre.cuda.preLaunchArena cuts them from memory reserved before the launch (docs/PROTOCOL.md,
  # "Resources allocated before the launch"). The counts must equal the reference backend's.
  for tool in memcheck racecheck; do
    STEP_TIMEOUT=${SANITIZER_SCAN_TIMEOUT:-400} step "sanitizer-scan-$tool" bash -c 'set -eo pipefail; export VYRE_SERVICE=off; d=$(mktemp -d); trap "rm -rf $d" EXIT
      mkdir $d/tree; head -c $(( ${SANITIZER_SCAN_BYTES:-2000000} * 3 / 4 )) /dev/urandom | base64 -w 100 > $d/text
      (cd $d/tree && split -b 100000 -a 3 ../text part.)
      patterns=(-e ab -e xyz -e Q9 -e vyre)
      "${@:2}" -jar vyre-cli/target/vyre.jar scan --backend reference -c "${patterns[@]}" $d/tree | sort > $d/reference
      # The tool reports to its own log: on stdout its lines would mix with the counts.
      compute-sanitizer --tool "$1" --error-exitcode 9 --log-file $d/sanitizer.log "${@:2}" -Dvyre.cuda.preLaunchArena=256m \
        -jar vyre-cli/target/vyre.jar scan --backend cuda --verbose -c "${patterns[@]}" $d/tree 2>$d/err | sort > $d/cuda \
        || { cat $d/err; tail -60 $d/sanitizer.log; exit 9; }
      tail -1 $d/sanitizer.log; grep "vyre scan: kernel:" $d/err; grep -q "reserved before the launch" $d/err
      cmp $d/reference $d/cuda
      echo "sanitizer-scan-$1: $(wc -l < $d/cuda) files, $(awk -F: '"'"'{n += $NF} END {print n}'"'"' $d/cuda) matches, $1 clean, counts equal to the reference backend'"'"'s"' \
      _ "$tool" "${jvm[@]}"
  done
  # DFA_STEP over a promoted table (megakernel/dfa.cu): each block's copy in shared memory, loaded and read by lanes
  # that synchronize with atomics and fences, not barriers; the test's resources come from the pre-launch arena.
  for tool in memcheck racecheck; do
    STEP_TIMEOUT=${SANITIZER_DFA_TIMEOUT:-400} step "sanitizer-promoted-dfa-$tool" compute-sanitizer --tool "$tool" \
      --error-exitcode 9 "${jvm[@]}" -Dvyre.cuda.preLaunchArena=256m -Dvyre.test.patienceSeconds=360 -jar "$launcher" \
      "${junit_args[@]}" --config=junit.jupiter.execution.timeout.test.method.default=390s \
      --select-method dev.vyre.cuda.CudaDfaStepGpuTest#aPromotedTableFindsEveryMatchTheTableFinds
  done
  # The same copy filled and read in scripts/kernel-lab's dfa_lab (scripts/kernel-lab/dfa-lab-build.sh, carried as
  # vyre-cli/target/dfalab), cold and warm, on 16 MiB: racecheck and memcheck of the fill's protocol alone.
  if [ -x vyre-cli/target/dfalab/dfa_lab ]; then
    for tool in memcheck racecheck; do
      step "sanitizer-dfa-lab-$tool" bash -c 'set -eo pipefail; d=$(mktemp -d); trap "rm -rf $d" EXIT
        "${@:2}" -cp vyre-cli/target/vyre.jar:vyre-cli/target/dfalab DfaLabInput $d 100
        compute-sanitizer --tool "$1" --error-exitcode 9 vyre-cli/target/dfalab/dfa_lab $d 16m 256 | tail -20' \
        _ "$tool" "$java"
    done
  fi
  step sanitizer-frontier compute-sanitizer --tool memcheck --error-exitcode 9 "${jvm[@]}" -jar "$launcher" "${junit_args[@]}" --select-method dev.vyre.cuda.graph.CudaFrontierGpuTest#aSmallTraversalOfEachKind
else
  echo "== sanitizer: compute-sanitizer not found, skipped"
fi
# A run recorded on the GPU (EPOCH per record, fences in flight), its log read back, and re-run on
# the CPU and compared word for word (docs/DESIGN.md, 'One protocol, two backends'); then one recorded
# on the CPU re-run on the GPU.
step record-replay bash -c '"${@:2}" run --backend cuda --record "$1/run.vrrl" examples/hello.vslot && "${@:2}" replay "$1/run.vrrl"; rc=$?; rm -f "$1"/run.vrrl*; exit $rc' _ "$out" "${vyre[@]}"
step rerun-across-backends bash -c 'set -e; trap '\''rm -f "$1"/gpu.vrrl* "$1"/cpu.vrrl*'\'' EXIT
  "${@:2}" run --backend cuda --record "$1/gpu.vrrl" examples/rerun.vslot >/dev/null || [ $? -eq 1 ]
  "${@:2}" replay "$1/gpu.vrrl" --rerun --backend reference
  "${@:2}" run --backend reference --record "$1/cpu.vrrl" examples/rerun.vslot >/dev/null || [ $? -eq 1 ]
  "${@:2}" replay "$1/cpu.vrrl" --rerun --backend cuda' _ "$out" "${vyre[@]}"
step bench-dispatch "${vyre[@]}" bench dispatch --backend cuda --runs "${DISPATCH_RUNS:-3}" --json "$out/dispatch.json"
step bench-io "${vyre[@]}" bench io --backend cuda --size 268435456 --json "$out/io.json"
step bench-scan "${vyre[@]}" bench scan --backend auto --runs 3 --json "$out/scan.json"
step bench-adapt "${vyre[@]}" bench adapt --backend cuda --workloads round_trips,density,cost,promotion --json "$out/adapt.json"
# The hot table over a corpus in device memory: 4 GiB, so that each of its scans runs long enough to time.
step bench-adapt-resident "${vyre[@]}" bench adapt --backend cuda --workloads resident --corpus-size 4294967296 \
  --json "$out/adapt-resident.json"
# The scan loads with one loop at a time, to tell the worker-group loop's cost on a scan from the promotion loop's.
step bench-adapt-loops bash -c 'set -e; for loop in workers promotion; do "${@:2}" bench adapt --backend cuda \
  --workloads density,promotion --loops $loop --json "$1/adapt-$loop.json"; done' _ "$out" "${vyre[@]}"
# A corpus held in device memory (vyre serve --resident), counted in DFA_STEP's count mode: 4 GiB and 10 GiB with
# 100 literals, and 4 GiB where three one-letter literals match about a quarter of all bytes (issue #24: >= 300 GB/s
# per scan on >= 10 GB). Each scan prints its split; the last line compares the counts with a page-cache scan's.
step bench-resident "${vyre[@]}" bench resident --backend cuda --size 4294967296 --patterns 100 --runs 3
STEP_TIMEOUT=${RESIDENT_TIMEOUT:-400} step bench-resident-10g "${vyre[@]}" bench resident --backend cuda \
  --size 10737418240 --patterns 100 --runs 3
step bench-resident-dense "${vyre[@]}" bench resident --backend cuda --size 4294967296 --patterns 100 \
  --dense-letters 3 --runs 3
# `vyre graph bfs` and `cc` write the same files on both backends (the output contract).
step graph-cli-parity bash -c 'set -e; d=$(mktemp -d); trap "rm -rf $d" EXIT
  "${@:1}" graph gen kron --scale 16 -o $d/k.mtx; "${@:1}" graph gen grid --rows 300 --cols 300 -o $d/g.mtx
  for g in k g; do for b in cuda reference; do
    "${@:1}" graph bfs $d/$g.mtx --source 1 --backend $b -o $d/$g.bfs.$b >/dev/null
    "${@:1}" graph cc $d/$g.mtx --backend $b -o $d/$g.cc.$b >/dev/null
  done; cmp $d/$g.bfs.cuda $d/$g.bfs.reference; cmp $d/$g.cc.cuda $d/$g.cc.reference; done
  "${@:1}" graph bfs $d/k.mtx --source 1 --backend cuda --verbose 2>&1 >/dev/null | tail -4' _ "${vyre[@]}"
# The frontier engine against per-level launches, the reference backend on all cores and a serial BFS.
STEP_TIMEOUT=${GRAPH_TIMEOUT:-480} step bench-graph "${vyre[@]}" bench graph --scale "${GRAPH_SCALE:-23}" --json "$out/graph.json"
# Every GPU of the host (docs/MULTI-GPU.md), on a machine with two or more (nvidia-h100-x2): kernels on each device
# at once, the sharded scan job against one kernel (ShardedScanJobTest on CUDA), `vyre scan --devices all` against
# `--device 0` on a generated tree in every output mode (cmp), and the scaling bench with the host's ceilings.
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
if [ "${gpus:-0}" -ge 2 ]; then
  step multi-gpu-tests "${jvm[@]}" -jar "$launcher" "${junit_args[@]}" --select-class dev.vyre.cuda.CudaMultiDeviceGpuTest
  step multi-gpu-sharded-scan "${jvm[@]}" -Dvyre.test.backend=cuda -jar "$launcher" "${junit_args[@]}" --select-class dev.vyre.reference.ShardedScanJobTest --select-class dev.vyre.reference.LanePublisherTest
  step multi-gpu-scan-parity bash -c 'set -e; d=$(mktemp -d); trap "rm -rf $d" EXIT; mkdir $d/tree
    base64 -w 100 /dev/urandom | head -c 100000000 > $d/text
    (cd $d/tree && head -c 6000000 ../text | split -b 3000 -a 4 - small. && split -n 3 -a 1 ../text big.)
    for mode in "" -c -l "-m 5" --json "-c -m 3"; do
      "${@:1}" scan --backend cuda $mode -e ab -e xyz -e Q9 -e vyre --device 0 $d/tree > $d/one || [ $? -eq 1 ]
      "${@:1}" scan --backend cuda $mode -e ab -e xyz -e Q9 -e vyre --devices all $d/tree > $d/all || [ $? -eq 1 ]
      cmp $d/one $d/all; echo "vyre scan ${mode:-(lines)}: --devices all = --device 0 ($(wc -l < $d/one) lines)"
    done
    "${@:1}" scan --backend cuda --verbose -c -e ab --devices all $d/tree 2>&1 >/dev/null | grep -E "kernel:|GB/s"' _ "${vyre[@]}"
  STEP_TIMEOUT=${DEVICES_TIMEOUT:-480} step bench-scan-devices "${vyre[@]}" bench scan --backend cuda --devices all --no-grep \
    --runs "${DEVICES_RUNS:-3}" --size "${DEVICES_SIZE:-4294967296}" --json "$out/scan-devices.json"
else
  echo "== multi-gpu: skipped, ${gpus:-0} GPU(s) visible to nvidia-smi (needs 2 or more, e.g. nvidia-h100-x2)"
fi
# vyre scan against ripgrep on a real tree (TREE=DIR; RG=path to rg, with its libpcre2 on LD_LIBRARY_PATH), or the
# tree scripts/device-pack.sh packed (above): a tree of real sources does not fit one call's carry beside .jre
# unless both travel as xz archives.
# Through the ./vyre launcher, as a user runs it (its JVM options and ahead-of-time caches): the carried jar is made
# newer than the copied sources so that it does not build, and a first call makes the caches before the timing.
if [ -n "${TREE:-}" ]; then
  touch vyre-cli/target/vyre.jar
  export JAVA_HOME
  JAVA_HOME=$(cd "$(dirname "$java")/.." && pwd)
  ./vyre --version >/dev/null
  # The launcher's cache maker (started by that first call) marks its work with vyre-*.making; until it is done
  # the caches and vyre-client it leaves are older than the touched jar and the launcher takes none of them.
  for _ in $(seq 180); do compgen -G 'vyre-cli/target/vyre-*.making' >/dev/null || break; sleep 1; done
  ls vyre-cli/target/*.aot >"$out/aot.txt" 2>&1
  STEP_TIMEOUT=${TREE_TIMEOUT:-400} step bench-tree env PATH="$(dirname "${RG:-rg}"):$PATH" ./vyre bench tree \
    --runs "${TREE_RUNS:-5}" --json "$out/tree.json" "$TREE"
  # The tree's small files read by the scan's thread alone (--pack-readers 0) and by pack readers (auto), one-shot on
  # the GPU, alternating: the scan's own time (--verbose) and where its thread waited; the counts must be equal.
  step tree-pack-readers bash -c 'set -e; tree=$1; shift; p=$(mktemp); trap "rm -f $p $p.*" EXIT
    find "$tree" -name "*.java" -size +2k | head -2000 | xargs -n 200 grep -ohE "\b[A-Z][A-Za-z]{7,}\b" 2>/dev/null \
      | sort | uniq -c | sort -rn | awk "NR % 7 == 0 {print \$2}" | head -100 > $p
    for run in 1 2 3; do for readers in 0 auto; do
      "$@" scan --no-server --backend cuda --verbose --count --pack-readers $readers -f $p "$tree" 2>$p.err >$p.$readers
      echo "pack readers $readers, run $run: $(grep -E "in [0-9.]+ s|waiting" $p.err | sed "s/vyre scan: //" | tr "\n" " ")"
    done; cmp $p.0 $p.auto; done; echo "counts equal with and without pack readers"' _ "$TREE" "${vyre[@]}"
fi
grep -h "^kill-gpu-process:" "$out/kill-gpu-process.log" 2>/dev/null
grep -h "^exactly-once:" "$out/exactly-once-100m.log" 2>/dev/null
grep -h "^sanitizer-scan-" "$out"/sanitizer-scan-*.log 2>/dev/null
tail -25 "$out/bench-scan.log" 2>/dev/null
cat "$out/multi-gpu-scan-parity.log" 2>/dev/null
grep -E "GB/s|devices|ingest|host-to-device|_vs_|agree" "$out/bench-scan-devices.log" 2>/dev/null
tail -40 "$out/bench-graph.log" 2>/dev/null
cat "$out/bench-tree.log" "$out/tree-pack-readers.log" 2>/dev/null
cat "$out/bench-dispatch.log" 2>/dev/null | tail -30
tail -25 "$out/bench-io.log" 2>/dev/null
tail -25 "$out/bench-adapt.log" 2>/dev/null
grep -hE "^(kernel|loaded|resident)" "$out"/bench-resident*.log 2>/dev/null
failed_steps="${names[*]:-}"
echo "gpu-check: $passed passed, $failed failed${failed_steps:+ ($failed_steps)} on $(cat "$out/device.txt" 2>/dev/null | head -1)"
[ "$failed" -eq 0 ]
