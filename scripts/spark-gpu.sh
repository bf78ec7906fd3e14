#!/usr/bin/env bash
# The Spark job on a GPU, against vyre scan on the same corpus (docs/SPARK.md, "On a GPU machine").
# Build here:  ./mvnw -q -DskipTests package, then vyre-spark's class path, Spark included, into one folder
# and a Java runtime with the modules Spark needs (docs/SPARK.md, "On a GPU machine", has the commands).
# Run there from the repository root:  scripts/spark-gpu.sh CORPUS PATTERN...  (JAVA and SPARK_JARS override
# target/jre-spark/bin/java and target/sjl)
# Runs the example job in local mode (its executor is the driver's JVM, given GPU 0 through Spark's
# resource scheduling and the discovery script), then vyre scan on one GPU; prints both match counts
# and exits non-zero when they differ.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${1:?usage: scripts/spark-gpu.sh CORPUS PATTERN...}
shift
[ $# -gt 0 ] || { echo "spark-gpu: no pattern given"; exit 2; }
java=${JAVA:-target/jre-spark/bin/java}
jars=${SPARK_JARS:-target/sjl}
[ -d "$jars" ] || { echo "spark-gpu: no $jars (see this script's header)"; exit 2; }
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}:/usr/local/cuda/lib64"
opens=$(sed -n 's:.*<spark.driver.javaOptions>\(.*\)</spark.driver.javaOptions>.*:\1:p' vyre-spark/pom.xml)
discover=$(mktemp)
cp vyre-spark/src/main/resources/dev/vyre/spark/discover-gpus.sh "$discover"
chmod +x "$discover"
# shellcheck disable=SC2086
"$java" --enable-native-access=ALL-UNNAMED $opens -cp "$jars/*" -Dspark.master='local[4]' \
  -Dspark.driver.resource.gpu.amount=1 -Dspark.driver.resource.gpu.discoveryScript="$discover" \
  -Dspark.vyre.backend=cuda dev.vyre.spark.ScanExample "$corpus" "$@" | tee /tmp/spark-gpu.out
spark=$(sed -n 's/^\([0-9]*\) match(es)$/\1/p' /tmp/spark-gpu.out)
args=()
for pattern in "$@"; do args+=(-e "$pattern"); done
single=$("$java" --enable-native-access=ALL-UNNAMED -jar vyre-cli/target/vyre.jar scan --backend cuda "${args[@]}" "$corpus" | wc -l)
echo "spark-gpu: Spark job $spark match(es), vyre scan $single"
[ "$spark" = "$single" ]
