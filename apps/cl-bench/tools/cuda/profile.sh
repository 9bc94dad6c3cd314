#!/bin/bash
# Profiles one pass of the sort with Nsight Compute (docs/sort.md, "Profiling a pass with Nsight
# Compute"), on the GPU machine, from the repository root:
#   apps/cl-bench/tools/cuda/profile.sh OUT LABEL [WGx]ITEMS WITH_VALUES [N] [MAX_REGISTERS] [OPTIONS...]
# The tile is WGxITEMS (e.g. 512x16) or ITEMS (work-groups of 256). OPTIONS are extra kernel
# build options (e.g. -DFULL_TILES=1; -DVALUES_LOCAL_WORDS=24576 for Hopper's key-value tiles).
# Needs sort-probe built (SORT_PROBE, default /tmp/b/apps/cl-bench/sort-probe), nvcc (NVCC) and
# ncu (NCU). Writes OUT/LABEL.ptx, .ncu-rep, .txt (every section), -sass.csv (per instruction)
# and prints the launch times and ncu_phases.py's table.
set -euo pipefail
if [ $# -lt 4 ]; then
  sed -n '2,9p' "$0" >&2
  exit 2
fi
out=$1 label=$2 tile=$3 with_values=$4 n=${5:-16777216} max_registers=${6:-64}
case $tile in
  *x*) group=${tile%x*} items=${tile#*x} ;;
  *) group=256 items=$tile ;;
esac
shift $(($# < 6 ? $# : 6))
here=$(cd "$(dirname "$0")" && pwd)
probe=${SORT_PROBE:-/tmp/b/apps/cl-bench/sort-probe}
ncu=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
for tool in "$probe" "$ncu"; do
  [ -x "$tool" ] || { echo "profile.sh: $tool not found or not executable" >&2; exit 2; }
done
mkdir -p "$out"
options="-DRADIX_WG=$group -DRADIX_UNROLL_LOOPS=1 -DRANK_MATCH=2 -DLOOKBACK_WINDOW=4"
options+=" -DKEY_KIND=0 -DRADIX_ITEMS=$items -DWITH_VALUES=$with_values $*"
PTX_DIR="$out" "$probe" --wginfo "$label|$options|kernels/primitives/sort/radix.cl" |
  grep -A3 "entry function 'radix_onesweep'" | grep -E "Used|spill" || true
[ -s "$out/$label.ptx" ] || { echo "profile.sh: no PTX written to $out/$label.ptx" >&2; exit 1; }
profile=$("$here/build.sh" "$out/sort-profile")
"$profile" "$out/$label.ptx" "$tile" "$with_values" "$n" 5 "$max_registers"
# The third pass of the second sort is profiled: the launches of radix_onesweep before it are
# the first sort's four passes and two of the second's (keys only: three and one, the first pass
# being radix_onesweep_unstable).
skip=$((with_values == 1 ? 6 : 4))
"$ncu" -k 'regex:radix_onesweep$' -s "$skip" -c 1 --set full -f -o "$out/$label" \
  "$profile" "$out/$label.ptx" "$tile" "$with_values" "$n" 2 "$max_registers" | tail -1
"$ncu" --import "$out/$label.ncu-rep" --print-details all > "$out/$label.txt"
"$ncu" --import "$out/$label.ncu-rep" --page source --csv --print-source sass > "$out/$label-sass.csv"
grep -E "^    (Duration|Registers Per Thread|Achieved Occupancy|Issue Slots Busy|DRAM Throughput|Warp Cycles Per Issued Instruction)  " \
  "$out/$label.txt" | sort -u
python3 "$here/ncu_phases.py" "$out/$label-sass.csv" "$n"
