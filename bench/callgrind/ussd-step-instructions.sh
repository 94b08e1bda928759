#!/bin/sh
# Counts the instructions of each turn of the USSD motor purchase, turn by turn, for this tree's
# insurechat and another checkout's (CALLGRIND_MOTOR_AGAINST=<its root>, with its own
# node_modules): runs bench/callgrind/ussd-step-instructions.ts, prints both journeys' screens by
# step, then per step and server the median and the minimum instructions over the journeys
# (CALLGRIND_STEP_JOURNEYS, default 10), and each journey's sum of the minimums. Needs the local
# Redis. Takes about 10 minutes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/callgrind.sh"
CALLGRIND_ADDON="$work/toggle.node" CALLGRIND_WRAP="$(callgrind_command "$work")" \
  node --import tsx bench/callgrind/ussd-step-instructions.ts 2>"$work/run.log" ||
  { tail -40 "$work/run.log" >&2; exit 1; }
for file in "$work"/out.*.*; do
  label=$(sed -n 's/^desc: Trigger: Client Request: //p' "$file")
  echo "$label $(sed -n 's/^summary: //p' "$file")"
done | awk '
  { split($1, s, "="); split($2, v, "="); key = v[2] " " s[2]; n[key]++; x[key, n[key]] = $4
    steps[v[2]] = (s[2] + 1 > steps[v[2]]) ? s[2] + 1 : steps[v[2]] }
  function sorted(key, count,   i, j, t) {
    for (i = 2; i <= count; i++)
      for (j = i; j > 1 && x[key, j - 1] > x[key, j]; j--) { t = x[key, j]; x[key, j] = x[key, j - 1]; x[key, j - 1] = t }
  }
  END {
    for (server in steps) {
      total = 0
      for (step = 0; step < steps[server]; step++) {
        key = server " " step; c = n[key]; sorted(key, c)
        median = c % 2 ? x[key, (c + 1) / 2] : (x[key, c / 2] + x[key, c / 2 + 1]) / 2
        printf "%s step %d: median %d, minimum %d instructions (%d journeys)\n", server, step, median, x[key, 1], c
        total += x[key, 1]
      }
      printf "%s: %d turns, sum of the minimums %d, %d per turn\n", server, steps[server], total, total / steps[server]
    }
  }'
