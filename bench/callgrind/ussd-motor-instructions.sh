#!/bin/sh
# Counts instructions per turn of the USSD motor journey for insurechat and for the same-work
# floor under callgrind, in one run: builds the toggle addon, runs
# bench/callgrind/ussd-motor-instructions.ts, which starts each server under callgrind with
# collection on only around its measured blocks (the blocks alternate between the two), then
# prints instructions per turn by round and server, and insurechat ÷ floor. Needs the local
# Redis (REDIS_URL, default redis://127.0.0.1:6379). Takes about 20 minutes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/callgrind.sh"
CALLGRIND_ADDON="$work/toggle.node" CALLGRIND_WRAP="$(callgrind_command "$work")" \
  node --import tsx bench/callgrind/ussd-motor-instructions.ts 2>"$work/run.log" ||
  { tail -40 "$work/run.log" >&2; exit 1; }
callgrind_per_turn "$work" | sort -t= -k2,2n -k3,3 | awk '
  { print; split($1, r, "="); split($2, s, "="); per[r[2] "," s[2]] = $4; own[r[2] "," s[2]] = $5; n[r[2]] = 1 }
  function median(list, count,   i, j, t) {
    for (i = 2; i <= count; i++)
      for (j = i; j > 1 && list[j - 1] > list[j]; j--) { t = list[j]; list[j] = list[j - 1]; list[j - 1] = t }
    return count % 2 ? list[(count + 1) / 2] : (list[count / 2] + list[count / 2 + 1]) / 2
  }
  END {
    for (k in n) {
      count++; ratio[count] = per[k ",insurechat"] / per[k ",floor"]
      ownRatio[count] = own[k ",insurechat"] / own[k ",floor"]
      ic[count] = per[k ",insurechat"]; fl[count] = per[k ",floor"]
      oic[count] = own[k ",insurechat"]; ofl[count] = own[k ",floor"]
      sumIc += per[k ",insurechat"]; sumFl += per[k ",floor"]
      sumOic += own[k ",insurechat"]; sumOfl += own[k ",floor"]
    }
    printf "insurechat %d, floor %d instructions per turn (medians of %d blocks)\n", median(ic, count), median(fl, count), count
    m = median(ratio, count)
    printf "insurechat ÷ floor: %.3f median of rounds (min %.3f, max %.3f), %.3f of the sums\n", m, ratio[1], ratio[count], sumIc / sumFl
    printf "without the optimising compiler: insurechat %d, floor %d per turn (medians)\n", median(oic, count), median(ofl, count)
    m = median(ownRatio, count)
    printf "insurechat ÷ floor without it: %.3f median of rounds (min %.3f, max %.3f), %.3f of the sums\n", m, ownRatio[1], ownRatio[count], sumOic / sumOfl
  }'
