#!/usr/bin/env bash
# The Spark job on GPUs, against vyre scan on the same corpus (docs/SPARK.md, "On a GPU machine").
# Build here:  ./mvnw -q -DskipTests package, then vyre-spark's class path, Spark included, into one folder
# and a Java runtime with the modules Spark needs (docs/SPARK.md, "On a GPU machine", has the commands).
# Run there from the repository root:  scripts/spark-gpu.sh CORPUS PATTERN...  (JAVA and SPARK_JARS override
# target/jre-spark/bin/java and target/sjl)
# EXECUTORS=0 (the default) runs the example job in local mode: its executor is the driver's JVM, given GPU 0
# through Spark's resource scheduling and the shipped discovery script; vyre scan then runs on one GPU.
# EXECUTORS=N runs it on a local-cluster master of N workers, each launching an executor JVM given its own
# GPU (a discovery script that hands each worker the next one, since the workers of one host do not
# coordinate), against vyre scan --devices all. Prints both match counts and each run's wall time, and
# exits non-zero when the counts differ. CACHE=DIR keeps the kernels NVRTC compiled (the pipeline cache) for the
# next run. BACKEND=reference runs the same on the CPU (to try the script without a GPU: Spark still hands out the
# GPU addresses, which that backend ignores).
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${1:?usage: scripts/spark-gpu.sh CORPUS PATTERN...}
shift
[ $# -gt 0 ] || { echo "spark-gpu: no pattern given"; exit 2; }
java=${JAVA:-target/jre-spark/bin/java}
jars=${SPARK_JARS:-target/sjl}
executors=${EXECUTORS:-0}
backend=${BACKEND:-cuda}
[ -d "$jars" ] || { echo "spark-gpu: no $jars (see this script's header)"; exit 2; }
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64"
opens=$(sed -n 's:.*<spark.driver.javaOptions>\(.*\)</spark.driver.javaOptions>.*:\1:p' vyre-spark/pom.xml)
work=$(mktemp -d)
trap '[ -n "${KEEP_WORK:-}" ] || rm -rf "$work"' EXIT
cache=${CACHE:-$work/pipeline-cache}
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
# shellcheck disable=SC2206
common=(--enable-native-access=ALL-UNNAMED $opens -Dvyre.cache.dir="$cache" -cp "$jars/*" -Dspark.vyre.backend="$backend"
  -Dspark.ui.enabled=false)
if [ "$executors" -eq 0 ]; then
  cp vyre-spark/src/main/resources/dev/vyre/spark/discover-gpus.sh "$work/discover.sh"
  mode=(-Dspark.master='local[8]' -Dspark.driver.resource.gpu.amount=1
    -Dspark.driver.resource.gpu.discoveryScript="$work/discover.sh")
  devices=(--device 0)
else
  printf '%s\n' '#!/usr/bin/env bash' 'set -euo pipefail' 'exec 9>"$0.lock"; flock 9' \
    'n=$(cat "$0.next" 2>/dev/null || echo 0); echo $((n + 1)) > "$0.next"' \
    'echo "{\"name\":\"gpu\",\"addresses\":[\"$n\"]}"' > "$work/discover.sh"
  # The workers launch executors from $SPARK_HOME/jars with $JAVA_HOME's java.
  mkdir -p "$work/spark-home"
  ln -s "$(cd "$jars" && pwd)" "$work/spark-home/jars"
  export SPARK_HOME="$work/spark-home" SPARK_SCALA_VERSION=2.13
  JAVA_HOME=$(cd "$(dirname "$java")/.." && pwd)
  export JAVA_HOME
  mode=(-Dspark.master="local-cluster[$executors,8,16384]" -Dspark.worker.resource.gpu.amount=1
    -Dspark.worker.resource.gpu.discoveryScript="$work/discover.sh" -Dspark.executor.resource.gpu.amount=1
    -Dspark.task.resource.gpu.amount=0.125
    "-Dspark.executor.extraJavaOptions=--enable-native-access=ALL-UNNAMED $opens -Dvyre.cache.dir=$cache")
  devices=(--devices all)
fi
chmod +x "$work/discover.sh"
[ "$backend" = cuda ] || devices=()
start=$(date +%s%N)
"$java" "${common[@]}" "${mode[@]}" dev.vyre.spark.ScanExample "$corpus" "$@" | tee "$work/spark.out"
echo "spark-gpu: the Spark job took $(ms "$start") ms"
if [ "$executors" -gt 0 ]; then
  grep -h 'vyre: executor' "$work"/spark-home/work/*/*/stderr || true
fi
spark=$(sed -n 's/^\([0-9]*\) match(es)$/\1/p' "$work/spark.out")
args=()
for pattern in "$@"; do args+=(-e "$pattern"); done
start=$(date +%s%N)
single=$("$java" --enable-native-access=ALL-UNNAMED -Dvyre.cache.dir="$cache" -jar vyre-cli/target/vyre.jar scan \
  --backend "$backend" "${devices[@]}" -c "${args[@]}" "$corpus" | awk -F: '{ n += $NF } END { print n + 0 }')
echo "spark-gpu: vyre scan${devices[*]:+ ${devices[*]}} took $(ms "$start") ms"
echo "spark-gpu: Spark job $spark match(es), vyre scan $single"
[ "$spark" = "$single" ]
