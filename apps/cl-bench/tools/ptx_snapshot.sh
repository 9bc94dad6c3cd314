#!/bin/sh
# Writes the PTX clang 14 generates for the NVIDIA builds of the kernels with inline PTX (the radix
# sort, the look-back scan, the tf32x3 matmul) into OUT. Two uses: a kernel change can be checked
# against the code the NVIDIA driver gets without a GPU (run it before and after, then `cmp` the
# folders), and CI compiles these paths, which never build on PoCL (test kernels.nvidia-ptx). The
# defines are the ones the host passes on NVIDIA (framework/primitives/tuning.cpp's NVIDIA row),
# over the three key kinds, keys only and key-value, and the three rankings; -Dinline makes clang
# emit every helper's body. Exits 77 (skipped) without clang-14.
# Usage: apps/cl-bench/tools/ptx_snapshot.sh OUT   (from the repository root)
set -eu
out=${1:?usage: ptx_snapshot.sh OUT}
command -v clang-14 > /dev/null || { echo "ptx_snapshot.sh: clang-14 not found" >&2; exit 77; }
mkdir -p "$out"
ptx() {
  clang-14 -x cl -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -Xclang -finclude-default-header \
    -Xclang -fgnu-keywords '-Dinline=static __inline__' -O3 -S -I . "$@"
}
sort=kernels/primitives/sort/radix.cl
for kind in 0 1 2; do
  # int32 and float32: raw tile keys.
  by_kind=""
  [ "$kind" = 0 ] || by_kind="-DRAW_KEYS=1"
  for rank in 0 1 2; do
    common="-DRADIX_WG=256 -DRADIX_UNROLL_LOOPS=1 -DRANK_MATCH=$rank -DLOOKBACK_WINDOW=4 -DKEY_KIND=$kind $by_kind"
    # shellcheck disable=SC2086
    ptx -DWITH_VALUES=0 -DRADIX_ITEMS=28 $common "$sort" -o "$out/sort_k${kind}_m${rank}.ptx"
    # shellcheck disable=SC2086
    ptx -DWITH_VALUES=1 -DRADIX_ITEMS=22 $common "$sort" -o "$out/sort_kv_k${kind}_m${rank}.ptx"
  done
  # Key-value in Hopper's large tiles, a pass between two others: (key, value) pairs in and out.
  # shellcheck disable=SC2086
  ptx -DWITH_VALUES=1 -DRADIX_WG=512 -DRADIX_ITEMS=16 -DVALUES_LOCAL_WORDS=24576 -DPAIRS_IN=1 \
    -DPAIRS_OUT=1 -DRADIX_UNROLL_LOOPS=1 -DRANK_MATCH=2 -DLOOKBACK_WINDOW=4 -DKEY_KIND=$kind \
    $by_kind "$sort" -o "$out/sort_kv_pairs_k${kind}.ptx"
done
for type in int uint float; do
  ptx -DT=$type -DAS_T=as_$type -DWG_SIZE=128 -DSCAN_ROW=16 -DITEMS=32 -DCLF_PTX \
    kernels/primitives/scan/lookback.cl -o "$out/scan_$type.ptx"
done
for bounds in 0 1; do
  ptx -DWARPS_M=2 -DWARPS_N=2 -DTILES_M=4 -DTILES_N=4 -DBK=16 -DPARTIAL_STEPS=4 -DCLF_PTX=1 \
    -DMATMUL_CHECK_BOUNDS=$bounds kernels/primitives/matmul/tf32x3.cl -o "$out/tf32x3_b$bounds.ptx"
done
ls "$out" | wc -l
