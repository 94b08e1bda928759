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
