#!/usr/bin/env bash
# The benchmark suite recorded in docs/benchmarks.md: every primitive on the GPU at the sizes
# the issue names, then the same sizes through PyTorch/CuPy (CUB, cuBLAS) for the ratios, and the
# plots. Run from the repository root after building into build/:
#   bash apps/cl-bench/gpu_suite.sh OUTDIR
# Writes OUTDIR/results.json (every cl-bench record), OUTDIR/tables.txt (cl-bench's tables),
# OUTDIR/theirs.json and OUTDIR/compare.txt (the PyTorch/CuPy side by side), OUTDIR/plots/*.png.
set -uo pipefail
out=${1:?usage: gpu_suite.sh OUTDIR}
mkdir -p "$out/parts" "$out/plots"
bench=./build/apps/cl-bench/cl-bench
big=2^20,2^22,2^24,2^26,2^28
status=0

run() {  # run NAME ARGS...: one cl-bench call, its table appended to tables.txt
  local name=$1
  shift
  echo "== cl-bench $*" | tee -a "$out/tables.txt"
  "$bench" "$@" --runs 10 --json "$out/parts/$name.json" 2>>"$out/progress.log" | tee -a "$out/tables.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
}

run copy copy
run scan-default scan --variant default,reduce-then-scan,lookback --dtype all --sizes "2^16,2^18,$big"
run scan-seed scan --variant naive,blelloch,blocks,blocks-vec --dtype int32 --sizes 2^16,2^20,2^24,2^26
run reduce reduce --variant default --dtype all --sizes "2^16,$big"
run reduce-seed reduce --variant two-pass,tree --dtype int32-sum --sizes 2^16,2^20,2^24,2^28
run compact compact --sizes 2^20,2^24,2^28
run sort-default sort --variant default,radix,radix-tiles --dtype all --sizes "2^16,$big"
run sort-seed sort --variant bitonic,bitonic-fused-2,bitonic-fused-4,bitonic-fused-8,bitonic-fused-16,radix-private,radix-local,radix-local-vec --sizes 2^16,2^20,2^24
run matmul matmul --sizes 256,512,1024,2048,4096,8192
run random random --sizes 2^20,2^24,2^28

python3 - "$out" <<'PY'
import glob, json, sys
out = sys.argv[1]
records = []
for path in sorted(glob.glob(out + "/parts/*.json")):
    with open(path) as f:
        records += json.load(f)
with open(out + "/results.json", "w") as f:
    json.dump(records, f, indent=1)
print(f"{len(records)} records in {out}/results.json")
PY
python3 apps/cl-bench/compare_torch.py "$out/results.json" --json "$out/theirs.json" 2>&1 | tee "$out/compare.txt"
python3 apps/cl-bench/plot_bench.py "$out/results.json" "$out/theirs.json" --out "$out/plots" || status=1
exit $status
