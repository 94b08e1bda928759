#!/bin/sh
# Counts instructions per turn of a USSD cover-by-NRC look-up for insurechat's bench server with
# its limiter on the look-up's path ("limiter") and with it off ("nolimiter", BENCH_LIMITS=off),
# in one run, as ussd-motor-instructions.sh counts the motor journey (same harness, same
# CALLGRIND_* settings): prints instructions per turn by round and server, limiter ÷ nolimiter,
# and what the limiter adds per turn. Needs the local Redis (REDIS_URL, default
# redis://127.0.0.1:6379).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/callgrind.sh"
CALLGRIND_ADDON="$work/toggle.node" CALLGRIND_WRAP="$(callgrind_command "$work")" \
  node --import tsx bench/callgrind/ussd-lookup-instructions.ts 2>"$work/run.log" ||
  { tail -40 "$work/run.log" >&2; exit 1; }
callgrind_per_turn "$work" | callgrind_compare limiter nolimiter
