#!/bin/sh
# Counts instructions per turn of the USSD motor journey for insurechat and for the same-work
# floor under callgrind, in one run: builds the toggle addon, runs
# bench/callgrind/ussd-motor-instructions.ts, which starts each server under callgrind with
# collection on only around its measured blocks (the blocks alternate between the two), then
# prints instructions per turn by round and server, insurechat ÷ floor and insurechat − floor
# (callgrind_compare). With CALLGRIND_MOTOR_AGAINST=<a checkout's root> (a worktree of an
# earlier commit, with its node_modules) the second server is that checkout's insurechat
# ("base") instead of the floor: insurechat ÷ base. Needs the local Redis (REDIS_URL, default
# redis://127.0.0.1:6379). Takes about 20 minutes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/callgrind.sh"
case "${CALLGRIND_MOTOR_AGAINST:-floor}" in
  floor) second=floor ;;
  *) second=base ;;
esac
CALLGRIND_ADDON="$work/toggle.node" CALLGRIND_WRAP="$(callgrind_command "$work")" \
  node --import tsx bench/callgrind/ussd-motor-instructions.ts 2>"$work/run.log" ||
  { tail -40 "$work/run.log" >&2; exit 1; }
callgrind_per_turn "$work" | callgrind_compare insurechat "$second"
