#!/bin/sh
# Counts instructions per turn of the length benchmark's looping flow under callgrind: builds
# the toggle addon, runs bench/callgrind/length-instructions.ts with collection on only around
# each measured block, then prints instructions per turn by turn number and round.
# CALLGRIND_CACHE=1 measures the actor cache hit (default: restore every turn). Takes minutes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/callgrind.sh"
# shellcheck disable=SC2046 # the command's words are meant to split
CALLGRIND_ADDON="$work/toggle.node" $(callgrind_command "$work") \
  node --single-threaded --expose-gc --import tsx bench/callgrind/length-instructions.ts \
  2>"$work/valgrind.log" || { cat "$work/valgrind.log" >&2; exit 1; }
callgrind_per_turn "$work" | sort -t= -k2,2n -k3,3n
