#!/bin/sh
# Counts instructions per turn of the USSD motor journey for insurechat and for the same-work
# floor under callgrind, in one run: builds the toggle addon, runs
# bench/callgrind/ussd-motor-instructions.ts, which starts each server under callgrind with
# collection on only around its measured blocks (the blocks alternate between the two), then
# prints instructions per turn by round and server, insurechat ÷ floor and insurechat − floor
# (callgrind_compare). Needs the local Redis (REDIS_URL, default redis://127.0.0.1:6379). Takes
# about 20 minutes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/callgrind.sh"
CALLGRIND_ADDON="$work/toggle.node" CALLGRIND_WRAP="$(callgrind_command "$work")" \
  node --import tsx bench/callgrind/ussd-motor-instructions.ts 2>"$work/run.log" ||
  { tail -40 "$work/run.log" >&2; exit 1; }
callgrind_per_turn "$work" | callgrind_compare insurechat floor
