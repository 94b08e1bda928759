#!/bin/sh
# Counts instructions per turn of the length benchmark's looping flow under callgrind: builds
# the toggle addon, runs bench/callgrind/length-instructions.ts with collection on only around
# each measured block, then prints instructions per turn by turn number and round.
# CALLGRIND_CACHE=1 measures the actor cache hit (default: restore every turn). Takes minutes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
include=$(dirname "$(dirname "$(command -v node)")")/include/node
[ -f "$include/node_api.h" ] || include=/usr/include/node
cc -O2 -shared -fPIC -I"$include" "$here/toggle.c" -o "$work/toggle.node"
cd "$root"
CALLGRIND_ADDON="$work/toggle.node" valgrind --tool=callgrind --collect-atstart=no \
  --smc-check=all-non-file --callgrind-out-file="$work/out.%p" \
  node --single-threaded --expose-gc --import tsx bench/callgrind/length-instructions.ts \
  2>"$work/valgrind.log" || { cat "$work/valgrind.log" >&2; exit 1; }
for file in "$work"/out.*.*; do
  label=$(sed -n 's/^desc: Trigger: Client Request: //p' "$file")
  total=$(sed -n 's/^summary: //p' "$file")
  turns=${label##*turns=}
  echo "$label $((total / turns))"
done | sort -t= -k2,2n -k3,3n
