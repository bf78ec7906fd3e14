#!/usr/bin/env bash
# Packs what a GPU machine needs beside the jars into vyre-cli/target/pack/ (ignored by git), small enough for
# one call of the device tool (64 MiB carried in all): .jre as an xz archive, and optionally source trees with
# ripgrep for `vyre bench tree`. scripts/gpu-check.sh unpacks them on the machine:
#
#   ./mvnw -q -DskipTests package && scripts/make-jre.sh
#   scripts/device-pack.sh                                  # the JRE alone
#   scripts/device-pack.sh /tmp/jdk25 /tmp/jdk17            # and a tree made of these directories
#
# then carry vyre-cli/target/pack, vyre-cli/target/vyre.jar (and the test jars and gpu-lib for the GPU tests), and
# run scripts/gpu-check.sh there; with a tree in the pack it runs the tree bench on it. The tree's files are
# archived in the order of their paths inside each directory, so that two versions of the same sources lie side
# by side and compress as one (the JDK 25 and 17 sources, 30,356 files: 23 MB).
set -euo pipefail
root=$(git rev-parse --show-toplevel)
pack=$root/vyre-cli/target/pack
[ -x "$root/.jre/bin/java" ] || { echo "device-pack: no .jre. Fix: run scripts/make-jre.sh first" >&2; exit 1; }
rm -rf "$pack"
mkdir -p "$pack"
tar -C "$root" -cf - .jre | xz -6 -T0 >"$pack/jre.tar.xz"
if [ $# -gt 0 ]; then
  rg=$(command -v rg) || { echo "device-pack: no rg on this machine. Fix: apt-get install ripgrep" >&2; exit 1; }
  stage=$(mktemp -d)
  trap 'rm -rf "$stage"' EXIT
  mkdir "$stage/tree"
  for dir in "$@"; do
    [ -d "$dir" ] || { echo "device-pack: $dir is not a directory. Fix: give source directories" >&2; exit 1; }
    [ ! -e "$stage/tree/$(basename "$dir")" ] || { echo "device-pack: two directories named $(basename "$dir"). Fix: rename one" >&2; exit 1; }
    ln -s "$(cd "$dir" && pwd)" "$stage/tree/$(basename "$dir")"
  done
  # tree/<dir>/<path>, sorted by <path> first.
  (cd "$stage" && find -L tree -type f) | awk '{i = index(substr($0, 6), "/"); print substr($0, 6 + i) "\t" $0}' \
    | sort | cut -f2 >"$stage/list"
  tar -C "$stage" -h -cf - -T "$stage/list" | xz -9 -T0 >"$pack/tree.tar.xz"
  cp "$rg" "$pack/rg"
  lib=$(ldd "$rg" | awk '/libpcre2-8/ {print $3}')
  [ -z "$lib" ] || cp "$lib" "$pack/"
fi
du -sh "$pack"/*
