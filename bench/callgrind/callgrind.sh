# Sourced by the callgrind scripts (not run), after they set `here` to this folder: makes a
# scratch folder `work` (removed on exit unless CALLGRIND_KEEP=1), builds the toggle addon into $work/toggle.node
# against the running node's N-API headers, and moves to the repository root. The valgrind
# command line and the reading of the dumps live here once too.
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
# CALLGRIND_KEEP=1 keeps the dumps for callgrind_annotate and says where they are.
if [ "${CALLGRIND_KEEP:-}" = 1 ]; then
  trap 'echo "dumps kept in $work" >&2' EXIT
else
  trap 'rm -rf "$work"' EXIT
fi
include=$(dirname "$(dirname "$(command -v node)")")/include/node
[ -f "$include/node_api.h" ] || include=/usr/include/node
cc -O2 -shared -fPIC -I"$include" "$here/toggle.c" -o "$work/toggle.node"
cd "$root"

# The valgrind command a measured process runs under, its dumps written to $1/out.<pid>.<n>:
# collection stays off until the addon switches it on around a measured block.
callgrind_command() {
  echo valgrind --tool=callgrind --collect-atstart=no --smc-check=all-non-file \
    --callgrind-out-file="$1/out.%p"
}

# One line per dump in $1, "<label> <instructions per turn> <the same without V8's optimising
# compiler>": the label the measured process gave its dump, which ends in turns=<turns in the
# block>. The servers run --single-threaded, so Turbofan compiles on the main thread inside the
# blocks (about half of a block's instructions); in production it runs on a background thread.
# The second figure leaves out what Runtime_CompileOptimized did (inclusive), from the dump's own
# call graph, so it counts the turns' own code (with lazy compiling and GC still in it).
callgrind_per_turn() {
  for file in "$1"/out.*.*; do
    label=$(sed -n 's/^desc: Trigger: Client Request: //p' "$file")
    total=$(sed -n 's/^summary: //p' "$file")
    turns=${label##*turns=}
    optimiser=$(callgrind_annotate --inclusive=yes --threshold=100 --auto=no "$file" 2>/dev/null |
      awk '/Runtime_CompileOptimized/ { gsub(",", "", $1); print $1; exit }')
    echo "$label $((total / turns)) $(((total - ${optimiser:-0}) / turns))"
  done
}

# Reads `callgrind_per_turn`'s lines (on stdin) of two servers named $1 and $2, blocks paired by
# round: prints them sorted, then each server's median instructions per turn, $1 ÷ $2 (median of
# the rounds' ratios, min, max, and the ratio of the sums) and $1 − $2 per turn (median of the
# rounds' differences and of the sums), for all instructions and without the optimising compiler.
callgrind_compare() {
  sort -t= -k2,2n -k3,3 | awk -v a="$1" -v b="$2" '
  { print; split($1, r, "="); split($2, s, "="); per[r[2] "," s[2]] = $4; own[r[2] "," s[2]] = $5; n[r[2]] = 1 }
  function median(list, count,   i, j, t) {
    for (i = 2; i <= count; i++)
      for (j = i; j > 1 && list[j - 1] > list[j]; j--) { t = list[j]; list[j] = list[j - 1]; list[j - 1] = t }
    return count % 2 ? list[(count + 1) / 2] : (list[count / 2] + list[count / 2 + 1]) / 2
  }
  function report(x, y, count, what,   k, i, ratio, diff, sx, sy) {
    for (i = 1; i <= count; i++) {
      ratio[i] = x[i] / y[i]; diff[i] = x[i] - y[i]; sx += x[i]; sy += y[i]
    }
    printf "%s: %s %d, %s %d instructions per turn (medians of %d blocks)\n", what, a, median(x, count), b, median(y, count), count
    m = median(ratio, count)
    printf "%s: %s ÷ %s %.3f median of rounds (min %.3f, max %.3f), %.3f of the sums\n", what, a, b, m, ratio[1], ratio[count], sx / sy
    printf "%s: %s − %s %d per turn median of rounds, %d of the sums\n", what, a, b, median(diff, count), (sx - sy) / count
  }
  END {
    for (k in n) {
      count++
      xa[count] = per[k "," a]; xb[count] = per[k "," b]
      oa[count] = own[k "," a]; ob[count] = own[k "," b]
    }
    report(xa, xb, count, "all instructions")
    report(oa, ob, count, "without the optimising compiler")
  }'
}
