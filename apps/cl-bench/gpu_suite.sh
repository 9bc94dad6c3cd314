#!/usr/bin/env bash
# The benchmark suite recorded in docs/benchmarks.md: every primitive on the GPU at the sizes the
# issue names, then the same sizes through PyTorch/CuPy (CUB, cuBLAS) for the ratios, and the
# plots. Run from the repository root after building into build/:
#   bash apps/cl-bench/gpu_suite.sh OUTDIR            all groups, then the report
#   bash apps/cl-bench/gpu_suite.sh OUTDIR GROUP...   only these groups (to split a long run)
#   bash apps/cl-bench/gpu_suite.sh OUTDIR report     merge what OUTDIR/parts holds, compare, plot
# Groups: copy scan reduce compact matmul random sort sort-seed.
# Writes OUTDIR/parts/GROUP.json and OUTDIR/tables.txt as it goes; the report writes
# OUTDIR/results.json, OUTDIR/theirs.json, OUTDIR/compare.txt and OUTDIR/plots/*.png.
set -uo pipefail
out=${1:?usage: gpu_suite.sh OUTDIR [GROUP...|report]}
shift
groups=("$@")
[ ${#groups[@]} -gt 0 ] || groups=(copy scan reduce compact matmul random sort sort-seed report)
mkdir -p "$out/parts" "$out/plots"
bench=./build/apps/cl-bench/cl-bench
big=2^20,2^24,2^26,2^28
status=0

run() {  # run GROUP ARGS...: one cl-bench call, its table appended to tables.txt
  local group=$1
  shift
  echo "== cl-bench $*" | tee -a "$out/tables.txt"
  "$bench" "$@" --json "$out/parts/$group.json" 2>>"$out/progress.log" | tee -a "$out/tables.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
}

report() {
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
  python3 apps/cl-bench/compare_torch.py "$out/results.json" --json "$out/theirs.json" 2>&1 |
    tee "$out/compare.txt"
  python3 apps/cl-bench/plot_bench.py "$out/results.json" "$out/theirs.json" --out "$out/plots" ||
    status=1
}

for group in "${groups[@]}"; do
  case "$group" in
    copy) run copy copy --runs 10 ;;
    scan)
      run scan scan --variant default,reduce-then-scan,lookback --dtype all --sizes "2^16,$big" --runs 10
      run scan-seed scan --variant naive,blelloch,blocks,blocks-vec --dtype int32 --sizes 2^20,2^24,2^26 --runs 5
      ;;
    reduce)
      run reduce reduce --variant default --dtype all --sizes "2^16,$big" --runs 10
      run reduce-seed reduce --variant two-pass,tree --dtype int32-sum --sizes 2^20,2^24,2^28 --runs 5
      ;;
    compact) run compact compact --sizes "$big" --runs 10 ;;
    matmul) run matmul matmul --sizes 512,1024,2048,4096,8192 --runs 5 ;;
    random) run random random --sizes 2^20,2^24,2^28 --runs 10 ;;
    sort) run sort sort --variant default,radix,radix-match --dtype uint32,uint32-kv,float32,int32 --sizes "2^16,$big" --runs 5 ;;
    sort-seed)
      run sort-seed sort --variant bitonic,bitonic-fused-2,bitonic-fused-4,bitonic-fused-8,bitonic-fused-16,radix-private,radix-local,radix-local-vec --dtype uint32,uint32-kv --sizes 2^20,2^24 --runs 3
      ;;
    report) report ;;
    *) echo "gpu_suite: unknown group '$group'" >&2; exit 2 ;;
  esac
done
exit $status
