#!/bin/bash
# Builds sort-profile (see sort_profile.cu) into $1 (default /tmp/sort-profile/sort-profile).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/sort-profile/sort-profile}
mkdir -p "$(dirname "$out")"
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
cuda=$(dirname "$(dirname "$nvcc")")
root=$(cd "$here/../../../.." && pwd)
"$nvcc" -O2 -std=c++17 -I"$root" "$here/sort_profile.cu" "$root/framework/ptx_register_cap.cpp" \
  -o "$out" -L"$cuda/lib64/stubs" -lcuda
echo "$out"
